"""A second Qt program on the virtual X screen, for the tests that drive a real window as
a person would (tests/test_xvfb.py): it puts a picture on the clipboard (and keeps owning
it, as the program a picture is copied from does), offers a file to drag from a small
window of its own, and photographs the screen. One command a line on stdin, "ok" (or the
answer) a line on stdout:

    clip PATH     the picture at PATH on the clipboard
    source PATH   a window titled "monet-drag-source" at the screen's top left; a press
                  in it starts dragging PATH (a file URL, as a file manager does)
    shot OUT      the whole screen saved as OUT (PNG)
    quit
"""

from __future__ import annotations

import sys

from PySide6.QtCore import QMimeData, QSocketNotifier, Qt, QUrl
from PySide6.QtGui import QDrag, QGuiApplication, QImage, QMouseEvent
from PySide6.QtWidgets import QApplication, QLabel, QWidget


class DragSource(QLabel):
    def __init__(self, path: str) -> None:
        super().__init__("drag me")
        self.path = path
        self.setWindowTitle("monet-drag-source")
        self.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.setFixedSize(140, 90)
        self.move(0, 0)

    def mousePressEvent(self, event: QMouseEvent) -> None:
        mime = QMimeData()
        mime.setUrls([QUrl.fromLocalFile(self.path)])
        drag = QDrag(self)
        drag.setMimeData(mime)
        drag.exec(Qt.DropAction.CopyAction)
        self.close()  # (dragged once: out of the screenshots' way)


def main() -> None:
    app = QApplication(sys.argv[:1])
    app.setQuitOnLastWindowClosed(False)  # (the drag source closes; "quit" ends it)
    kept: list[QWidget] = []

    def command() -> None:
        line = sys.stdin.readline()
        if not line:
            app.quit()
            return
        verb, _, argument = line.strip().partition(" ")
        if verb == "clip":
            QGuiApplication.clipboard().setImage(QImage(argument))
        elif verb == "source":
            source = DragSource(argument)
            source.show()
            kept.append(source)
        elif verb == "shot":
            screen = QGuiApplication.primaryScreen()
            screen.grabWindow(0).save(argument, "PNG")
        elif verb == "quit":
            print("ok", flush=True)
            app.quit()
            return
        print("ok", flush=True)

    notifier = QSocketNotifier(sys.stdin.fileno(), QSocketNotifier.Type.Read)
    notifier.activated.connect(command)
    print("ready", flush=True)
    app.exec()


if __name__ == "__main__":
    main()
