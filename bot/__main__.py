"""`python -m bot`: run the bot. `python -m bot play`: a terminal table (see engine docs)."""

from __future__ import annotations

import sys

from bot.main import main

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
