"""The static site's pages: the page template (the app's, with the site's page script,
linking the files every page shares; :func:`write_template`), the config every page carries
(:func:`page_config`: how its kernel loads Pyodide and the pages' packages), and Voici
rendering the notebooks with them (:func:`render_pages`).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from tutor.display.context import FRONTEND_VARIABLE, Frontend
from tutor.resources import jupyter_data_dir
from tutor.site.build_inputs import HERE, SiteBuildError
from tutor.site.build_wheels import LOADER, PRELOAD, SITE_PACKAGES
from tutor.teaching.progress_stores import PROGRESS_STORE_VARIABLE, StoreSetting

KERNEL_EXTENSION = "@jupyterlite/pyodide-kernel-extension"
KERNEL_PLUGIN = f"{KERNEL_EXTENSION}:kernel"

# The kernel's worker script, which page.js starts with the page (loader.js says why): the
# page config names it, found in the kernel's extension, whose file names change with its
# version. Its PyodideKernel (0.6.1, minified) makes its worker so: the first chunk on a
# cross-origin isolated page, the second (comlink) on the others, which are the site's.
KERNEL_WORKER_SETTING = "tutorKernelWorker"
_KERNEL_WORKERS = re.compile(
    r"crossOriginIsolated\?new Worker\(new URL\(\w+\.p\+\w+\.u\((\d+)\),\w+\.b\)[^)]*\)"
    r":new Worker\(new URL\(\w+\.p\+\w+\.u\((\d+)\),"
)
SITE_TEMPLATE = "tutor-site"
THEME = "light"

# What is the same on every page is a file of the site that each page links, which the
# browser fetches once and keeps for every page: Voici, like nbconvert, writes each file that
# `resources.include_css` or `include_js` names into the page (the stylesheets alone are
# 270 KB a page, JupyterLab's index.css 240 KB of them; the scripts 70 KB). Each address
# carries its file's content hash (:func:`versioned_address`), so a new build is not hidden
# by what a browser kept of the one before.
SHARED_FOLDER = "static/tutor-site"
"""Where the shared files are in the site (relative to its root)."""

# The stylesheets of every page (JupyterLab's, in the pages' theme, then the tutor's), in
# the order the page template names them, joined in one file.
PAGE_STYLESHEETS = (
    "static/index.css",
    f"static/theme-{THEME}.css",
    "static/tutor.css",
    "static/tutor-page.css",
)
SHARED_STYLESHEET = f"{SHARED_FOLDER}/page.css"
"""The pages' stylesheets, joined."""
SITE_PAGE_SCRIPT = f"{SHARED_FOLDER}/page.js"
"""The site's own page script (page.js), which runs first."""

# The app's template's blocks of page scripts (tutor/app/jupyter/.../tutor/index.html.j2),
# which name them: the setup scripts, before Voici's script, and the course's, after it.
SCRIPT_BLOCKS = ("tutor_setup_scripts", "tutor_course_scripts")
APP_TEMPLATE = "tutor/index.html.j2"

FOLDER_REDIRECT = """<!DOCTYPE html>
<html><head><meta charset="utf-8"><link rel="icon" href="data:;base64,=">
<script>window.location.replace("../render/index.html" + window.location.search);</script>
</head><body><p><a href="../render/index.html">index</a></p></body></html>
"""

PYODIDE_LOADER_SETTING = "tutorPyodideLoader"
"""The page config's name for the kernel's loader of Pyodide (build_wheels.LOADER), which
page.js makes the kernel's pyodideUrl."""


def _template_paths(jupyter_path: list[str]) -> list[str]:
    """Where Voici looks for the site template's files, in its order, when ``jupyter_path``
    is its JUPYTER_PATH (the template's folders, then the ones it extends: tutor, lab)."""
    from jupyter_core.paths import jupyter_path as standard_paths
    from voila.paths import collect_template_paths

    own = os.environ.get("JUPYTER_PATH", "").split(os.pathsep)
    roots = [*jupyter_path, *(p for p in standard_paths() if p not in own)]
    return cast(
        "list[str]",
        collect_template_paths(["voila", "nbconvert"], SITE_TEMPLATE, prune=True, root_dirs=roots),
    )


