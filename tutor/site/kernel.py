"""The static site's Python, in the learner's browser (Pyodide), set up once per page
before the notebook runs; what :mod:`tutor.app.kernel` and Voila's settings do for the app.

The Pyodide kernel is an IPython ``InteractiveShellApp``: at start it runs the file named by
``$PYTHONSTARTUP``, which the site's page config sets to ``startup.py`` beside this module.

- Errors: a learner never sees a traceback. Voici shows error outputs as they come (its
  ``show_tracebacks`` option has no effect), so every traceback the shell would show (all
  pass through ``_showtraceback``, the hook kernels override) is replaced by the tutor's
  short message in the page's language; the full traceback goes to the browser's
  developer console, for whoever debugs.
- Warnings and anything else written to stderr go to that console too (Voila drops them).
- ipywidgets, imported before the shell (the loader's snapshot), gets its comm targets.
- The working folder is the course's notebooks folder (shipped inside the tutor's wheel),
  as under Voila, where a notebook runs in its own folder.
- Widget messages carry ``None`` as JavaScript's ``null``, as a kernel's JSON does. The
  Pyodide kernel hands a comm message to its page with ``toJs()``, which makes ``None``
  ``undefined``; the widget manager reads ``undefined`` as "no change", so a widget hidden
  with ``layout.display = "none"`` would never come back with ``None`` (nor any other
  trait go back to ``None``).
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from typing import Any

from tutor.display.error_notice import TutorError, short_message


def to_console(message: str) -> None:
    """Write ``message`` to the browser's developer console (stderr outside a browser)."""
    try:
        from js import console  # type: ignore[import-not-found]  # Pyodide's bridge
    except ImportError:
        print(message, file=sys.__stderr__)
        return
    console.warn(message)


def hide_tracebacks(shell: Any) -> None:
    """The short message on the page, the traceback in the console."""
    show = shell._showtraceback

    def short_error(etype: type, evalue: BaseException, stb: list[str]) -> None:
        to_console("\n".join(stb) if stb else f"{etype.__name__}: {evalue}")
        message = short_message("site")
        show(TutorError.__name__, message, [message])

    shell._showtraceback = short_error


def quiet_stderr() -> None:
    """What Python writes to stderr goes to the console, not onto the page."""
    kernel = sys.modules.get("pyodide_kernel")  # being imported now: its streams exist
    stream = getattr(kernel, "stderr_stream", None)
    if stream is not None:

        def write(text: str) -> int:
            to_console(text)
            return len(text)

        stream.write = write


def as_json_value(data: Any, parse: Callable[[str], Any]) -> Any:
    """``data`` written as JSON and read back by ``parse`` (in the browser JavaScript's
    ``JSON.parse``, whose objects keep ``null``); ``data`` itself if it is no JSON.

    >>> as_json_value({"state": {"display": None}}, json.loads)
    {'state': {'display': None}}
    >>> as_json_value({"value": float("nan")}, json.loads)  # no JSON: sent as it was
    {'value': nan}
    """
    try:
        text = json.dumps(data, allow_nan=False)
    except (TypeError, ValueError):
        return data
    return parse(text)


def send_nulls() -> None:
    """Every comm message's data reaches the page as JSON would: ``None`` as ``null``."""
    try:
        from js import JSON  # Pyodide's bridge
        from pyodide_kernel.comm import Comm  # type: ignore[import-not-found]
    except ImportError:  # not in the browser
        return
    publish = Comm.publish_msg

    def publish_msg(
        self: Any,
        msg_type: str,
        data: Any = None,
        metadata: Any = None,
        buffers: Any = None,
        **keys: Any,
    ) -> Any:
        # A JavaScript object inside the message passes the kernel's toJs() unchanged.
        if data is not None:
            data = as_json_value(data, JSON.parse)
        return publish(self, msg_type, data, metadata, buffers, **keys)

    Comm.publish_msg = publish_msg


def register_widget_targets() -> None:
    """ipywidgets registers its comm targets when it is imported with a shell running; the
    site's loader imports it earlier, into its memory snapshot (tutor/site/loader.js), so
    that is done here, once the shell runs."""
    widgets = sys.modules.get("ipywidgets")
    if widgets is not None:
        widgets.register_comm_target()


def start(shell: Any) -> None:
    """Set the page's Python up as Voila's would be (see the module)."""
    from tutor.resources import notebooks_dir

    register_widget_targets()
    hide_tracebacks(shell)
    quiet_stderr()
    send_nulls()
    os.chdir(notebooks_dir())
