"""`python -m benchmarks.load`."""

from benchmarks.load.cli import main

raise SystemExit(main())