def _template_file(name: str, template_paths: list[str], site_templates: Path) -> Path:
    """The file ``name`` as ``resources.include_css`` or ``include_js`` finds it, the first
    of ``template_paths`` that has it, if the site's template (in ``site_templates``) did
    not have it."""
    folders = [Path(p) for p in template_paths if not Path(p).is_relative_to(site_templates)]
    found = next((folder / name for folder in folders if (folder / name).is_file()), None)
    if found is None:
        raise SiteBuildError(f"the page's file {name} is in none of {template_paths}")
    return found


def page_stylesheet(template_paths: list[str], site_templates: Path) -> str:
    """PAGE_STYLESHEETS in one, each found as ``resources.include_css`` would find it (the
    first of ``template_paths`` that has it) if the site's template, in ``site_templates``,
    did not have its empty copy."""
    return "".join(
        f"/* {name} */\n"
        f"{_template_file(name, template_paths, site_templates).read_text(encoding='utf-8')}\n"
        for name in PAGE_STYLESHEETS
    )


def versioned_address(path: str, text: str) -> str:
    """The address a page links the site's file ``path`` (relative to the site's root) by,
    which changes with its ``text``; written in the page template's language (it starts
    from the page's ``base_url``)."""
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]
    return f"{{{{ base_url }}}}{path}?v={digest}"


@dataclass(frozen=True)
class SharedFiles:
    """The files every page links: their text by their path in the site (``files``), and
    the HTML that links the scripts of each of the app's SCRIPT_BLOCKS (``blocks``, by
    name; in the block's order), in the page template's language."""

    files: dict[str, str]
    blocks: dict[str, str]

    def address(self, path: str) -> str:
        """The versioned address of the shared file ``path``."""
        return versioned_address(path, self.files[path])


def shared_files(template_paths: list[str], site_templates: Path) -> SharedFiles:
    """PAGE_STYLESHEETS in one file, the site's page script, and the scripts the app's
    SCRIPT_BLOCKS name, each found as ``include_js`` would find it in ``template_paths``.

    The blocks are the one list of the scripts: each is rendered here, as Voici would,
    with an ``include_js`` that links its file of the site where Voici's writes it in."""
    import jinja2
    from markupsafe import Markup

    files = {
        SHARED_STYLESHEET: page_stylesheet(template_paths, site_templates),
        SITE_PAGE_SCRIPT: (HERE / "page.js").read_text(encoding="utf-8"),
    }

    def include_js(name: str, module: bool = False) -> Markup:
        path = f"{SHARED_FOLDER}/{Path(name).name}"
        text = _template_file(name, template_paths, site_templates).read_text("utf-8")
        if files.setdefault(path, text) != text:
            raise SiteBuildError(f"two page scripts would be the site's {path}: {name} is one")
        kind = ' type="module"' if module else ""
        return Markup(f'<script src="{versioned_address(path, text)}"{kind}></script>')

    folders = [p for p in template_paths if not Path(p).is_relative_to(site_templates)]
    environment = jinja2.Environment(
        loader=jinja2.FileSystemLoader(folders), undefined=jinja2.StrictUndefined
    )
    try:
        template = environment.get_template(APP_TEMPLATE)
        context = template.new_context({"resources": {"include_js": include_js}})
        blocks = {name: "".join(template.blocks[name](context)) for name in SCRIPT_BLOCKS}
    except (jinja2.TemplateError, KeyError) as error:
        raise SiteBuildError(
            f"the app's page template {APP_TEMPLATE} has no blocks {SCRIPT_BLOCKS} that "
            f"name only scripts (include_js): {error!r}"
        ) from error
    return SharedFiles(files=files, blocks=blocks)


