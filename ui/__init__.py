"""The desktop window (PySide6 only). It never builds prompts and imports nothing of
MONET's other packages: it shows the plain dataclasses of ``ui/items.py`` it is given and
reports what the person does by signal, which ``monet_app.window.app`` connects."""
