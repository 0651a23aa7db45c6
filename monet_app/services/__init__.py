"""What every entry point uses, with no Qt: building the core (``wiring``), Claude through
the official SDK (``gateway``), the API key (``keys``), the local stand-in of the Messages
API (``standin_server``), backups (``backup``), the replay engine (``replay``), the system
clock (``clock``) and the installed version (``version``)."""
