"""The layers of the package import one way: app, site, hub -> display -> play -> teaching
-> rules.

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
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

import tutor
import tutor.display
import tutor.play
import tutor.rules
import tutor.teaching

WIDGETS = ("ipywidgets", "IPython")
ABOVE_DISPLAY = ("tutor.app", "tutor.site", "tutor.hub", "tutor.cli")
ABOVE_PLAY = ("tutor.display", *ABOVE_DISPLAY, *WIDGETS)
ABOVE_TEACHING = ("tutor.play", *ABOVE_PLAY)
ABOVE_RULES = ("tutor.teaching", *ABOVE_TEACHING)


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
DISPLAY = modules_of(tutor.display)
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
    assert {"tutor.display.play", "tutor.display.widgets"} <= set(DISPLAY)
    # the play screen's parts, each a module of the display layer
    play_parts = {"play_settings", "play_hand", "play_results", "play_style", "trick_replay"}
    assert {f"tutor.display.{name}" for name in play_parts} <= set(DISPLAY)


ABOVE = {
    **dict.fromkeys(DISPLAY, ABOVE_DISPLAY),
    **dict.fromkeys(RULES, ABOVE_RULES),
    **dict.fromkeys(TEACHING, ABOVE_TEACHING),
    **dict.fromkeys(PLAY, ABOVE_PLAY),
    **dict.fromkeys(LIGHT_DISPLAY, ("tutor.play", *ABOVE_DISPLAY, *WIDGETS)),
    # building the static site draws no widget: it reads the page's context (the language,
    # ?present=) and the words of the page, not the widget modules
    **dict.fromkeys(
        [f"tutor.site.{name}" for name in ("build", "build_inputs", "build_wheels", "build_pages")],
        ("tutor.display.widgets", "tutor.display.stepper", *WIDGETS),
    ),
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
    # what the two servers (app, hub) serve alike: the tutor's short pages, the live room
    "web": 4,
    # the three hosts, side by side above them
    "app": 5,
    "site": 5,
    "hub": 5,
    "cli": 6,
    "__main__": 6,
}
"""Each part of the package and its height; ``tutor`` itself is the API, at the rules'."""
HOSTS = ("app", "site", "hub")
"""The three hosts side by side: what two of them need lives in a layer below (the live
room both servers serve is in ``web``), so none imports another."""
PACKAGE = Path(tutor.__file__).parent


def height(module: str) -> int:
    parts = module.split(".")
    if len(parts) == 1 or parts[1] not in LAYERS:
        return 0  # tutor itself, or a name of its API (tutor.Round, tutor.__version__)
    return LAYERS[parts[1]]


def part(module: str) -> str:
    """``tutor.site.build`` -> ``site``; ``tutor`` itself -> ``""``."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def crosses(module: str, name: str) -> bool:
    """Whether ``module`` importing ``name`` goes against the layers: up, or across to
    another host."""
    if height(name) > height(module):
        return True
    across = (part(module), part(name))
    return across[0] != across[1] and all(p in HOSTS for p in across)


def module_name(path: Path, root: Path) -> str:
    """``tutor/display/play.py`` -> ``tutor.display.play``; a package's ``__init__.py`` is
    the package."""
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported_names(node: ast.AST, module: str, is_package: bool) -> list[str]:
    """The modules (and module attributes) ``node`` imports, absolute: ``import a.b``,
    ``from a import b`` (both ``a`` and ``a.b``, which may be a module: ``from tutor import
    display``), relative imports resolved against ``module``, and
    ``importlib.import_module("a.b")`` / ``__import__("a.b")`` with a literal name."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if isinstance(node, ast.ImportFrom):
        if node.level:
            package = module.split(".") if is_package else module.split(".")[:-1]
            package = package[: len(package) - (node.level - 1)]
            base = ".".join([*package, *([node.module] if node.module else [])])
        else:
            base = node.module or ""
        return [base, *(f"{base}.{alias.name}" for alias in node.names if alias.name != "*")]
    if isinstance(node, ast.Call) and node.args:
        function = node.func
        called = getattr(function, "attr", None) or getattr(function, "id", "")
        first = node.args[0]
        if called in ("import_module", "__import__") and isinstance(first, ast.Constant):
            return [str(first.value)]
    return []


