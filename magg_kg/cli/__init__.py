"""The command line, the top layer: ``magg`` and its commands (the entry point is :func:`main`).

It composes the layers below (kernel, blackboard, agents, governance), reads the environment (in
:mod:`magg_kg.cli.context`, when a command runs), and nothing below imports it. Every command
module adds its commands with ``register(app)``; :mod:`magg_kg.cli.app` builds the app and calls
them in order.

This package's own module imports nothing: the installed ``magg`` script calls :func:`main`, which
loads the commands (about a second of imports) inside its own guard, so that a Ctrl-C while they
load ends the command with one line, as a Ctrl-C later does, and no traceback.
"""

from __future__ import annotations

import sys

__all__ = ["main"]


def main() -> None:
    """Entry point of ``magg``: loads the commands, then runs the one asked for
    (:func:`magg_kg.cli.app.main`)."""
    try:
        from magg_kg.cli.app import main as run
    except KeyboardInterrupt:
        sys.stderr.write("interrupted while magg was starting: nothing was done\n")
        sys.exit(130)  # magg_kg.cli.app.INTERRUPTED, which is what was being loaded
    run()
