"""``python -m data.ratings --backfill URL``: see :mod:`data.ratings.backfill`."""

from data.ratings.backfill import main

raise SystemExit(main())
