"""MONET's entry points and wiring: the command line, replay, export and (later) the app."""

__version__ = "0.1.0"
