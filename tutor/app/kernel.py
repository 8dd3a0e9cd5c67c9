"""The kernel the app's pages run in: ipykernel, with every traceback kept in the server's
log and a short message for the page instead.

A widget callback that fails (a malformed value sent by a browser, a click on a button
that should have been disabled, a save that failed) makes IPython send the full traceback,
with the server's paths and source lines, to the browser over the kernel's websocket;
libraries log their errors (e.g. ``comm``'s "Exception in comm_msg") to ``sys.stderr``,
which the kernel also forwards to the browser. Here both go to the kernel's own standard
error, which is the server's log, and the browser gets an ``error`` message whose only
content is the tutor's short message (``ename`` ``TutorError``), which the page's
script (``static/tutor-page.js``) shows. A widget message or a comm opening that a page
could not have sent (:func:`widget_message_problem`, :func:`comm_open_problem`) is refused
with one line in the log instead.

The app's kernel spec (``tutor/app/jupyter/kernels/python3``, first on the app's
``JUPYTER_PATH``) starts it as ``python -m tutor.app.kernel -f <connection file>``. In
JupyterLab the usual kernel runs: there a learner may see their own tracebacks.

The short message and the error's name are :mod:`tutor.display.error_notice`'s (the static
site's kernel shows the same).
"""

from __future__ import annotations

import contextlib
import logging
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tutor.display.error_notice import TutorError, short_message

_ANSI = re.compile(r"\x1b\[[0-9;]*m")
log = logging.getLogger("tutor.app.kernel")


class _PageNotice(logging.Handler):
    """Tells the page about every error a library logs (after the server's log has it)."""

    def __init__(self, tell_page: Callable[[], None]) -> None:
        super().__init__(level=logging.ERROR)
        self.tell_page = tell_page
        self.telling = False

    def emit(self, record: logging.LogRecord) -> None:
        if self.telling:  # an error while telling the page must not loop
            return
        self.telling = True
        try:
            self.tell_page()
        finally:
            self.telling = False


_SHOWN = 80


def _short(value: object) -> str:
    shown = repr(value)
    return shown if len(shown) <= _SHOWN else shown[:_SHOWN] + "..."


def widget_message_problem(widget: Any, msg: Any) -> str | None:
    """Why the message ``msg`` a browser sent to ``widget`` cannot be applied, or ``None``.

    What ipywidgets accepts from the page: ``update`` (synced properties, each valid for
    its trait), ``request_state`` and ``custom`` (an object, as every handler of the
    tutor's widgets reads). Anything else (a property the widget does not sync, a value of
    the wrong type, a method or buffer that does not exist) made ipywidgets raise inside
    the kernel: a traceback in the server's log and "Something went wrong" on the page."""
    content = msg.get("content") if isinstance(msg, dict) else None
    data = content.get("data") if isinstance(content, dict) else None
    if not isinstance(data, dict):
        return "its data is not an object"
    method = data.get("method")
    if method == "request_state":
        return None
    if method == "custom":
        if not isinstance(data.get("content"), dict):
            return f"custom content {_short(data.get('content'))} is not an object"
        return None
    if method != "update":
        return f"unknown method {_short(method)}"
    state = data.get("state")
    if not isinstance(state, dict):
        return f"state {_short(state)} is not an object"
    if "buffer_paths" in data:
        from ipywidgets.widgets.widget import _put_buffers

        try:
            _put_buffers(state, data["buffer_paths"], msg.get("buffers") or [])
        except Exception as error:  # any malformed path: the message is refused
            return f"buffer paths {_short(data['buffer_paths'])} do not fit its state ({error})"
    traits = widget.traits()
    for name, value in state.items():
        if name not in widget.keys:
            return f"{_short(name)} is not a property the page may set"
        from_json = widget.trait_metadata(name, "from_json", widget._trait_from_json)
        try:
            traits[name]._validate(widget, from_json(value, widget))
        except Exception as error:  # the trait's own check, in its own words
            return f"{name} = {_short(value)}: {_short(str(error))}"
    return None


def guard_widget_messages() -> None:
    """Let widgets apply only messages :func:`widget_message_problem` finds nothing wrong
    with; any other is refused with one line in the server's log (a browser that sends
    one has been tampered with: there is no learner to tell)."""
    from ipywidgets import Widget

    handle = Widget._handle_msg
    if getattr(handle, "tutor_guard", False):
        return

    def guarded(widget: Any, msg: Any) -> None:
        problem = widget_message_problem(widget, msg)
        if problem is not None:
            log.warning("refused a message to a %s widget: %s", type(widget).__name__, problem)
            return
        handle(widget, msg)

    guarded.tutor_guard = True  # type: ignore[attr-defined]
    Widget._handle_msg = guarded


