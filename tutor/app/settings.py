"""Every Voila setting of the tutor app, and why. One home for both ways the app runs:
``wizard-tutor app`` (:mod:`tutor.app.server`, Voila stand-alone) and a learner's server
on JupyterHub (deploy/singleuser/jupyter_server_config.py, Voila's server extension).

Per-run choices (address, port, token, limits) are the launcher's (:mod:`tutor.cli`,
:mod:`tutor.app.server`); here is what never changes between runs. Environment variables
read here: ``TUTOR_LANG`` (the presenter's and notices' default language),
``TUTOR_CULL_IDLE_TIMEOUT`` / ``TUTOR_CULL_INTERVAL`` (seconds; the reclaiming of kernels
whose page vanished without saying so).
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from traitlets.config import Config

from tutor.display.page_words import page_words

TEMPLATE = "tutor"
"""The page template: tutor/app/jupyter/nbconvert/templates/tutor (see its index.html.j2)."""

CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        # blob: the widgets' own ES modules (anywidget imports the module text it received
        # from the kernel through a blob: URL made in the page)
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
"""The template loads nothing from outside the machine; this makes the browser refuse it
anyway if a future template or widget tried (the browser tests see a refusal as a console
error)."""

ALLOWED_MESSAGE_TYPES = [
    "comm_open",
    "comm_close",
    "comm_msg",
    "comm_info_request",
    "kernel_info_request",
    "shutdown_request",
]
"""What a browser may send a kernel: widget (comm) messages only, never code. The list the
stand-alone Voila app gives its kernel manager (voila/app.py, ``Voila.init_settings``); the
hub's servers set it on theirs."""


