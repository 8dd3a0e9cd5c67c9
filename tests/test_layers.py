"""The layers of the package import one way: display -> play -> teaching -> rules.

Each module of a layer is imported alone, in a fresh interpreter, and the modules it
loaded (``sys.modules``) must hold nothing of a layer above it, nor the widget libraries
below the display layer: the rules run without a screen or a word of text, the teaching
layer without bots or widgets, the bots without a screen. And no import statement reaches
up, not even one inside a function, except the one the house allows: the engine's rich
display (``_repr_svg_``, ``_repr_html_``) imports the display layer inside the method,
when a notebook calls it.
"""

from __future__ import annotations

import ast
import json
import pkgutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

import tutor
import tutor.play
import tutor.rules
import tutor.teaching

WIDGETS = ("ipywidgets", "IPython")
ABOVE_RULES = (
    "tutor.teaching", "tutor.play", "tutor.display", "tutor.app", "tutor.site", "tutor.cli", *WIDGETS
)  # fmt: skip
ABOVE_TEACHING = ("tutor.play", "tutor.display", "tutor.app", "tutor.site", "tutor.cli", *WIDGETS)
ABOVE_PLAY = ("tutor.display", "tutor.app", "tutor.site", "tutor.cli", *WIDGETS)


def modules_of(package: ModuleType) -> list[str]:
    """The package and every module in it, by dotted name."""
    found = pkgutil.walk_packages(package.__path__, prefix=f"{package.__name__}.")
    return [package.__name__, *sorted(module.name for module in found)]


# `tutor` (the README's API), `tutor.errors` and `tutor.resources` (where the lessons are)
# belong with the rules: importing the engine runs tutor/__init__.py first, so it must stay
# as light as the rules themselves.
RULES = ["tutor", "tutor.errors", "tutor.resources", *modules_of(tutor.rules)]
TEACHING = modules_of(tutor.teaching)
PLAY = modules_of(tutor.play)
# The engine's _repr_svg_ imports tutor.display.svg, which runs tutor/display/__init__.py:
# drawing a card in a notebook must not pull in the widgets.
LIGHT_DISPLAY = ["tutor.display", "tutor.display.svg", "tutor.display.html"]


def loaded_by(module: str, tmp_path: Path) -> list[str]:
    """Every module in ``sys.modules`` after a fresh interpreter imports ``module``."""
    code = (
        "import importlib, json, sys; "
        f"importlib.import_module({module!r}); "
        "print(json.dumps(sorted(sys.modules)))"
    )
    run = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, check=False
    )
    assert run.returncode == 0, f"import {module} failed:\n{run.stderr}"
    names: list[str] = json.loads(run.stdout)
    return names


def forbidden(loaded: list[str], above: tuple[str, ...]) -> list[str]:
    """The modules of ``loaded`` that are, or are inside, one of ``above``."""
    return [name for name in loaded if any(name == a or name.startswith(f"{a}.") for a in above)]


def test_every_layer_has_its_modules() -> None:
    """The lists below are found in the package folders, so a new module is checked too."""
    assert {"tutor.rules.round", "tutor.rules.trick", "tutor.rules.seats"} <= set(RULES)
    assert {"tutor.teaching.explain", "tutor.teaching.lesson_loader"} <= set(TEACHING)
    assert {"tutor.play.bots", "tutor.play.session"} <= set(PLAY)


ABOVE = {
    **dict.fromkeys(RULES, ABOVE_RULES),
    **dict.fromkeys(TEACHING, ABOVE_TEACHING),
    **dict.fromkeys(PLAY, ABOVE_PLAY),
    **dict.fromkeys(LIGHT_DISPLAY, ("tutor.play", "tutor.app", "tutor.cli", *WIDGETS)),
}
"""Each module checked, with what importing it must not load."""


