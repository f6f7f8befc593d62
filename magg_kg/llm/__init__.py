"""The LLM port and its providers."""
