"""Screenshots of the window's round-3 features: reply versions with coloured code and
sized headings, "↓ Latest", and a 660 px window, in one language and palette.

    QT_QPA_PLATFORM=offscreen python benchmarks/window_shots.py ja|en light|dark [OUT_DIR]

Saves OUT_DIR/{lang}-{theme}-attach-field.png (a picture and a PDF waiting as chips),
-attach-sent.png, -attach-large.png (the picture opened), -versions.png, -jump.png and
-narrow.png (OUT_DIR: /tmp).
The answers come from the local stand-in (nothing leaves the machine).
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

REPLY = ("# {heading}\n\n## {sub}\n\n{text}\n\n```python\ndef total(prices, tax=0.1):\n"
         '    """Sum with tax."""\n    return sum(p * (1 + tax) for p in prices)  # {note}\n```\n')
WORDS = {
    "ja": {"ask": "税込みの合計を出す関数を書いて", "sub": "コード",
           "files": "このメニューと学校からの手紙、何て書いてある？",
           "first": ("合計の出し方", "税込みで合計します。", "税込み"),
           "second": ("別の書き方", "もう一つの書き方です。", "二つ目"),
           "note": "メモ {n}: " + "長めの文章です。" * 6},
    "en": {"ask": "Write a function for the total with tax", "sub": "The code",
           "files": "What do this menu and the school letter say?",
           "first": ("Adding it up", "This adds the tax to each price.", "with tax"),
           "second": ("Another way", "A second way to write it.", "second take"),
           "note": "note {n}: " + "a line of text " * 8},
}


def attach_scene(c, spin, prefix: Path, folder: Path, words: dict) -> None:  # type: ignore[no-untyped-def]
    """A picture and a PDF waiting as chips in the field, then sent: two shots."""
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    from benchmarks.attachments_day import pdf, picture

    (folder / "menu.jpg").write_bytes(picture(1))
    (folder / "letter.pdf").write_bytes(pdf(3))
    w = c.window
    w.compose.files_chosen.emit([str(folder / "menu.jpg"), str(folder / "letter.pdf")])
    spin(2.0)
    w.compose.field.setPlainText(words["files"])
    spin(0.3)
    w.grab().save(f"{prefix}-attach-field.png")
    QTest.keyClick(w.compose.field, Qt.Key.Key_Return)
    spin(3.0)
    w.grab().save(f"{prefix}-attach-sent.png")
    number = next(i for i, r in enumerate(w.transcript.model.rows) if r.files)
    w.transcript.open_file(w.transcript.model.rows[number], 0)  # as a click on the thumbnail does
    spin(1.5)
    if w.transcript.picture_viewer is not None:
        w.transcript.picture_viewer.grab().save(f"{prefix}-attach-large.png")
        w.transcript.picture_viewer.reject()


def main() -> None:
    lang, theme = sys.argv[1], sys.argv[2]
    out = Path(sys.argv[3] if len(sys.argv) > 3 else "/tmp")
    os.environ["MONET_LANG"] = lang
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication

    app = QApplication(sys.argv[:1])
    from monet_app.operations.changes import EVERYTHING
    from monet_app.services.standin_server import StandInServer
    from monet_app.services.wiring import standin_model
    from monet_app.window.app import AppController
    from ui.look import apply_palette, install_translator

    apply_palette(app, theme)
    install_translator(app)

    def spin(seconds: float) -> None:
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            app.processEvents()
            time.sleep(0.005)

    words = WORDS[lang]
    with tempfile.TemporaryDirectory() as tmp, StandInServer() as server:
        c = AppController(Path(tmp) / "home", model_factory=standin_model(server.url),
                          needs_key=False)
        w = c.window
        w.resize(1100, 760)
        w.show()
        spin(0.5)
        for version in ("first", "second"):
            heading, text, note = words[version]
            server.replies.append(REPLY.format(heading=heading, sub=words["sub"], text=text,
                                               note=note))
            if version == "first":
                w.compose.field.setPlainText(words["ask"])
                QTest.keyClick(w.compose.field, Qt.Key.Key_Return)
            else:
                w.transcript.act_on_message(w.transcript.model.rows[-1], "regenerate")
            spin(4.0)
        attach_scene(c, spin, out / f"{lang}-{theme}", Path(tmp), words)
        reply = max(i for i, r in enumerate(w.transcript.model.rows) if r.role == "assistant")
        w.transcript.view.setFocus()
        # its buttons show: ◀ 2/2
        w.transcript.view.setCurrentIndex(w.transcript.model.index(reply, 0))
        spin(0.5)
        w.grab().save(str(out / f"{lang}-{theme}-versions.png"))
        for n in range(25):  # a long day, read from the top: "↓ Latest"
            c.core.context.commit_user_message(words["note"].format(n=n), "chat")
        c.refresh(EVERYTHING)
        spin(1.0)
        w.transcript.view.verticalScrollBar().setValue(0)
        spin(0.5)
        w.grab().save(str(out / f"{lang}-{theme}-jump.png"))
        w.resize(660, 700)
        spin(0.8)
        w.grab().save(str(out / f"{lang}-{theme}-narrow.png"))
        c.close()


if __name__ == "__main__":
    main()
