"""One home for each thing the person does (after Anki's ``aqt/operations``), for the
window and the command line alike.

Each module holds plain functions over the core (``monet_app.services.wiring.Core``), no
Qt, each returning ``Done(value, changes)`` (``changes.py``: which panes went stale, for
the window's one ``refresh``). Every one that writes enters the one gate
(``monet_app/services/gate.py``) with its kind of work, so what must not run together
never does, whoever asks. The actions:

- ``conversation``: send (``commit`` then ``reply``), edit and resend (a ``commit`` that
  sets the old exchange aside in its transaction), ``regenerate``, continue (a
  ``commit``), ``stop``;
- ``memory``: delete a message or a day, forget a memory at either depth, correct one,
  incognito today, the remembered items;
- ``settings``: apply settings, ``promote`` a statement;
- ``search``: the person's search (window and ``monet search``);
- ``backups``: back up, restore;
- ``keys``: where the key is, store a pasted one;
- ``librarian``: one librarian pass.

How the window runs them (on a worker or inline) is ``monet_app/window/run.py``.
``tests/test_architecture.py`` keeps each action here: neither the window nor the command
line calls the layers below for something an operation does.
"""
