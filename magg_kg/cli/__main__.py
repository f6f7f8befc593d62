"""``python -m magg_kg.cli``: the ``magg`` command without its installed script."""

from magg_kg.cli import main

if __name__ == "__main__":
    main()
