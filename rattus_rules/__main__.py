"""`python -m rattus_rules` runs the `rattus` command line."""

import sys

from .cli import main

sys.exit(main())
