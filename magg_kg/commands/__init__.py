"""Command groups of the ``magg`` CLI, part of the composition root (they may import any layer)."""
