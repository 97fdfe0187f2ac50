"""``python -m warhost``: the same as the ``warhost`` command."""

from warhost.cli import main

if __name__ == "__main__":
    main()
