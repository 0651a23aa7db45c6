"""Pictures for the transcript, read and scaled off the GUI thread.

A thumbnail (or the large view of a picture) is decoded by ``QImageReader`` with the size
it is wanted at, on a thread pool of the pictures' own (two threads: a day of pictures
never queues ahead of a reply's or a search's worker on Qt's global pool): the GUI thread
never waits on a disk or a decoder. Until it is ready the delegate paints a quiet
placeholder of the same size (the row's height comes from the picture's stored width and
height, so nothing moves when it arrives); ``ready`` then asks the view to paint again.
Recently used images are kept (``KEEP``); a file that cannot be read gives a null image,
painted as the placeholder.
"""

from __future__ import annotations

from collections import OrderedDict

from PySide6.QtCore import QObject, QRunnable, QSize, Qt, QThreadPool, Signal
from PySide6.QtGui import QImage, QImageIOHandler, QImageReader

#: Thumbnails kept in memory: a few screens of pictures (each at most 260 x 150 px, about
#: 156 KB; four times that on a 2x screen), 31 MB at most (125 MB at 2x).
KEEP = 200
_POOL: list[QThreadPool] = []


def _pool() -> QThreadPool:
    if not _POOL:
        pool = QThreadPool()
        pool.setMaxThreadCount(2)
        pool.setExpiryTimeout(10_000)
        _POOL.append(pool)
    return _POOL[0]


def read_scaled(path: str, size: QSize) -> QImage:
    """The picture at ``path`` read to fit within ``size`` (its aspect kept; never
    enlarged); a null image when it cannot be read."""
    reader = QImageReader(path)
    reader.setAutoTransform(True)  # (a photo's EXIF turn)
    natural = reader.size()
    if reader.transformation() & QImageIOHandler.Transformation.TransformationRotate90:
        natural.transpose()  # (the size is read before the turn; the box is after it)
        size = size.transposed()
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
        image = read_scaled(self.path, self.size)
        try:
            self.signals.done.emit(self.path, self.size, image)
        except RuntimeError:
            pass  # (the bridge is gone: MONET is quitting)


class Thumbnails(QObject):
    """``image(path, size)``: the picture when it has been read, else None (and it is
    being read); ``ready(path)`` says it is there now."""

    ready = Signal(str)

    def __init__(self, parent: QObject | None = None, keep: int = KEEP) -> None:
        super().__init__(parent)
        self.keep = keep
        self._images: OrderedDict[tuple[str, int, int], QImage] = OrderedDict()
        self._reading: set[tuple[str, int, int]] = set()
        # The bridge has no parent: each read holds it, so a read that ends after this
        # object was deleted (a picture viewer closed meanwhile) emits on a live object,
        # whose queued connection to the deleted receiver Qt has already dropped. It was
        # made on the GUI thread, so ``done`` is delivered there.
        self._signals = _Signals()
        self._signals.done.connect(self._done)

    def image(self, path: str, size: QSize) -> QImage | None:
        key = (path, size.width(), size.height())
        found = self._images.get(key)
        if found is not None:
            self._images.move_to_end(key)
            return found
        if key not in self._reading:
            self._reading.add(key)
            _pool().start(_Read(path, size, self._signals))
        return None

    def _done(self, path: str, size: QSize, image: QImage) -> None:
        key = (path, size.width(), size.height())
        self._reading.discard(key)
        self._images[key] = image
        while len(self._images) > self.keep:
            self._images.popitem(last=False)
        self.ready.emit(path)

    def forget(self) -> None:
        self._images.clear()
