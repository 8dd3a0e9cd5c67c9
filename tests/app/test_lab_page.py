"""What JupyterLab's page loads (tutor/app/lab_page.py): not the labextensions that need
JupyterLite, which Lab cannot load; every other one as before. The real Lab page:
tests/test_cli.py (its config) and tests/browser/test_lab.py (its console)."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from jupyter_core.paths import jupyter_path

from tutor.app import lab_page
from tutor.app.lab_page import jupyterlite_extensions, without_jupyterlite
from tutor.resources import lab_config_dir
from tutor.site.build import KERNEL_EXTENSION


def labextension(folder: Path, name: str, shared: dict[str, Any]) -> dict[str, Any]:
    """A labextension as Lab finds it (``package.json`` in a folder of its name), and its
    entry in the page config."""
    built = {"load": "static/remoteEntry.0.js", "extension": "./extension"}
    package = {
        "name": name,
        "version": "1.0.0",
        "jupyterlab": {"sharedPackages": shared, "_build": built},
    }
    (folder / name).mkdir(parents=True)
    (folder / name / "package.json").write_text(json.dumps(package), encoding="utf-8")
    return {"name": name, **built}


def lab_handler(*paths: Path) -> SimpleNamespace:
    """What the hook reads of a Lab page's handler: its LabApp's labextensions paths."""
    lab = SimpleNamespace(extra_labextensions_path=[], labextensions_path=[str(p) for p in paths])
    return SimpleNamespace(extensionapp=lab)


def test_a_lab_page_is_not_told_about_an_extension_that_needs_jupyterlite(
    tmp_path: Path,
) -> None:
    lite = labextension(
        tmp_path, "@jupyterlite/some-kernel", {"@jupyterlite/server": {"bundled": False}}
    )
    widgets = labextension(
        tmp_path, "@jupyter-widgets/manager", {"@jupyter-widgets/base": {"bundled": False}}
    )
    # brings its own copy of a JupyterLite module: loads in Lab, so it stays
    own_copy = labextension(tmp_path, "own-copy", {"@jupyterlite/contents": {"bundled": True}})
    page_config = {"federated_extensions": [lite, widgets, own_copy], "appName": "JupyterLab"}
    shown = without_jupyterlite(None)(lab_handler(tmp_path), page_config)
    assert shown["federated_extensions"] == [widgets, own_copy]
    assert shown["appName"] == "JupyterLab"


def test_the_hook_set_before_still_runs_first(tmp_path: Path) -> None:
    """JupyterHub's single-user server sets its own hook; the tutor's wraps it."""
    lite = labextension(tmp_path, "@jupyterlite/k", {"@jupyterlite/kernel": {"bundled": False}})
    seen: list[list[str]] = []

    def hub_hook(handler: Any, page_config: dict[str, Any]) -> dict[str, Any]:
        seen.append([e["name"] for e in page_config["federated_extensions"]])
        return {**page_config, "hubUser": "ada"}

    server = SimpleNamespace(web_app=SimpleNamespace(settings={"page_config_hook": hub_hook}))
    lab_page._load_jupyter_server_extension(server)
    hook = server.web_app.settings["page_config_hook"]
    shown = hook(lab_handler(tmp_path), {"federated_extensions": [lite]})
    assert seen == [["@jupyterlite/k"]]
    assert shown == {"federated_extensions": [], "hubUser": "ada"}


def test_the_static_sites_kernel_installed_here_is_one_lab_leaves_out() -> None:
    """The cause itself: the site extra's Pyodide kernel, in this environment's
    labextensions, needs JupyterLite; the widget managers the pages use do not."""
    found = jupyterlite_extensions(jupyter_path("labextensions"))
    assert KERNEL_EXTENSION in found
    assert not found & {"@jupyter-widgets/jupyterlab-manager", "anywidget"}


def test_wizard_tutor_lab_enables_the_extension_beside_what_lab_saves() -> None:
    config = json.loads(
        (lab_config_dir() / "jupyter_server_config.d" / "wizard-tutor.json").read_text("utf-8")
    )
    enabled = config["ServerApp"]["jpserver_extensions"]
    assert enabled == {"tutor.app.lab_save": True, lab_page.EXTENSION: True}
    assert lab_page._jupyter_server_extension_points() == [{"module": lab_page.EXTENSION}]
