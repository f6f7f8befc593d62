"""The command line, the top layer: ``magg`` and its commands (the entry point is :func:`main`).

It composes the layers below (kernel, blackboard, agents, governance), reads the environment (in
:mod:`magg_kg.cli.context`, when a command runs), and nothing below imports it. Every command
module adds its commands with ``register(app)``; :mod:`magg_kg.cli.app` calls them in order.
"""

from magg_kg.cli.app import app, main

__all__ = ["app", "main"]
