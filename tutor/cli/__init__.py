"""The command line, ``wizard-tutor`` (``python -m tutor`` is the same): start the app,
open the course in JupyterLab, build it as a static site, start or check a lesson file of
your own, or ask the rules engine.

    wizard-tutor                              # the app on http://127.0.0.1:8866/
    wizard-tutor app --classroom --lang ja    # open to the room, Japanese by default
    wizard-tutor lab                          # the notebooks in JupyterLab (a copy of yours)
    wizard-tutor build-site site/             # the course as a static site (no server)
    wizard-tutor new-lesson my_lessons/12_my_rule.toml   # a starter lesson to change
    wizard-tutor check my_lessons/12_my_rule.toml
    wizard-tutor rule-map                     # the rules' ids, where each is taught and asked
    wizard-tutor app --lessons my_lessons     # the course with your lessons after its own
    wizard-tutor explain "J B5 B11 B7" --trump R
    wizard-tutor legal --hand "B7 R12 G10 W" --played "J B5"

Bad options and bad input exit with status 2 and a message; a lesson file that fails its
check exits with status 1.

The parts: :mod:`tutor.cli.parser` (the commands and their options), one module of
commands per job (:mod:`~tutor.cli.launch_commands`: app, lab, build-site;
:mod:`~tutor.cli.lesson_commands`: check, new-lesson, rule-map;
:mod:`~tutor.cli.rules_commands`: explain, legal) and :mod:`tutor.cli.command`, what they
share.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence

from tutor.cli.command import CommandError
from tutor.cli.parser import build_parser, with_default_command
from tutor.errors import WizardRuleError


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (2 for bad input).

    >>> main(["explain", "J B5 B11 B7", "--trump", "R"])
    Winner: card 3, B11 (blue 11)
    Card 3 (B11) takes the trick with blue 11: nobody played a Wizard or a trump, so the highest blue card wins.
    0
    """
    arguments = with_default_command(sys.argv[1:] if argv is None else argv)
    args = build_parser().parse_args(arguments)
    args.argv = arguments
    run: Callable[[argparse.Namespace], int] = args.run
    try:
        return run(args)
    except (WizardRuleError, CommandError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
