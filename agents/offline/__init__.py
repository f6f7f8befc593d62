"""The offline model: everything the ``offline`` provider needs to perform the agent roles.

Text analysis, features, the trained models (small JSON files shipped in this package and rebuilt
by ``magg model build``) and the role handlers live here together. Each ``agents/<role>.py`` keeps
its prompt, reply schema and prompt builder; the modules here depend on those, never the reverse.
:func:`agents.offline.handlers.offline_handlers` is the provider's table of roles.
"""
