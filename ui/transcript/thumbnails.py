"""Pictures for the transcript, read and scaled off the GUI thread.

A thumbnail (or the large view of a picture) is decoded by ``QImageReader`` with the size
it is wanted at, on Qt's global thread pool: the GUI thread never waits on a disk or a
decoder. Until it is ready the delegate paints a quiet placeholder of the same size (the
row's height comes from the picture's stored width and height, so nothing moves when it
arrives); ``ready`` then asks the view to paint again. Recently used images are kept
(``KEEP``); a file that cannot be read gives a null image, painted as the placeholder.
"""

from __future__ import annotations

from collections import OrderedDict

from PySide6.QtCore import QObject, QRunnable, QSize, Qt, QThreadPool, Signal
from PySide6.QtGui import QImage, QImageReader

#: Thumbnails kept in memory: a few screens of pictures (each at most 260 x 160 px, about
#: 166 KB), about 33 MB at most.
KEEP = 200


def read_scaled(path: str, size: QSize) -> QImage:
    """The picture at ``path`` read to fit within ``size`` (its aspect kept; never
    enlarged); a null image when it cannot be read."""
    reader = QImageReader(path)
    reader.setAutoTransform(True)  # (a photo's EXIF turn)
    natural = reader.size()
    if natural.isValid() and (natural.width() > size.width()
                              or natural.height() > size.height()):
        reader.setScaledSize(natural.scaled(size, Qt.AspectRatioMode.KeepAspectRatio))
    image = reader.read()
    return image if not image.isNull() else QImage()


class _Signals(QObject):
    done = Signal(str, QSize, QImage)


class _Read(QRunnable):
    def __init__(self, path: str, size: QSize, signals: _Signals) -> None:
        super().__init__()
        self.path, self.size, self.signals = path, size, signals

    def run(self) -> None:
        self.signals.done.emit(self.path, self.size, read_scaled(self.path, self.size))


class Thumbnails(QObject):
    """``image(path, size)``: the picture when it has been read, else None (and it is
    being read); ``ready(path)`` says it is there now."""

    ready = Signal(str)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._images: OrderedDict[tuple[str, int, int], QImage] = OrderedDict()
        self._reading: set[tuple[str, int, int]] = set()
        self._signals = _Signals(self)  # lives on the GUI thread: ``done`` is queued here
        self._signals.done.connect(self._done)

    def image(self, path: str, size: QSize) -> QImage | None:
        key = (path, size.width(), size.height())
        found = self._images.get(key)
        if found is not None:
            self._images.move_to_end(key)
            return found
        if key not in self._reading:
            self._reading.add(key)
            QThreadPool.globalInstance().start(_Read(path, size, self._signals))
        return None

    def _done(self, path: str, size: QSize, image: QImage) -> None:
        key = (path, size.width(), size.height())
        self._reading.discard(key)
        self._images[key] = image
        while len(self._images) > KEEP:
            self._images.popitem(last=False)
        self.ready.emit(path)

    def forget(self) -> None:
        self._images.clear()
