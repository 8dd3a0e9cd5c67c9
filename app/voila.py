"""Voila configuration of the tutor app (loaded by scripts/app.sh, and only from here:
``--Voila.config_file_paths`` points at this folder, so a user's ~/.jupyter/voila.* cannot
change it).

Settings that scripts/app.sh passes per run (and why):
- ``--Voila.ip``: 127.0.0.1, or 0.0.0.0 with ``--classroom`` (then a token is required);
- ``--Voila.port``: 8866, ``--port N`` or env ``TUTOR_PORT``; ``port_retries=0`` so the app
  never silently moves to another port;
- ``--Voila.open_browser=False`` (``--no-browser``).

Environment variables read here (set by scripts/app.sh, or by the tests):
- ``TUTOR_TOKEN``: classroom mode's token; popped from the environment so kernels (which
  inherit the server's environment) never see it;
- ``TUTOR_CULL_IDLE_TIMEOUT`` / ``TUTOR_CULL_INTERVAL``: kernel reclaiming, in seconds.
"""

import os

from tutor.teaching.text import LANGUAGES, catalog

c = get_config()  # type: ignore[name-defined]  # noqa: F821  (provided by traitlets)

# -- the page ------------------------------------------------------------------------------
# The "tutor" template (app/jupyter/nbconvert/templates/tutor, found through JUPYTER_PATH)
# is Voila's "lab" template without the internet fetches (Font Awesome, MathJax,
# mermaid.js), plus the keyboard shortcuts and the presenter mode. It lives under
# "nbconvert/templates" rather than "voila/templates" on purpose: a "voila" folder first on
# JUPYTER_PATH would become Voila's data dir (voila.utils.get_data_dir) and hide its themes.
c.VoilaConfiguration.template = "tutor"
c.VoilaConfiguration.theme = "light"

# -- hardening (a whole class may open the app at once) --------------------------------------
# Viewers see outputs only, never the code of the cells.
c.VoilaConfiguration.strip_sources = True
# An error shows as a short message, never as a traceback with paths and code.
c.VoilaConfiguration.show_tracebacks = False
# ?template=... and ?voila-theme=... in the URL would let anyone pick another template
# (e.g. "reveal", which loads reveal.js from a CDN) or theme: only ours is served.
c.VoilaConfiguration.allow_template_override = "NO"
c.VoilaConfiguration.allow_theme_override = "NO"
# One kernel per page view, started when the page is requested (no pool of pre-started
# kernels, which would run notebooks nobody asked for).
c.VoilaConfiguration.preheat_kernel = False
# Served files: only pictures, never notebooks or Python files (Voila's defaults, stated).
c.VoilaConfiguration.file_allowlist = [r".*\.(png|jpg|gif|svg)"]
c.VoilaConfiguration.file_denylist = [r".*\.(ipynb|py)"]
# Note: a viewer cannot run code through the kernel websocket: Voila's standalone app
# starts its kernel manager with allowed_message_types = comm messages, kernel_info and
# shutdown only (voila/app.py, init_settings); tests/browser/test_app_security.py checks
# that an execute_request is dropped.

# -- classroom mode: token authentication --------------------------------------------------
token = os.environ.pop("TUTOR_TOKEN", "")
if token:
    c.Voila.token = token

# -- kernels of closed pages are reclaimed -------------------------------------------------
# Voila asks the server to shut a page's kernel down when the page closes, but that POST is
# refused by the XSRF check, so kernels would pile up. The culler reclaims them: a kernel
# with no open page (cull_connected=False keeps every kernel that still has a websocket, so
# a learner who simply pauses keeps their page) and no activity for cull_idle_timeout
# seconds is shut down; the check runs every cull_interval seconds. Busy kernels are kept.
# Do not go below ~20 s: between the end of the notebook's run and the moment the page's
# scripts connect, a kernel has no connection and looks idle; on a loaded machine that
# takes seconds, and a kernel culled then leaves its page dead ("Kernel does not exist").
c.MappingKernelManager.cull_idle_timeout = int(os.environ.get("TUTOR_CULL_IDLE_TIMEOUT", "300"))
c.MappingKernelManager.cull_interval = int(os.environ.get("TUTOR_CULL_INTERVAL", "60"))
c.MappingKernelManager.cull_connected = False
c.MappingKernelManager.cull_busy = False

# -- offline: the browser may load nothing from outside the machine -------------------------
# The template loads nothing external; this Content-Security-Policy makes the browser
# refuse it anyway if a future template or widget tried (and the browser tests would
# see the refusal as a console error).
c.Voila.tornado_settings = {
    "headers": {
        "Content-Security-Policy": "; ".join(
            [
                "default-src 'self'",
                # blob: the widgets' own ES modules (anywidget imports the module text it
                # received from the kernel through a blob: URL made in the page)
                "script-src 'self' 'unsafe-inline' 'unsafe-eval' blob:",
                "style-src 'self' 'unsafe-inline'",
                "img-src 'self' data: blob:",
                "font-src 'self' data:",
                "connect-src 'self'",
                "frame-ancestors 'self'",
                "base-uri 'self'",
                "form-action 'self'",
            ]
        )
    }
}

# -- words of the presenter controls (from the tutor's catalog, not the template) -----------
# Every language's words go to the page; tutor.js picks the one of the page's ?lang=, as the
# kernel does (tutor.teaching.language), falling back to TUTOR_LANG's, then English.
c.VoilaConfiguration.resources = {
    "tutor": {
        "default": os.environ.get("TUTOR_LANG", "en"),
        "words": {lang: dict(catalog(lang)["present"]) for lang in LANGUAGES},
    }
}
