"""The status bar: a passing notice ("Copied"), the librarian's queue, the last reply's
tokens and dollars, the last backup and today's cost. Every text gives up width ("…",
the whole text in its tooltip: ``ui/elided.py``), so none sets the window's minimum width."""

from __future__ import annotations

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QStatusBar, QWidget

from ui.elided import ElidedLabel
from ui.items import StatusFigures
from ui.look import problem_color

#: How long a passing notice ("Copied") stays in the status bar.
NOTICE_MS = 8000


class StatusLine(QStatusBar):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.notice_label = ElidedLabel()
        self.librarian_label = ElidedLabel()
        self.backup_label = ElidedLabel()
        self.last_reply_label = ElidedLabel()
        self.today_label = ElidedLabel()
        self._notice_timer = QTimer(self)
        self._notice_timer.setSingleShot(True)
        self._notice_timer.setInterval(NOTICE_MS)
        self._notice_timer.timeout.connect(lambda: self.notice_label.setText(""))
        # a passing notice takes the free space on the left, cut rather than overlapping
        # the others; the librarian and the last reply's figures stay
        self.addWidget(self.notice_label, 1)
        self.addPermanentWidget(self.librarian_label)
        self.addPermanentWidget(self.last_reply_label)
        self.addPermanentWidget(self.backup_label)
        self.addPermanentWidget(self.today_label)

    def notify(self, text: str) -> None:
        """A passing notice, gone after ``NOTICE_MS``."""
        self.notice_label.setText(text)
        self._notice_timer.start()

    def set_backup_status(self, text: str, failed: bool) -> None:
        """When the last backup was made; in red when the last one failed."""
        self.backup_label.setText(text)
        self.backup_label.setStyleSheet(  # a red that reads at 4.5:1 in either palette
            f"color: {problem_color(self.palette())}; font-weight: bold;" if failed else "")

    def set_status(self, figures: StatusFigures) -> None:
        """The librarian's queue, the last reply's tokens and dollars, today's total."""
        if figures.service:  # a shared history's passes are the service's on its host
            text = (self.tr("Librarian: the service on {host}, last pass {when}").format(
                        host=figures.service, when=figures.service_last) if figures.service_last
                    else self.tr("Librarian: the service on {host}, no pass yet").format(
                        host=figures.service))
            if figures.pending:
                text += " · " + self.tr("{n} waiting for it").format(n=figures.pending)
        else:
            text = (self.tr("Summarizing {n}").format(n=figures.pending) if figures.pending
                    else self.tr("Librarian: nothing pending"))
        if figures.unembedded:
            text += " · " + self.tr("Indexing by meaning: {n:,} to go").format(
                n=figures.unembedded)
        if figures.memories_offline:
            text += " · " + self.tr("Memories: offline rules (the model's proposals failed)")
        self.librarian_label.setText(text)
        last = figures.last_reply
        last_text = self.tr(
            "Last reply: in {inp:,} · cache read {read:,} · "
            "cache write {write:,} · out {out:,} · ${usd:.4f}"
        )
        self.last_reply_label.setText("" if last is None else last_text.format(
            inp=last.input_tokens, read=last.cache_read, write=last.cache_write,
            out=last.output_tokens, usd=last.dollars,
        ))
        self.today_label.setText(self.tr("Today ${usd:.4f}").format(usd=figures.today_dollars))

    def set_shared(self) -> None:
        """On hover, how windows and devices share a history on a server."""
        self.setToolTip(self.tr(
            "This history is on a server and can be open on your other devices at the same "
            "time: their messages appear here within seconds. On each device, one window "
            "per data folder."))

    def set_demo(self) -> None:
        """The demo's mark, permanently at the start."""
        mark = ElidedLabel()
        mark.setText(self.tr("DEMO: a sample history in a throwaway folder; a built-in "
                             "stand-in answers, not Claude"))
        mark.setObjectName("demoMark")
        mark.setStyleSheet("#demoMark { background: #b35c1e; color: white; padding: 2px 8px;"
                           " border-radius: 3px; font-weight: bold; }")
        self.insertWidget(0, mark)