def apply_settings(c: Config, environ: Mapping[str, str] | None = None) -> None:
    """Put the app's settings into ``c`` (a traitlets config: the stand-alone app's, or the
    ``c`` of a jupyter_server_config.py)."""
    env = os.environ if environ is None else environ

    # -- the page --------------------------------------------------------------------------
    # Voila's "lab" template without the internet fetches (Font Awesome, MathJax,
    # mermaid.js), plus the keyboard shortcuts, the presenter mode and the page's watch
    # over its kernel (static/tutor-keys.js, tutor-presenter.js, tutor-page.js). Found
    # through JUPYTER_PATH.
    c.VoilaConfiguration.template = TEMPLATE
    c.VoilaConfiguration.theme = "light"
    c.VoilaConfiguration.resources = {"tutor": page_words(env)}
    # The pages need only the widget managers (Jupyter widgets, anywidget; Voila adds its
    # own). Every other JupyterLab extension installed beside the app is code each page
    # would download and compile, or worse: jupyterlab_pygments colours source code, which
    # the pages never show; JupyterLite's Pyodide kernel (the static site's tools, extra
    # "site", tutor/site/) fails to load under Voila, an error in every page.
    #
    # The browser's console shows 13 warnings on every page, here and in the hub:
    # "Unsatisfied version 4.2.5 from _JUPYTERLAB.CORE_OUTPUT of shared singleton module
    # @jupyterlab/notebook (required ^4.6.2)" and the like, and "No satisfying version
    # (^4.6.2) of shared module @jupyterlab/outputarea found". They are harmless, nothing
    # is filtered, and no pin removes them without costing more:
    # - Voila 0.5.13, the last release, bundles JupyterLab 4.2.5's packages (services
    #   7.2.5, coreutils 6.2.5). The widget managers were built with newer JupyterLab 4
    #   releases: Voila's own "widgets-manager8" with 4.5.10, ipywidgets' manager
    #   "@jupyter-widgets/jupyterlab-manager" (jupyterlab_widgets 3.0.17, as ipywidgets
    #   8.1.9 requires; it registers the controls every page draws) with 4.6.2. The builder
    #   stamps the version it built with as the range it asks the page for (^4.5.10,
    #   ^4.6.2; services ^7.5.10, ^7.6.2), though their package.json files ask for ^4.0.0.
    # - None of those modules is shared with strictVersion: webpack warns and hands the
    #   manager the page's one copy (4.2.5), which has what they use: the widgets are
    #   drawn and work (tests/browser/test_app.py and every app scenario).
    # - Voila's own manager disagrees with Voila's own bundle, so no pin of ours removes
    #   all of them; ipywidgets' share goes only with jupyterlab_widgets 3.0.13 (the last
    #   built with JupyterLab 4.2, asks ^4.2.4), which needs ipywidgets 8.1.5: without
    #   8.1.6-8.1.9's fixes (the Output widget's parent message under ipykernel 7), and
    #   with the manager's 4 s wait for the kernel's widgets in a form static_files.py's
    #   60 s does not replace.
    # tests/browser/test_app.py checks each warning against the installed files (Voila's
    # version of the module, a widget manager asking that range), so another kind fails
    # it, and so does their end (then this note goes).
    c.VoilaConfiguration.extension_allowlist = [
        "@voila-dashboards/widgets-manager8",
        "@jupyter-widgets/jupyterlab-manager",
        "anywidget",
    ]

    # -- what a viewer gets ---------------------------------------------------------------
    # Outputs only, never the code of the cells.
    c.VoilaConfiguration.strip_sources = True
    # An error shows as a short message, never as a traceback with paths and code (the
    # kernel's own guard, tutor.app.kernel, does the same for widget callbacks).
    c.VoilaConfiguration.show_tracebacks = False
    c.VoilaExecutor.cell_error_instruction = ""
    c.VoilaExecutor.cell_timeout_instruction = ""
    # ?template=... and ?voila-theme=... would let anyone pick another template (e.g.
    # "reveal", which loads reveal.js from a CDN) or theme: only ours is served.
    c.VoilaConfiguration.allow_template_override = "NO"
    c.VoilaConfiguration.allow_theme_override = "NO"
    # Served files: only pictures, never notebooks or Python files (Voila's defaults, stated).
    c.VoilaConfiguration.file_allowlist = [r".*\.(png|jpg|gif|svg)"]
    c.VoilaConfiguration.file_denylist = [r".*\.(ipynb|py)"]

    # -- kernels ---------------------------------------------------------------------------
    # One kernel per page view, started when the page is requested. No pool of pre-started
    # kernels (preheat_kernel), measured on lesson 06 (benchmarks/classroom_pool_benchmark.py):
    # - a pool runs the notebook before the request, so ?lang= cannot choose the language;
    #   waiting for the request in the kernel (voila.utils.wait_for_request) imports
    #   Voila's server side into every kernel, 1.7 CPU-s, more than the ~0.35 CPU-s a
    #   kernel's start costs;
    # - every page taken from a pool starts its replacement: during a class's burst that
    #   is the same work, competing with the pages (10 at once: p95 24.2 s, without a
    #   pool 16.1 s); only a pool the size of the class helps, and it holds ~60 MiB a
    #   kernel for each notebook all day, while kernels should go when the class leaves;
    # - the browser drawing a page costs 2.4-4.4 CPU-s, the server and kernel ~1.3.
    # A class arriving at once is queued instead (tutor.app.admission.Admission), and each
    # kernel is forked from a warm process (tutor.app.forked_kernels, set by the launcher),
    # which makes a kernel's start ~0.05 CPU-s without holding a kernel per page in advance.
    c.VoilaConfiguration.preheat_kernel = False
    # A loaded machine delays a kernel's output. By default nbclient waits 4 s for it after
    # a cell's reply and then silently drops what is late: the page came without its quiz.
    # Wait longer, and if output is still missing, say so on the page (an error output the
    # page's script turns into a notice) rather than show a page lacking content.
    c.VoilaExecutor.iopub_timeout = 60
    c.VoilaExecutor.raise_on_iopub_timeout = True
    # A lesson runs in well under a second; a cell still running after this is stuck.
    c.VoilaExecutor.timeout = 120

    # -- kernels of vanished pages are reclaimed ----------------------------------------------
    # A closing page gives its kernel back at once (Voila's page-close request, which
    # tutor.app.kernel_access makes work for every page). That request is a beacon a browser
    # may drop, so the app also shuts down a kernel whose page's websocket has been closed for
    # 10 s (tutor.app.kernel_access.PAGE_GONE_GRACE; not on the hub, whose servers use
    # jupyter_server's kernel manager). The culler is the backstop for pages that vanish
    # without a word and keep their connection (a phone that froze the tab) or never
    # connected (a page that ran no script): a kernel with no open connection (cull_connected=False keeps every kernel
    # that has a page) and no activity for cull_idle_timeout seconds is shut down; the check
    # runs every cull_interval seconds. Busy kernels are kept. Not below ~60 s: between the
    # end of the notebook's run and the moment its page's scripts connect a kernel has no
    # connection, and under a whole class arriving that takes tens of seconds.
    c.MappingKernelManager.cull_idle_timeout = int(env.get("TUTOR_CULL_IDLE_TIMEOUT", "120"))
    c.MappingKernelManager.cull_interval = int(env.get("TUTOR_CULL_INTERVAL", "30"))
    c.MappingKernelManager.cull_connected = False
    c.MappingKernelManager.cull_busy = False

    # -- offline ---------------------------------------------------------------------------
    c.Voila.tornado_settings = {"headers": {"Content-Security-Policy": CONTENT_SECURITY_POLICY}}
