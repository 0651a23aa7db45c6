"""The desktop window (PySide6 only). It never builds prompts; it calls monet_app."""