@pytest.mark.parametrize("module", ABOVE)
def test_importing_a_module_loads_nothing_above_its_layer(module: str, tmp_path: Path) -> None:
    loaded = loaded_by(module, tmp_path)
    assert module in loaded
    assert forbidden(loaded, ABOVE[module]) == []


def test_the_readme_api_still_offers_the_engines_reasons_in_words() -> None:
    """tutor's teaching-layer names are loaded on first use, and are the teaching layer's."""
    from tutor.teaching import explain

    assert tutor.describe_trick is explain.describe_trick
    assert {"card_name", "describe_play", "describe_score"} <= set(dir(tutor))
    assert set(tutor.__all__) <= set(dir(tutor))
    with pytest.raises(AttributeError, match="no attribute 'describe_everything'"):
        _ = tutor.describe_everything


LAYERS = {
    "rules": 0,
    "errors": 0,
    "resources": 0,
    "teaching": 1,
    "play": 2,
    "display": 3,
    "app": 4,
    "site": 4,  # the static site: beside the app, above the display layer
    "cli": 5,
}
"""Each part of the package and its height; ``tutor`` itself is the API, at the rules'."""
PACKAGE = Path(tutor.__file__).parent


def height(module: str) -> int:
    parts = module.split(".")
    return LAYERS.get(parts[1], 0) if len(parts) > 1 else 0


def upward_imports(source: str, own: int) -> list[str]:
    """The imports in ``source`` (of a module at height ``own``) of a layer above it, as
    "line: module"; a rules module's ``_repr_*_`` method may import the display layer."""
    found = []

    def visit(node: ast.AST, in_repr: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef):
                visit(child, in_repr or (child.name.startswith("_repr_") and own == 0))
                continue
            if isinstance(child, ast.ImportFrom) and child.module:
                names = [child.module]
            elif isinstance(child, ast.Import):
                names = [alias.name for alias in child.names]
            else:
                names = []
            for name in names:
                allowed = in_repr and height(name) == LAYERS["display"]
                if name.startswith("tutor.") and height(name) > own and not allowed:
                    found.append(f"{child.lineno}: {name}")
            visit(child, in_repr)

    visit(ast.parse(source), in_repr=False)
    return found


# Not tutor/__init__.py: the README's API names teaching-layer functions, which it imports
# on first use; that importing it loads no teaching module is checked above.
BELOW_DISPLAY = [
    PACKAGE / "errors.py",
    PACKAGE / "resources.py",
    *sorted((PACKAGE / "rules").glob("*.py")),
    *sorted((PACKAGE / "teaching").glob("*.py")),
    *sorted((PACKAGE / "play").glob("*.py")),
]


@pytest.mark.parametrize(
    "path", BELOW_DISPLAY, ids=lambda path: str(path.relative_to(PACKAGE.parent))
)
def test_no_import_statement_reaches_up(path: Path) -> None:
    module = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    assert upward_imports(path.read_text(encoding="utf-8"), height(module)) == []


def test_the_import_check_allows_only_the_repr_hooks() -> None:
    """The check itself: the engine's _repr_svg_ may import the display layer; the same
    import in any other function, or in a teaching module's _repr_, is refused."""
    source = (PACKAGE / "rules" / "cards.py").read_text(encoding="utf-8")
    assert "    def _repr_svg_(self) -> str:\n        from tutor.display.svg import" in source
    assert upward_imports(source, LAYERS["rules"]) == []
    renamed = source.replace("def _repr_svg_(", "def to_svg(")
    assert [line.split(": ")[1] for line in upward_imports(renamed, LAYERS["rules"])] == [
        "tutor.display.svg"
    ]
    teaching = "def _repr_html_(self):\n    from tutor.display.html import round_html\n"
    assert upward_imports(teaching, LAYERS["teaching"]) == ["2: tutor.display.html"]
    play = "if TYPE_CHECKING:\n    from tutor.display.play import PlayScreen\n"
    assert upward_imports(play, LAYERS["play"]) == ["2: tutor.display.play"]
