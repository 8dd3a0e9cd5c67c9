"""Jupyter Server configuration of a learner's own server on JupyterHub.

Used by both hubs: the one-machine hub (deploy/jupyterhub_config.py puts this folder on
JUPYTER_CONFIG_PATH) and the cluster image (deploy/Dockerfile copies it to /etc/jupyter).

What it does:
1. Serves the tutor as the stand-alone app does: Voila runs inside the server (its server
   extension, at <server>/voila/render/<notebook>) with the app's own settings, from
   tutor/app/settings.py (template, no sources, no tracebacks, no template/theme override,
   file allow/deny lists, kernel culling, Content-Security-Policy) - applied, not copied.
2. Locks down what a Jupyter server would otherwise give its user. A learner's server is
   a full Jupyter server; without this a learner could open JupyterLab, a terminal, or
   upload a notebook and have Voila run it. Here:
   - kernels accept only widget (comm) messages from the browser, as in the stand-alone
     Voila app: an execute_request sent over the websocket is dropped;
   - the server's REST API is read-only and does not serve the files: no upload, save,
     rename or delete, no kernels started by hand, no notebook source;
   - no terminals, no JupyterLab, no language servers;
   - an idle server stops itself (the hub starts it again at the next visit).
   What stays: the server runs the tutor's notebooks, each page in its own kernel, and
   the tutor's widgets talk to that kernel.

Environment:
- TUTOR_HOME: the folder holding notebooks/ (default: the repository this file is in; the
  image sets /srv/tutor);
- TUTOR_SERVER_IDLE_TIMEOUT: seconds without activity and without kernels after which
  the server stops itself (default 3600; 0 keeps it running).
"""

import os
from pathlib import Path

from jupyter_server.auth.authorizer import Authorizer

from tutor.app.settings import ALLOWED_MESSAGE_TYPES, CONTENT_SECURITY_POLICY, apply_settings
from tutor.hub.page_language import course_page_language
from tutor.hub.server_extension import PageCloseShutdownHandler

c = get_config()  # type: ignore[name-defined]  # noqa: F821  (provided by traitlets)

TUTOR_HOME = Path(os.environ.get("TUTOR_HOME") or Path(__file__).resolve().parents[2])

# -- 1. the tutor app's Voila settings ---------------------------------------------------
# VoilaConfiguration and VoilaExecutor (read by Voila's server extension from the server's
# config), MappingKernelManager (kernel culling: the same classes in a Jupyter server);
# the stand-alone app's headers are applied to this server below.
apply_settings(c)
c.ServerApp.tornado_settings = {
    "headers": {"Content-Security-Policy": CONTENT_SECURITY_POLICY},
    # Inside a Jupyter server, Voila's page config would otherwise name MathJax on a CDN
    # (voila.utils.get_page_config's defaults; the stand-alone app passes None for both),
    # and the page would try to fetch it: the course has no formulas.
    "mathjax_url": None,
    "mathjax_config": None,
}
# The course: the server's files are the tutor's notebooks (read-only, see below).
c.ServerApp.root_dir = str(TUTOR_HOME / "notebooks")

# The live room on the hub (docs/live-room.md, "On the hub"): the presenter's page asks the
# teacher service's room, under the path the hub config gives (no room without it).
HUB_ROOM = os.environ.get("TUTOR_HUB_ROOM", "")
if HUB_ROOM.startswith("/"):
    c.VoilaConfiguration.resources["tutor"]["room"] = HUB_ROOM
# The learner's language: a course page without ?lang= (the hub's root, a bookmarked
# lesson) is sent on with their last choice or their browser's, as the login pages choose
# it; a page with ?lang= keeps it as their choice (tutor/hub/page_language.py).
c.VoilaConfiguration.prelaunch_hook = course_page_language
# The tutor's page template is found through JUPYTER_PATH (tutor/app/jupyter, as
# `wizard-tutor app` sets it). It must be in the server's environment from the start (the
# hub's Spawner.environment, the image's ENV): setting it here would be too late, because
# JupyterHub's disable_user_config freezes the Jupyter search path before reading this file.

# -- 2. lock-down ----------------------------------------------------------------------------
# Browser -> kernel: widget messages only. This is the list the stand-alone Voila app
# gives its kernel manager (voila/app.py, Voila.init_settings); Voila itself executes the
# notebook from inside the server, not through the websocket, so the pages still work.
c.MappingKernelManager.allowed_message_types = ALLOWED_MESSAGE_TYPES
c.ServerApp.terminals_enabled = False
c.ServerApp.jpserver_extensions = {
    "jupyterlab": False,
    "notebook": False,
    "notebook_shim": False,
    "nbclassic": False,
    "jupyter_lsp": False,
    "jupyter_server_terminals": False,
    # forwards the learner's answers to the teacher's page; guards Voila's page-close
    # kernel shutdown; keeps the hub token from the kernels (see the module)
    "tutor.hub.server_extension": True,
}


class TutorOnlyAuthorizer(Authorizer):  # type: ignore[misc]
    """Lets the learner use the tutor's pages and nothing else of the server's REST API.

    Jupyter Server asks the authorizer before every REST action (Voila's own pages are
    outside it: they only need the learner to be logged in). Allowed: reading the
    server's state (status, kernels, kernel specs, settings) and "execute" on kernels,
    i.e. the widgets' websocket, whose messages are filtered above. Refused: every
    "write" (upload, save, rename or delete a file; start, restart or stop kernels and
    sessions by hand; terminals; settings; shutting the server down), and reading the
    files (/files, /api/contents, /nbconvert): the pages show the course, not its source.
    One "write" is allowed: a tutor page giving its kernel back as it closes (Voila's
    page-close shutdown, served by tutor.hub.server_extension so that it asks here).
    The hub has already checked that the request comes from this server's owner.
    """

    def is_authorized(self, handler: object, user: object, action: str, resource: str) -> bool:
        if action == "execute":
            return resource == "kernels"
        if action == "write" and resource == "kernels":
            return isinstance(handler, PageCloseShutdownHandler)
        return action == "read" and resource not in {"contents", "nbconvert"}


c.ServerApp.authorizer_class = TutorOnlyAuthorizer
c.FileContentsManager.allow_hidden = False

# An idle server frees its memory: with no kernel (the kernel culler of tutor/app/settings.py
# reclaims those of closed pages) and no request for this long, the server stops itself.
c.ServerApp.shutdown_no_activity_timeout = int(os.environ.get("TUTOR_SERVER_IDLE_TIMEOUT", "3600"))
