"""One home for each thing the person does in the window (after Anki's ``aqt/operations``).

Each module holds plain functions over the core (``monet_app.services.wiring.Core``): no widgets
and no Qt, so each can be tested without a window. ``run.run_op`` runs one off the GUI
thread and delivers its result on the GUI thread: ``success(result)``, or
``failure(sentence)`` for a ``UserFacingError``; anything else is a bug: its traceback
goes to ``monet.log`` and the person gets one sentence saying so (``storage/errors.py``).

What runs where, and why:

- in the background (``run_op``): the reply (``conversation.reply``, through the stream
  presenter), deleting a day or a message, a search, a librarian pass: anything that may
  take longer than a frame;
- inline (``run_inline``), with the same error handling: storing what the person typed
  (``conversation.commit``: it must be stored before any request leaves, and the composer
  is cleared only once it is), and the few-millisecond actions a dialog waits on
  (correcting or deleting a memory item, promoting a statement, applying settings,
  marking today incognito).

Switching threads in the thread model is navigation (``monet_app.window.navigator``).
"""