def comm_open_problem(targets: Any, msg: Any) -> str | None:
    """Why a browser's ``comm_open`` cannot open a comm, or ``None``: its content must name
    a comm id and a target the kernel has (the widget managers open ``jupyter.widget...``
    comms). Any other made the comm manager log an error (an unknown target) or raise (no
    target named): the page was told "Something went wrong".

    >>> targets = {"jupyter.widget": print}
    >>> comm_open_problem(targets, {"content": {"comm_id": "a1", "target_name": "jupyter.widget"}})
    >>> comm_open_problem(targets, {"content": {"comm_id": "a1", "target_name": "nope"}})
    "no comm target 'nope'"
    >>> comm_open_problem(targets, {"content": {"comm_id": "x"}})
    'no comm target None'
    """
    content = msg.get("content") if isinstance(msg, dict) else None
    if not isinstance(content, dict):
        return "its content is not an object"
    comm_id, target = content.get("comm_id"), content.get("target_name")
    if not isinstance(comm_id, str) or not comm_id:
        return f"comm_id {_short(comm_id)} is not a comm's id"
    if not isinstance(target, str) or target not in targets:
        return f"no comm target {_short(target)}"
    return None


def guard_comm_opens(kernel: Any) -> None:
    """Let the kernel open only comms :func:`comm_open_problem` finds nothing wrong with;
    any other is refused with one line in the server's log."""
    open_comm = kernel.shell_handlers["comm_open"]
    targets = kernel.comm_manager.targets

    def guarded(stream: Any, ident: Any, msg: Any) -> None:
        problem = comm_open_problem(targets, msg)
        if problem is not None:
            log.warning("refused a comm_open: %s", problem)
            return
        open_comm(stream, ident, msg)

    kernel.shell_handlers["comm_open"] = guarded


def install(shell: Any) -> None:
    """Keep tracebacks in the server's log and send the page the short message instead.
    ``shell`` is the kernel's ``ZMQInteractiveShell``."""
    server_log = logging.StreamHandler(sys.__stderr__)
    server_log.setFormatter(logging.Formatter("[tutor kernel] %(levelname)s %(name)s: %(message)s"))
    log.addHandler(server_log)
    log.propagate = False  # its records are the tracebacks; the page is told separately
    root = logging.getLogger()
    root.addHandler(server_log)
    # Warnings printed by libraries would reach the page as text: log them instead.
    logging.captureWarnings(True)

    send_error = shell._showtraceback  # ipykernel's: an "error" message on IOPub

    def tell_page() -> None:
        message = short_message("app")
        send_error(TutorError, TutorError(message), [message])

    def show_traceback(etype: type, evalue: BaseException, stb: list[str]) -> None:
        log.error("%s: %s\n%s", etype.__name__, evalue, _ANSI.sub("", "\n".join(stb)))
        tell_page()

    shell._showtraceback = show_traceback
    root.addHandler(_PageNotice(tell_page))
    guard_widget_messages()
    guard_comm_opens(shell.kernel)
    # ipywidgets registers its comm targets when it is imported in a running kernel; a
    # forked kernel (tutor.app.forked_kernels) imported it before it was one.
    import ipywidgets

    ipywidgets.register_comm_target()


def main() -> None:
    """Start the kernel (what ``python -m ipykernel_launcher`` does), guarded."""
    # As ipykernel_launcher: the current folder leaves sys.path while the kernel loads;
    # IPython puts it back for the notebook's code.
    if sys.path and (sys.path[0] == "" or Path(sys.path[0]) == Path.cwd()):
        del sys.path[0]
    from ipykernel.kernelapp import IPKernelApp

    app: Any = IPKernelApp.instance()
    # ipykernel forwards whatever is written to file descriptors 1 and 2 to the browser;
    # here they stay the server's (its log), and only what Python code prints is sent.
    app.capture_fd_output = False
    # Its pages' viewers send no code: no input history to keep (IPython's SQLite file,
    # which every kernel would open and lock, and a thread each to write it).
    app.config.HistoryManager.enabled = False
    app.initialize()
    install(app.shell)
    app.start()
    # Shut down (the page closed): ipykernel's close, at exit, closes the output channel
    # before it stops the control thread, which may still be ending the shutdown request:
    # its last flush then meets a closed socket and logs a traceback (seen in the hub's
    # log). The control thread ends first.
    control = getattr(app, "control_thread", None)
    if control is not None and control.is_alive():
        with contextlib.suppress(RuntimeError):  # its loop closed meanwhile: it has ended
            control.stop()
        control.join(timeout=2)


if __name__ == "__main__":
    main()
