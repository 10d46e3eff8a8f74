"""The reference of a command line, from its argument parser: the whole help, then a section per
subcommand (and per subcommand of a subcommand), as reStructuredText.

The ``rattus`` command documents itself with it (:func:`rattus_rules.cli.reference_rst`); it knows
no command of its own.

>>> import argparse
>>> parser = argparse.ArgumentParser(prog="tool")
>>> sub = parser.add_subparsers().add_parser("run", help="run it")
>>> text = parser_rst(parser, "The tool.")
>>> ".. _rules-cli-run:" in text, "Run it." in text
(True, True)
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from typing import Any

from .rst import esc, heading, indent

#: The width the help is wrapped to.
HELP_WIDTH = 96


def _subcommands(parser: argparse.ArgumentParser) -> Iterator[tuple[str, str, argparse.ArgumentParser]]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {a.dest: a.help or "" for a in action._choices_actions}
            for name, sub in action.choices.items():
                yield name, helps.get(name, ""), sub


def _help(parser: argparse.ArgumentParser) -> str:
    original: Any = parser.formatter_class
    parser.formatter_class = lambda prog: original(prog, width=HELP_WIDTH)
    try:
        return parser.format_help()
    finally:
        parser.formatter_class = original


def parser_rst(parser: argparse.ArgumentParser, intro: str) -> str:
    """Every subcommand of ``parser`` with its help, after ``intro`` and the parser's own help (each
    subcommand's section has the label ``rules-cli-NAME``)."""
    out = [intro, "", ".. code-block:: text", "", *indent(_help(parser).splitlines(), 3), ""]
    for name, summary, sub in _subcommands(parser):
        out += [f".. _rules-cli-{name}:", ""] + heading(f"{parser.prog} {name}", "-")
        if summary:
            out += [esc(summary[0].upper() + summary[1:]) + ".", ""]
        out += [".. code-block:: text", "", *indent(_help(sub).splitlines(), 3), ""]
        for sub_name, sub_summary, subsub in _subcommands(sub):
            out += heading(f"{parser.prog} {name} {sub_name}", "~")
            if sub_summary:
                out += [esc(sub_summary[0].upper() + sub_summary[1:]) + ".", ""]
            out += [".. code-block:: text", "", *indent(_help(subsub).splitlines(), 3), ""]
    return "\n".join(out) + "\n"