def write_template(folder: Path, jupyter_path: list[str]) -> SharedFiles:
    """The ``tutor-site`` page template: the app's (keyboard, presenter, no CDN links) with
    the site's page script, into ``folder`` (first of ``jupyter_path``, Voici's
    JUPYTER_PATH). Returns the files its pages link (:func:`shared_files`), for the site.

    Its pages link the site's files where the app's template would write PAGE_STYLESHEETS
    and its scripts into each page: the template's own copies of the stylesheets, found
    first by ``include_css``, are empty; its scripts are the app's blocks rendered with
    links (:func:`shared_files`)."""
    from tutor.display.page_words import page_words

    root = folder / "nbconvert" / "templates" / SITE_TEMPLATE
    root.mkdir(parents=True)
    (root / "conf.json").write_text(
        json.dumps({"base_template": "tutor", "mimetypes": {"text/html": True}})
    )
    for name in PAGE_STYLESHEETS:
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(f"/* linked: the site's {SHARED_STYLESHEET} */\n")
    (root / "tree-lab.html").write_text(FOLDER_REDIRECT)
    (root / "tree.html").write_text(FOLDER_REDIRECT)
    shared = shared_files(_template_paths(jupyter_path), folder)
    setup, course = (shared.blocks[name] for name in SCRIPT_BLOCKS)
    # Voici does not pass VoilaConfiguration.resources to its exporter, so the words the
    # app's template reads from `resources.tutor` are written into the page here.
    words = json.dumps(page_words({}), ensure_ascii=False).replace("</", "<\\/")
    (root / "index.html.j2").write_text(
        "{#- The tutor's page (tutor/app/jupyter/nbconvert/templates/tutor) under Voici.\n"
        "    Its body_footer is the app's without static/tutor-page.js, which watches a\n"
        "    server's kernel (there is none: a page that takes long to start Python in a\n"
        "    slow browser must not be reloaded); with the presenter's words, which Voila\n"
        "    gets from tutor/display/page_words.py, and the site's page script (page.js) and\n"
        "    the app's setup scripts (the settings, the widgets' recovery), which must run\n"
        "    before Voici's; the app's course scripts after them (the app's blocks).\n"
        "    Its pages link the site's stylesheet and scripts instead of carrying them\n"
        "    (tutor/site/build_pages.py: write_template).\n"
        "    -#}\n"
        "{%- extends 'tutor/index.html.j2' -%}\n"
        "{%- block notebook_css -%}\n"
        f'<link rel="stylesheet" type="text/css" href="{shared.address(SHARED_STYLESHEET)}">\n'
        "{{ super() }}\n"
        "{%- endblock notebook_css -%}\n"
        "{%- block body_footer -%}\n"
        f'<script id="tutor-present-words" type="application/json">{{% raw %}}{words}'
        "{% endraw %}</script>\n"
        f'<script src="{shared.address(SITE_PAGE_SCRIPT)}"></script>\n'
        f"{setup}\n"
        "{{ super.super() }}\n"
        f"{course}\n"
        "{%- endblock body_footer -%}\n"
    )
    return shared


def kernel_worker_script(extension: Path) -> str | None:
    """Where the site has the kernel's worker script of a page that is not cross-origin
    isolated (relative to its root), found in the kernel's ``extension``; None if it is not
    found as expected (then no page starts its kernel early: page.js)."""
    static = extension / "static"
    chunks = {
        match.group(2)
        for script in sorted(static.glob("*.js"))
        for match in _KERNEL_WORKERS.finditer(script.read_text(encoding="utf-8", errors="replace"))
    }
    if len(chunks) != 1:
        return None
    (chunk,) = chunks
    files = [p.name for p in static.iterdir() if re.fullmatch(rf"{chunk}\.[0-9a-f]+\.js", p.name)]
    if len(files) != 1:
        return None
    return f"./extensions/{KERNEL_EXTENSION}/static/{files[0]}"


