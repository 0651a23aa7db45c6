"""``python -m monet_app.cli``: the ``monet`` command."""

import sys

from monet_app.cli.main import main

sys.exit(main())
