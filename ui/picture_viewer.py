"""A picture shown with a message, large (issue 30): clicked in the transcript, or chosen
with the message's Files button.

The picture is read at the size of the screen on a worker (``ui/transcript/thumbnails``),
so a 40 MB photo never holds the window; "Loading…" shows meanwhile. The row's other
pictures are a key away (← →). "Open in another app" hands the original to the system's
viewer (``open_outside``: the window copies it out under its name first); Esc closes.
"""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt, QTimer, Signal
from PySide6.QtGui import QImage, QKeyEvent, QKeySequence, QPixmap, QResizeEvent, QShortcut
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from ui.items import ShownFile
from ui.transcript.thumbnails import Thumbnails


class PictureViewer(QDialog):
    open_outside = Signal(object)  # the ShownFile to open in the system's viewer

    def __init__(self, pictures: list[ShownFile], start: int, parent: QWidget | None = None
                 ) -> None:
        super().__init__(parent)
        self.setObjectName("pictureViewer")
        self.pictures = pictures
        self.number = max(0, min(start, len(pictures) - 1))
        self._image: QImage | None = None
        self._loader = Thumbnails(self, keep=3)  # (screen-sized: up to 33 MB each at 4K)
        self._loader.ready.connect(self._arrived)
        self._still = QTimer(self, singleShot=True, interval=150)  # a resize has ended
        self._still.timeout.connect(self._fit)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(12, 12, 12, 12)
        self.picture = QLabel(self.tr("Loading…"))
        self.picture.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.picture.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Ignored)
        self.picture.setMinimumSize(240, 180)
        layout.addWidget(self.picture, 1)
        self.caption = QLabel()
        self.caption.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.caption.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.caption)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.outside_button = QPushButton(self.tr("Open in another app"))
        buttons.addButton(self.outside_button, QDialogButtonBox.ButtonRole.ActionRole)
        self.outside_button.clicked.connect(lambda: self.open_outside.emit(self.shown))
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        QShortcut(QKeySequence(Qt.Key.Key_Left), self).activated.connect(lambda: self.step(-1))
        QShortcut(QKeySequence(Qt.Key.Key_Right), self).activated.connect(lambda: self.step(1))
        screen = (parent.screen() if parent is not None else self.screen()).availableGeometry()
        self.resize(int(screen.width() * 0.8), int(screen.height() * 0.85))
        self._show()

    @property
    def shown(self) -> ShownFile:
        return self.pictures[self.number]

    def step(self, by: int) -> None:
        """The row's previous or next picture."""
        number = self.number + by
        if 0 <= number < len(self.pictures) and number != self.number:
            self.number = number
            self._show()

    def _show(self) -> None:
        file = self.shown
        count = f" ({self.number + 1}/{len(self.pictures)})" if len(self.pictures) > 1 else ""
        self.setWindowTitle(file.name + count)
        self.caption.setText(file.name + count)
        self._image = None
        self.picture.setPixmap(QPixmap())
        self.picture.setText(self.tr("Loading…"))
        ratio = self.devicePixelRatioF()
        screen = self.screen().availableGeometry()
        want = QSize(int(screen.width() * ratio), int(screen.height() * ratio))
        image = self._loader.image(file.path, want)
        if image is not None:
            self._set(image)

    def _arrived(self, path: str) -> None:
        if path != self.shown.path:
            return  # (an earlier picture, stepped past)
        ratio = self.devicePixelRatioF()
        screen = self.screen().availableGeometry()
        image = self._loader.image(path, QSize(int(screen.width() * ratio),
                                               int(screen.height() * ratio)))
        if image is not None:
            self._set(image)

    def _set(self, image: QImage) -> None:
        if image.isNull():
            self.picture.setText(self.tr("This picture cannot be read."))
            return
        self._image = image
        self._fit()

    def _fit(self, smooth: bool = True) -> None:
        """The picture scaled to the room it has: quickly while the window is being
        resized (a smooth pass over a screen-sized picture takes tens of ms), smoothly
        once it has been still for a moment."""
        if self._image is None:
            return
        ratio = self.devicePixelRatioF()
        room = self.picture.size() * ratio
        image = self._image
        if image.width() > room.width() or image.height() > room.height():
            image = image.scaled(room, Qt.AspectRatioMode.KeepAspectRatio,
                                 Qt.TransformationMode.SmoothTransformation if smooth
                                 else Qt.TransformationMode.FastTransformation)
        pixmap = QPixmap.fromImage(image)
        pixmap.setDevicePixelRatio(ratio)
        self.picture.setPixmap(pixmap)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit(smooth=False)
        self._still.start()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Space):
            self.accept()
            return
        super().keyPressEvent(event)
