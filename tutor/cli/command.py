"""What every command shares: the program's name, the error for input a command cannot
use, and the language of its messages and pages (``--lang``, else ``$TUTOR_LANG``)."""

from __future__ import annotations

import argparse
import os

from tutor.teaching.language import LANGUAGE_VARIABLE, UnknownLanguageError, current_language
from tutor.teaching.text import LANGUAGES

PROG = "wizard-tutor"


class CommandError(Exception):
    """Input the command cannot use; printed as ``error: ...`` with exit status 2."""


def messages_language(args: argparse.Namespace) -> str:
    """The language ``--lang`` (or ``$TUTOR_LANG``, else English) names, spelt as the
    tutor spells it; a :class:`CommandError` for one the tutor does not have."""
    given = args.lang is not None
    try:
        return current_language(query="", environ={LANGUAGE_VARIABLE: args.lang} if given else None)
    except UnknownLanguageError as error:
        if not given:
            raise CommandError(str(error)) from None
        known = ", ".join(repr(lang) for lang in LANGUAGES)
        raise CommandError(
            f"--lang {args.lang!r} is not a language of the tutor; known languages: {known}"
        ) from None


def pass_on_language(args: argparse.Namespace) -> None:
    """Check ``--lang`` (or ``$TUTOR_LANG``) before anything starts, and pass it on in
    ``$TUTOR_LANG`` to the pages (and the app's messages), spelt as the tutor spells it."""
    lang = messages_language(args)
    if args.lang is not None or LANGUAGE_VARIABLE in os.environ:
        os.environ[LANGUAGE_VARIABLE] = lang
