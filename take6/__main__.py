"""``python -m take6``: the ``take6`` command."""

import sys

from take6.cli.main import main

sys.exit(main())
