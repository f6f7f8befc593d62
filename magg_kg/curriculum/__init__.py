"""The bundled sample curriculum (Markdown lessons), read with importlib.resources."""
