"""What JupyterLab's page loads: a Jupyter server extension that keeps JupyterLite's own
labextensions out of it.

The static site's tools (the ``site`` extra, tutor/site/) bring jupyterlite-pyodide-kernel,
which puts JupyterLite's Pyodide kernel as a labextension in the environment's
``share/jupyter/labextensions``, where every JupyterLab of that environment finds it. It
consumes modules that only JupyterLite's own page shares (``@jupyterlite/server``, ...),
so in Lab it cannot load: the console said "Shared module @jupyterlite/server doesn't
exist in shared scope default" at every start. Disabling it in the page config would not
help: Lab loads the module of every extension the page lists before it looks at what is
disabled (``jupyterlab/staging/bootstrap.js``). So the page is not told about it: the
server's ``page_config_hook`` (the hook JupyterHub's single-user servers use for their own
page settings; one set before this extension loads still runs first) drops from
``federated_extensions`` every extension that needs a ``@jupyterlite/`` module it does not
bring (:func:`needs_jupyterlite`). The site's build reads the extension from its folder
itself (tutor/site/build.py), so it still gets it.

``wizard-tutor lab`` enables it (``tutor/app/lab-config/jupyter_server_config.d``, first
on ``JUPYTER_CONFIG_PATH``), and so does installing the tutor (the same file goes to the
environment's ``etc/jupyter``), as for :mod:`tutor.app.lab_save`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

EXTENSION = "tutor.app.lab_page"
"""This module's name, as Jupyter's ``jpserver_extensions`` names it."""

JUPYTERLITE_SCOPE = "@jupyterlite/"

PageConfigHook = Callable[[Any, dict[str, Any]], dict[str, Any]]


def needs_jupyterlite(package: Mapping[str, Any]) -> bool:
    """Whether a labextension (its ``package.json``) needs a module that only JupyterLite
    shares: one of ``@jupyterlite/`` it consumes without bundling it.

    >>> needs_jupyterlite({"name": "@jupyterlite/pyodide-kernel-extension", "jupyterlab": {
    ...     "sharedPackages": {"@jupyterlite/server": {"bundled": False, "singleton": True}}}})
    True
    >>> needs_jupyterlite({"name": "@jupyter-widgets/jupyterlab-manager", "jupyterlab": {
    ...     "sharedPackages": {"@jupyter-widgets/base": {"bundled": False}}}})
    False
    """
    shared = package.get("jupyterlab", {}).get("sharedPackages", {})
    return any(
        name.startswith(JUPYTERLITE_SCOPE) and not settings.get("bundled", True)
        for name, settings in shared.items()
    )


def jupyterlite_extensions(labextensions_path: list[str]) -> set[str]:
    """The names of the labextensions on ``labextensions_path`` that need JupyterLite."""
    from jupyterlab_server.config import get_federated_extensions

    found = get_federated_extensions(labextensions_path)
    return {name for name, package in found.items() if needs_jupyterlite(package)}


def without_jupyterlite(previous: PageConfigHook | None) -> PageConfigHook:
    """A ``page_config_hook`` that runs ``previous`` (if any), then drops the extensions
    that need JupyterLite from the page's ``federated_extensions``."""

    def hook(handler: Any, page_config: dict[str, Any]) -> dict[str, Any]:
        if previous is not None:
            page_config = previous(handler, page_config)
        lab = handler.extensionapp  # the LabApp whose page this is: where it looked
        lite = jupyterlite_extensions(lab.extra_labextensions_path + lab.labextensions_path)
        page_config["federated_extensions"] = [
            extension
            for extension in page_config.get("federated_extensions", [])
            if extension["name"] not in lite
        ]
        return page_config

    return hook


def _jupyter_server_extension_points() -> list[dict[str, str]]:
    """How Jupyter Server finds this extension."""
    return [{"module": EXTENSION}]


def _load_jupyter_server_extension(serverapp: Any) -> None:
    """Put the hook in the server's settings (around any hook set before)."""
    settings = serverapp.web_app.settings
    settings["page_config_hook"] = without_jupyterlite(settings.get("page_config_hook"))
