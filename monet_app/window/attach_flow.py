"""Files waiting to be sent with the next message (issue 30).

The 📎 button, a paste or a drop give paths (or a pasted picture); they are read, checked
and prepared on a worker (``operations.attaching.prepare_files``: a large picture is
scaled down there, once), then shown as chips above the message field with what they will
cost. A file that cannot be attached is said in the window's language and nothing else
changes: the typed text stays, the other chips stay. The send takes the chips with the
message (``SendFlow``) and clears them only once the message is stored.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path

from PySide6.QtCore import QBuffer, QDateTime, QIODevice, QObject, Qt, QUrl
from PySide6.QtGui import QDesktopServices, QImage

from cms.attachments import Prepared
from monet_app.operations import attaching
from monet_app.operations.changes import Done
from monet_app.window.run import run_op
from monet_app.window.words import Words
from storage.errors import AttachmentError
from ui.items import ShownFile
from ui.main_window import MainWindow

#: Above this many tokens in one file, its chip says so in words (a large PDF).
LARGE_TOKENS = 10_000
#: A picture's copy on its chip: this many pixels high (twice that read, for sharp
#: screens).
CHIP_ICON = 28


class AttachFlow(QObject):
    def __init__(self, window: MainWindow, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.window = window
        self.pending: list[Prepared] = []
        self._icons: list[QImage | None] = []  # a picture's small copy on its chip
        self._words = Words(self)
        window.compose.files_chosen.connect(self.add_paths)
        window.compose.image_pasted.connect(self.add_image)
        window.compose.attachment_removed.connect(self.remove)
        window.transcript.file_open_requested.connect(self.open_outside)

    def open_outside(self, file: ShownFile) -> None:
        """A file shown with a message, opened in the system's viewer: copied out under its
        own name on a worker, then handed over; said in words when nothing can open it."""
        run_op(partial(attaching.file_to_open, file.path, file.name, file.media_type),
               self._opened, self._refused, self._say)

    def _opened(self, done: Done[Path]) -> None:
        if not QDesktopServices.openUrl(QUrl.fromLocalFile(str(done.value))):
            self.window.status_line.notify(self.tr("No program here opens {name}.").format(
                name=done.value.name))

    def add_paths(self, paths: list[str]) -> None:
        run_op(lambda: _with_icons(attaching.prepare_files(list(paths))), self._added,
               self._refused, self._say)

    def add_image(self, image: QImage) -> None:
        """A pasted picture: encoded as PNG on the worker (a QImage may be read there)."""
        copy = image.copy()
        name = f"pasted-{QDateTime.currentDateTime().toString('yyyyMMdd-HHmmss')}.png"

        def prepared() -> tuple[Done[list[Prepared]], list[QImage | None]]:
            buffer = QBuffer()
            buffer.open(QIODevice.OpenModeFlag.WriteOnly)
            copy.save(buffer, "PNG")  # type: ignore[call-overload]  # (the stubs want bytes)
            return _with_icons(attaching.prepare_pasted(bytes(buffer.data().data()), name))

        run_op(prepared, self._added, self._refused, self._say)

    def remove(self, position: int) -> None:
        if 0 <= position < len(self.pending):
            del self.pending[position]
            del self._icons[position]
            self._show()

    def clear(self) -> None:
        self.pending = []
        self._icons = []
        self._show()

    def _added(self, done: tuple[Done[list[Prepared]], list[QImage | None]]) -> None:
        self.pending += done[0].value
        self._icons += done[1]
        self._show()
        self.window.clear_error()

    def _refused(self, sentence: str) -> None:
        self.window.show_error(sentence, can_retry=False)

    def _say(self, exc: BaseException) -> str:
        if isinstance(exc, AttachmentError):
            return self._words.attachment_problem(exc)
        return self._words.problem(exc)

    def _show(self) -> None:
        chips = []
        for prepared, icon in zip(self.pending, self._icons, strict=True):
            size = f"{len(prepared.original) / 1024:,.0f} KB"
            cost = self.tr("about {n:,} tokens").format(n=prepared.tokens)
            detail = (f"{prepared.width}×{prepared.height}" if prepared.kind == "image"
                      else self.tr("{n} pages").format(n=prepared.pages)
                      if prepared.kind == "pdf" else "")
            label = prepared.name
            if prepared.tokens >= LARGE_TOKENS:
                label += " · " + cost  # a large one says what it costs before it is sent
            chips.append((label, " · ".join(p for p in (prepared.name, detail, size, cost)
                                             if p), icon))
        self.window.compose.set_attachments(chips)


def _with_icons(done: Done[list[Prepared]]) -> tuple[Done[list[Prepared]], list[QImage | None]]:
    """The prepared files with a small copy of each picture for its chip, made here on the
    worker (a QImage may be decoded off the GUI thread)."""
    icons: list[QImage | None] = []
    for prepared in done.value:
        image = QImage.fromData(prepared.sent) if prepared.kind == "image" else QImage()
        icons.append(image.scaled(CHIP_ICON * 2, CHIP_ICON * 2,
                                  Qt.AspectRatioMode.KeepAspectRatio,
                                  Qt.TransformationMode.SmoothTransformation)
                     if not image.isNull() else None)
    return done, icons
