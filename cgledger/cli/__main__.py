"""``python -m cgledger.cli``: the ``cgledger`` console script."""

from cgledger.cli import main

raise SystemExit(main())
