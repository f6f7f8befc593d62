"""magg-kg: a governed knowledge graph for an AI-engineer curriculum (the kernel)."""

__version__ = "0.1.0"