def page_config() -> dict[str, Any]:
    """The page config every page carries (jupyter-lite.json); page.js completes it and,
    when it names the kernel's worker script (:func:`kernel_worker_script`), starts the
    kernel with the page."""
    kernel_worker = kernel_worker_script(
        Path(sys.prefix) / "share/jupyter/labextensions" / KERNEL_EXTENSION
    )
    early_start = {KERNEL_WORKER_SETTING: kernel_worker} if kernel_worker else {}
    return {
        "jupyter-lite-schema-version": 0,
        "jupyter-config-data": {
            "appName": "Wizard rules tutor",
            **early_start,
            # The kernel's pyodideUrl, which page.js puts in place: JupyterLite's build
            # sets that to Pyodide's own pyodide.js whatever the config says.
            PYODIDE_LOADER_SETTING: f"./static/pyodide/{LOADER}",
            "litePluginSettings": {
                KERNEL_PLUGIN: {
                    "pyodideUrl": "./static/pyodide/pyodide.js",
                    # every wheel is in the site: never ask PyPI
                    "disablePyPIFallback": True,
                    "loadPyodideOptions": {
                        "packages": list(PRELOAD),
                        "env": {
                            "PYTHONSTARTUP": f"{SITE_PACKAGES}/tutor/site/startup.py",
                            # the pages are an app, as under Voila: links keep ?lang=,
                            # presenter mode (tutor/display/context.py); progress is kept
                            # in the browser (tutor/teaching/progress_stores.py)
                            FRONTEND_VARIABLE: Frontend.APP.value,
                            PROGRESS_STORE_VARIABLE: StoreSetting.BROWSER.value,
                        },
                    },
                }
            },
        },
    }


def render_pages(
    notebooks: Iterable[Path], out: Path, wheels: Iterable[Path], lite: Path | None = None
) -> SharedFiles:
    """Voici (JupyterLite) renders ``notebooks`` into ``out`` (replaced), offline, with the
    site's template (:func:`write_template`) and page config (:func:`page_config`, written
    into ``lite``, JupyterLite's folder that holds the runtime the build put there; without
    one, the pages alone, which run beside a site built before: the widget-recovery test's).
    anywidget's labextension comes from its wheel among ``wheels``. Returns the files the
    pages link (:func:`shared_files`), which the site must hold."""
    # JupyterLite's settings go in the work folder's jupyter_lite_config.json;
    # JUPYTER_CONFIG_DIR is an empty folder, so no ~/.jupyter can change the build.
    with tempfile.TemporaryDirectory(prefix="tutor-pages-") as work_name:
        work = Path(work_name)
        if lite is None:
            lite = work / "lite"
            lite.mkdir()
        (lite / "jupyter-lite.json").write_text(json.dumps(page_config(), indent=1))
        contents = work / "contents"
        contents.mkdir()
        for notebook in notebooks:
            shutil.copy2(notebook, contents / notebook.name)
        jupyter_path = [str(work / "templates"), str(jupyter_data_dir())]
        shared = write_template(work / "templates", jupyter_path)
        kernel_extension = Path(sys.prefix) / "share/jupyter/labextensions" / KERNEL_EXTENSION
        anywidget = [str(w) for w in wheels if w.name.startswith("anywidget-")]
        (work / "jupyter_lite_config.json").write_text(
            json.dumps(
                {
                    "LiteBuildConfig": {
                        "apps": ["voici"],
                        "contents": [str(contents)],
                        "output_dir": str(out),
                        "no_sourcemaps": True,
                        "no_unused_shared_packages": True,
                        # labextensions: the kernel's and anywidget's only, not whatever
                        # else this Python has installed
                        "ignore_sys_prefix": ["federated_extensions"],
                        "federated_extensions": [str(kernel_extension), *anywidget],
                    },
                    "VoilaConfiguration": {
                        "template": SITE_TEMPLATE,
                        "theme": THEME,
                        "strip_sources": True,
                    },
                }
            )
        )
        (work / "config").mkdir()
        env = dict(os.environ)
        env["JUPYTER_PATH"] = os.pathsep.join(jupyter_path)
        env["JUPYTER_CONFIG_DIR"] = str(work / "config")
        env["JUPYTERLITE_NO_LIBARCHIVE"] = "1"
        if out.exists():
            shutil.rmtree(out)
        # (`python -m voici_core` imports the package "voici", which voici-core lacks)
        command = [
            sys.executable, "-c", "from voici_core.app import main; main()",
            "build", "--lite-dir", str(lite),
        ]  # fmt: skip
        result = subprocess.run(command, cwd=work, env=env, capture_output=True, text=True)
        if result.returncode != 0:
            raise SiteBuildError(
                "Voici could not build the site:\n" + (result.stdout + result.stderr)[-3000:]
            )
    return shared
