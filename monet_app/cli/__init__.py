"""The ``monet`` command (``main``) and what only the command line does: the librarian
process (``librarian_process``), export, usage and ``install-desktop``. The actions it
shares with the window are ``monet_app.operations``."""
