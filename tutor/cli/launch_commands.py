"""Starting the course on the command line: ``wizard-tutor app`` (the web app),
``wizard-tutor lab`` (the notebooks in JupyterLab) and ``wizard-tutor build-site`` (the
course as a static site). Each checks its options, then hands over to the host's launcher
(:mod:`tutor.app.launch`, :mod:`tutor.site.build`), imported only when it runs."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from tutor.cli.command import CommandError, pass_on_language

PORT_VARIABLE = "TUTOR_PORT"


def port_number(value: str) -> int:
    """A port given as words (an option or ``$TUTOR_PORT``), checked.

    >>> port_number("8866")
    8866
    >>> port_number("99999")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: invalid port '99999': give a number from 1 to 65535
    """
    if not value.isdigit() or not 1 <= int(value) <= 65535:
        raise argparse.ArgumentTypeError(f"invalid port {value!r}: give a number from 1 to 65535")
    return int(value)


def _progress_file(args: argparse.Namespace) -> Path | None:
    """``--progress FILE`` as the kernels get it: absolute (a kernel runs in the notebook's
    folder, not where the command was given)."""
    return args.progress.expanduser().resolve() if args.progress is not None else None


def app_command(args: argparse.Namespace) -> int:
    from tutor.app.launch import (
        DEFAULT_PORT,
        TOKEN_VARIABLE,
        AppOptions,
        LaunchError,
        restart_without_token_in_environment,
        serve_app,
    )

    pass_on_language(args)
    if args.port is None:
        try:
            args.port = port_number(os.environ.get(PORT_VARIABLE) or str(DEFAULT_PORT))
        except argparse.ArgumentTypeError as error:
            raise CommandError(f"${PORT_VARIABLE}: {error}") from None
    if args.notebooks is not None and not args.notebooks.is_dir():
        raise CommandError(f"no notebooks folder {str(args.notebooks)!r}")
    if args.new_token and not args.classroom:
        raise CommandError("--new-token is for --classroom (only a classroom app has a token)")
    if args.progress is not None and args.classroom:
        raise CommandError(
            f"--progress {str(args.progress)!r} is for one learner's machine: in a classroom "
            "each learner's browser keeps their own progress (leave out --progress)"
        )
    if os.environ.get(TOKEN_VARIABLE) and args.token_fd is None:
        restart_without_token_in_environment(args.argv)
    options = AppOptions(
        port=args.port,
        classroom=args.classroom,
        notebooks=args.notebooks.resolve() if args.notebooks else None,
        lessons=args.lessons.resolve() if args.lessons else None,
        max_kernels=args.max_kernels,
        kernel_start=args.kernel_start,
        hosts=tuple(args.host),
        token_fd=args.token_fd,
        room_db=args.room_db.expanduser().resolve() if args.room_db else None,
        new_token=args.new_token,
        progress=_progress_file(args),
    )
    try:
        serve_app(options)
    except LaunchError as error:
        raise CommandError(str(error)) from None
    return 0


def lab_command(args: argparse.Namespace) -> int:
    from tutor.app.launch import LaunchError, open_lab

    pass_on_language(args)
    try:
        open_lab(
            args.dir.expanduser().resolve(),
            port=args.port,
            open_browser=not args.no_browser,
            extra=args.jupyter_args,
            lessons=args.lessons.resolve() if args.lessons else None,
            progress=_progress_file(args),
        )
    except LaunchError as error:
        raise CommandError(str(error)) from None
    return 0  # not reached: JupyterLab replaces this process


def build_site_command(args: argparse.Namespace) -> int:
    from tutor.site.build import build_site
    from tutor.site.build_inputs import SiteBuildError, runtime_dir

    try:
        if args.fetch:
            from tutor.site.fetch import fetch_runtime

            fetch_runtime(runtime_dir())
        site = build_site(args.dir)
    except SiteBuildError as error:
        raise CommandError(str(error)) from None
    print(
        f"built the course in {site.folder}: {site.pages} pages, {site.files} files, "
        f"{site.size / 1e6:.1f} MB. Put the folder on any web server; its index.html "
        "opens the course."
    )
    return 0