def upward_imports(source: str, module: str, *, is_package: bool = False) -> list[str]:
    """The imports in ``source`` (module ``module``) of a layer above it or of another host,
    as "line: module"; a rules module's ``_repr_*_`` method may import the display layer."""
    own = height(module)
    found = []

    def visit(node: ast.AST, in_repr: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                visit(child, in_repr or (child.name.startswith("_repr_") and own == 0))
                continue
            for name in imported_names(child, module, is_package):
                allowed = in_repr and height(name) == LAYERS["display"]
                if name.split(".")[0] == "tutor" and crosses(module, name) and not allowed:
                    found.append(f"{child.lineno}: {name}")
            visit(child, in_repr)

    visit(ast.parse(source), in_repr=False)
    return sorted(set(found), key=lambda line: (int(line.split(":")[0]), line))


# tutor/__init__.py is the README's API: it names teaching-layer functions, which it
# imports on first use; that importing it loads no teaching module is checked above.
LAZY_API = Path("tutor") / "__init__.py"


def scanned_files(root: Path) -> list[Path]:
    """Every Python file of the package under ``root`` (the folder holding ``tutor/``)."""
    return sorted(
        path for path in (root / "tutor").rglob("*.py") if path.relative_to(root) != LAZY_API
    )


def upward_imports_in(root: Path) -> dict[str, list[str]]:
    """Each file under ``root/tutor`` that imports upwards, with its upward imports."""
    found = {}
    for path in scanned_files(root):
        module = module_name(path, root)
        source = path.read_text(encoding="utf-8")
        upward = upward_imports(source, module, is_package=path.name == "__init__.py")
        if upward:
            found[str(path.relative_to(root))] = upward
    return found


def test_every_part_of_the_package_is_scanned() -> None:
    """Every subpackage has a height, and has its files scanned."""
    parts = {path.name for path in PACKAGE.iterdir() if (path / "__init__.py").exists()}
    parts |= {path.stem for path in PACKAGE.glob("*.py")} - {"__init__"}
    assert parts <= set(LAYERS), f"parts without a height: {parts - set(LAYERS)}"
    scanned = {module_name(path, PACKAGE.parent).split(".")[1] for path in scanned_files(PACKAGE.parent)}  # fmt: skip
    assert scanned == parts
    assert {"hub", "app", "site", "web", "display", "cli"} <= scanned


def test_no_import_statement_reaches_up() -> None:
    assert upward_imports_in(PACKAGE.parent) == {}


PLANTED = {
    # where: (the planted module, an import of the layer above it, in one of each form)
    "rules": ("tutor/rules/planted.py", "from tutor import teaching"),
    "teaching": ("tutor/teaching/planted.py", "from ..play import bots"),
    "play": ("tutor/play/planted.py", "import tutor.display.svg"),
    "display": ("tutor/display/planted.py", "from tutor.app import settings"),
    "display package": ("tutor/display/__init__.py", "from ..site import build"),
    "app": ("tutor/app/planted.py", "from tutor import cli"),
    "site": ("tutor/site/planted.py", "from .. import cli"),
    "hub": ("tutor/hub/planted.py", "importlib.import_module('tutor.cli')"),
    "site to app": ("tutor/site/planted.py", "from tutor.app.settings import apply_settings"),
    "site to app, in a function": (
        "tutor/site/build.py",
        "def later():\n    from ..app import settings",
    ),
    "app to site": ("tutor/app/planted.py", "import tutor.site.build"),
    "app to hub": ("tutor/app/planted.py", "from tutor.hub import login"),
    "site to hub": ("tutor/site/planted.py", "from tutor.hub import login"),
    "hub to app": ("tutor/hub/room_service.py", "from tutor.app.admission import Admission"),
    "web to app": ("tutor/web/planted.py", "from tutor.app import settings"),
    "in a function": ("tutor/hub/planted.py", "def later():\n    from tutor.cli import main"),
    "errors": ("tutor/errors.py", "from tutor.display import html"),
}


@pytest.mark.parametrize("where", PLANTED)
def test_an_upward_import_planted_in_any_package_is_found(where: str, tmp_path: Path) -> None:
    """The check can fail: a copy of the package with one upward import planted (in a new
    module or an existing one) is refused, naming the file, line and module."""
    shutil.copytree(PACKAGE, tmp_path / "tutor", ignore=shutil.ignore_patterns("__pycache__"))
    relative, statement = PLANTED[where]
    planted = tmp_path / relative
    before = planted.read_text(encoding="utf-8") if planted.exists() else ""
    planted.write_text(before + "\n" + statement + "\n", encoding="utf-8")
    line = before.count("\n") + 2 + statement.count("\n")
    found = upward_imports_in(tmp_path)
    assert list(found) == [relative]
    assert found[relative] and all(f.startswith(f"{line}: tutor.") for f in found[relative])


def test_the_import_check_resolves_every_form_of_import() -> None:
    checks = {
        "from tutor import display": ["1: tutor.display"],
        "from tutor.display import html": ["1: tutor.display", "1: tutor.display.html"],
        "import tutor.display.svg as svg": ["1: tutor.display.svg"],
        "from .. import display": ["1: tutor.display"],
        "from ..display.html import round_html": [
            "1: tutor.display.html",
            "1: tutor.display.html.round_html",
        ],
        "__import__('tutor.display')": ["1: tutor.display"],
        # the same layer, a layer below, and another package are not upward
        "from . import cards": [],
        "from tutor import rules, errors": [],
        "import display": [],
    }
    for source, expected in checks.items():
        assert upward_imports(source, "tutor.rules.planted") == expected, source


def test_the_import_check_allows_only_the_repr_hooks() -> None:
    """The check itself: the engine's _repr_svg_ may import the display layer; the same
    import in any other function, or in a teaching module's _repr_, is refused."""
    source = (PACKAGE / "rules" / "cards.py").read_text(encoding="utf-8")
    assert "    def _repr_svg_(self) -> str:\n        from tutor.display.svg import" in source
    assert upward_imports(source, "tutor.rules.cards") == []
    renamed = source.replace("def _repr_svg_(", "def to_svg(")
    assert {line.split(": ")[1] for line in upward_imports(renamed, "tutor.rules.cards")} == {
        "tutor.display.svg",
        "tutor.display.svg.card_svg",
    }
    teaching = "def _repr_html_(self):\n    from tutor.display.html import round_html\n"
    assert upward_imports(teaching, "tutor.teaching.lesson") == [
        "2: tutor.display.html",
        "2: tutor.display.html.round_html",
    ]
    play = "if TYPE_CHECKING:\n    from tutor.display.play import PlayScreen\n"
    assert upward_imports(play, "tutor.play.session") == [
        "2: tutor.display.play",
        "2: tutor.display.play.PlayScreen",
    ]
