"""The window's side of ``monet_app`` (Qt): the controller (``app``), what is shown
(``navigator``), a reply as it streams (``streaming``), running operations off the GUI
thread (``run``), the librarian's and the backup's schedules, one window per data folder
(``single_instance``) and starting the window (``desktop``)."""
