"""The bundle's entry point (``packaging/monet.spec``): the ``monet`` command."""

import sys

from monet_app.cli.main import main

if __name__ == "__main__":
    sys.exit(main())
