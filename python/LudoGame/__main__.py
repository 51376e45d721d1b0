"""``python -m LudoGame``: the demo (the worked example and a seeded random game)."""

import sys

from LudoGame.cli import main

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
