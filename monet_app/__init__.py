"""MONET's entry points and wiring, in rooms (docs/ARCHITECTURE.md, "The layers"):
``services`` (the core, the gateway, the key, backups, replay, the gate), ``operations``
(one function per user action), ``mixing`` (``monet check-mixing``), ``window`` (the
desktop app), ``demo`` (``monet --demo``) and ``cli`` (the ``monet`` command)."""

__version__ = "0.1.0"
