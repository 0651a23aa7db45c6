"""Check topic mixing…: the window's face of ``monet check-mixing`` (Settings, beside the
sunset-model switch).

It shows the cost first, then runs the check in the background and shows the verdict
and the per-probe table; the last report (kept in the data folder) is shown when the
dialog opens. Without a key only the built-in stand-in can answer, and the dialog says
plainly that this checks the path, not Claude.

``ui`` builds no prompts and reads no database: the controller hands over plain
callables (``monet_app.mixing.check.WindowCheck``) and the report as its JSON (the
format of ``check-mixing-report.json``). The callables run on a worker thread;
``progress`` arrives through a queued signal. Closing the dialog during a run stops it
before its next probe.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QCloseEvent, QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QButtonGroup,
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QRadioButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ui.background import run_in_background
from ui.look import problem_color


def local_time(stamp: str) -> str:
    """An ISO 8601 time (the report's, in UTC) as the person's local date and minute."""
    try:
        when = datetime.fromisoformat(stamp)
    except ValueError:
        return stamp.replace("T", " ")
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return when.astimezone().strftime("%Y-%m-%d %H:%M")


#: Makes the estimate: a dict with model, requests, dollars, most_dollars, grader_model,
#: grader_requests, grader_dollars (``CostEstimate.as_dict``).
Estimate = Callable[[], dict[str, Any]]
#: Runs the check: (live, grader, progress(done, total), cancel) -> the report.
Run = Callable[[bool, bool, Callable[[int, int], None], threading.Event], dict[str, Any]]

SHAPES = ("sunset", "thread")


class MixingDialog(QDialog):
    progressed = Signal(int, int)  # probes done, probes in all (from the worker)

    def __init__(
        self,
        model: str,
        has_key: bool,
        estimate: Estimate,
        run: Run,
        last: dict[str, Any] | None = None,
        parent: QWidget | None = None,
        describe: Callable[[BaseException], str] = str,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Check topic mixing"))
        self.resize(780, 640)
        self._estimate_fn, self._run_fn, self._describe = estimate, run, describe
        self._model = model
        self._has_key = has_key
        self.estimate: dict[str, Any] | None = None
        self.report: dict[str, Any] | None = None
        self.running = False
        self._cancel = threading.Event()

        intro = QLabel(self.tr(
            "Before you turn the sunset model on: MONET replays built-in mixed days (Japanese "
            "and English, four tabs whose talk shares words, such as a work deadline and a "
            "personal one) as one stream (sunset model) and as one thread per tab (thread "
            "model), asks questions whose answer depends on the tab, and counts the answers "
            "that bring in another tab's facts. Nothing of it enters your conversation."))
        intro.setWordWrap(True)

        self.claude = QRadioButton(self.tr("Claude ({model})").format(model=model))
        self.claude.setObjectName("mixingClaude")
        self.standin = QRadioButton(self.tr("The built-in stand-in (free)"))
        self.standin.setObjectName("mixingStandin")
        choice = QButtonGroup(self)
        choice.addButton(self.claude)
        choice.addButton(self.standin)
        self.grader = QCheckBox(self.tr("A second opinion from a Claude grader"))
        self.grader.setObjectName("mixingGrader")
        self.key_note = QLabel(self.tr(
            "No API key is set, so only the stand-in can answer. Add a key in Settings to "
            "ask Claude."))
        self.key_note.setWordWrap(True)
        self.key_note.setVisible(not has_key)
        self.cost = QLabel()
        self.cost.setObjectName("mixingCost")
        self.cost.setWordWrap(True)
        self.run_button = QPushButton(self.tr("Run the check"))
        self.run_button.setObjectName("mixingRun")
        self.run_button.setAutoDefault(False)
        self.status = QLabel()
        self.status.setObjectName("mixingStatus")
        self.problem = QLabel()
        self.problem.setObjectName("mixingProblem")
        self.problem.setWordWrap(True)
        self.problem.setStyleSheet(f"color: {problem_color(self.palette())};")
        self.checked_when = QLabel()
        self.checked_when.setObjectName("mixingWhen")
        self.verdict = QLabel()
        self.verdict.setObjectName("mixingVerdict")
        self.verdict.setWordWrap(True)
        self.verdict.setTextFormat(Qt.TextFormat.PlainText)
        font = self.verdict.font()
        font.setBold(True)
        self.verdict.setFont(font)
        self.table = QTableWidget(0, 0)
        self.table.setObjectName("mixingTable")
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().setVisible(False)
        self.totals = QLabel()
        self.totals.setObjectName("mixingTotals")
        self.totals.setWordWrap(True)

        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        who = QHBoxLayout()
        who.addWidget(QLabel(self.tr("Who answers:")))
        who.addWidget(self.claude)
        who.addWidget(self.standin)
        who.addStretch(1)
        layout.addLayout(who)
        layout.addWidget(self.key_note)
        layout.addWidget(self.grader)
        layout.addWidget(self.cost)
        row = QHBoxLayout()
        row.addWidget(self.run_button)
        row.addWidget(self.status, 1)
        layout.addLayout(row)
        layout.addWidget(self.problem)
        layout.addWidget(self.checked_when)
        layout.addWidget(self.verdict)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.totals)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.button(QDialogButtonBox.StandardButton.Close).setText(self.tr("Close"))
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)

        self.claude.setEnabled(has_key)
        (self.claude if has_key else self.standin).setChecked(True)
        self.claude.toggled.connect(self._update)
        self.grader.toggled.connect(self._update)
        self.run_button.clicked.connect(self.start)
        self.progressed.connect(self._progress)
        if last is not None:
            self.show_report(last)
        else:
            self.checked_when.setText(self.tr("No check has been run yet."))
        if has_key:
            self._estimating = True
            run_in_background(self._estimate_fn, self._estimated, self._estimate_failed)
        else:
            self._estimating = False
        self._update()

    # ----- the cost -------------------------------------------------------------------
    def live(self) -> bool:
        return self._has_key and self.claude.isChecked()

    def _update(self) -> None:
        live = self.live()
        self.grader.setEnabled(live and not self.running)
        if not live:
            self.cost.setText(self.tr(
                "Free: nothing is sent to Anthropic. The stand-in answers from the answer key, "
                "so this checks the path, not Claude."))
        elif self.estimate is None:
            self.cost.setText(self.tr("Estimating the cost…") if self._estimating
                              else self.tr("The cost could not be estimated."))
        else:
            e = self.estimate
            text = self.tr(
                "About ${dollars} for {n} requests to {model} (at most about ${most}). What "
                "it spends is recorded in the usage ledger as check-mixing.").format(
                dollars=f"{e['dollars']:.2f}", n=e["requests"], model=e["model"],
                most=f"{e['most_dollars']:.2f}")
            if self.grader.isChecked() and e.get("grader_model"):
                text += " " + self.tr(
                    "The grader adds about ${dollars} for {n} requests to {model}.").format(
                    dollars=f"{e['grader_dollars']:.2f}", n=e["grader_requests"],
                    model=e["grader_model"])
            self.cost.setText(text)
        ready = not live or self.estimate is not None
        self.run_button.setEnabled(ready and not self.running)
        self.claude.setEnabled(self._has_key and not self.running)
        self.standin.setEnabled(not self.running)

    def _estimated(self, estimate: dict[str, Any]) -> None:
        self._estimating = False
        self.estimate = estimate
        self._update()

    def _estimate_failed(self, exc: BaseException) -> None:
        self._estimating = False
        self.problem.setText(self._describe(exc))
        self._update()

    # ----- the run --------------------------------------------------------------------
    def start(self) -> None:
        if self.running:
            return
        live = self.live()
        grader = live and self.grader.isChecked()
        self.running = True
        self._cancel = threading.Event()
        cancel = self._cancel
        self.problem.clear()
        self.status.setText(self.tr("Running…"))
        self._update()
        emit = self.progressed.emit
        run_in_background(lambda: self._run_fn(live, grader, emit, cancel),
                          self._finished, self._failed)

    def _progress(self, done: int, total: int) -> None:
        if self.running:
            self.status.setText(self.tr("Running… {done}/{total} questions").format(
                done=done, total=total))

    def _finished(self, report: dict[str, Any]) -> None:
        self.running = False
        self.status.setText(self.tr("Done."))
        self.show_report(report)
        self._update()

    def _failed(self, exc: BaseException) -> None:
        self.running = False
        self.status.clear()
        self.problem.setText(self._describe(exc))
        self._update()

    def stop(self) -> None:
        """Stop a run before its next probe (what was spent stays in the ledger)."""
        self._cancel.set()

    def reject(self) -> None:
        self.stop()
        super().reject()

    def closeEvent(self, event: QCloseEvent) -> None:
        self.stop()
        super().closeEvent(event)

    # ----- the report -----------------------------------------------------------------
    def _verdict_word(self, verdict: str | None) -> str:
        words = {
            "right": self.tr("right"),
            "mixed up": self.tr("mixed up"),
            "other": self.tr("other"),
            "unclear": self.tr("unclear"),
        }
        return words.get(verdict or "", "–")

    def _finding(self, code: str) -> str:
        findings = {
            "stream_mixes_more": self.tr(
                "One stream mixed topics up more often than separate threads: read the "
                "mixed-up questions before turning the sunset model on."),
            "cannot_tell": self.tr(
                "Most answers gave neither tab's fact, so this run cannot tell."),
            "no_sign": self.tr("No sign that one stream mixes topics up."),
            "fewer_right": self.tr(
                "Nothing was mixed up, but one stream got fewer answers right."),
            "both_mix": self.tr(
                "One stream mixed topics up no more often than separate threads, but both "
                "mixed some up: read those questions."),
        }
        return findings.get(code, "")

    def verdict_text(self, report: dict[str, Any]) -> str:
        s, t = report["totals"]["sunset"], report["totals"]["thread"]
        counts = self.tr(
            "Sunset model (one stream): {sr}/{sn} right, {sm} mixed up. Thread model (a "
            "thread per tab): {tr}/{tn} right, {tm} mixed up.").format(
            sr=s["right"], sn=s["probes"], sm=s["mixed_up"],
            tr=t["right"], tn=t["probes"], tm=t["mixed_up"])
        if report.get("answers") == "stand-in":
            who = self.tr("Stand-in answers: this checks the path, not Claude.")
        else:
            who = self.tr("Answers from {model}.").format(model=report.get("model", ""))
        return " ".join(p for p in (counts, self._finding(str(report.get("finding", ""))), who)
                        if p)

    def show_report(self, report: dict[str, Any]) -> None:
        self.report = report
        self.checked_when.setText(self.tr("Last check: {when}").format(
            when=local_time(str(report.get("created", "")))))
        self.verdict.setText(self.verdict_text(report))
        graded = report.get("grader_model") is not None
        headers = [self.tr("Question"), self.tr("Tab"), self.tr("Sunset model"),
                   self.tr("Thread model")]
        if graded:
            headers += [self.tr("Grader: sunset"), self.tr("Grader: thread")]
        probes = report.get("probes", [])
        self.table.clear()
        self.table.setColumnCount(len(headers))
        self.table.setHorizontalHeaderLabels(headers)
        self.table.setRowCount(len(probes))
        problem = QColor(problem_color(self.palette()))
        for row, probe in enumerate(probes):
            question = QTableWidgetItem(str(probe.get("question", "")))
            question.setToolTip(str(probe.get("id", "")))
            self.table.setItem(row, 0, question)
            self.table.setItem(row, 1, QTableWidgetItem(str(probe.get("tab_label", ""))))
            for column, shape in enumerate(SHAPES, start=2):
                outcome = probe.get(shape, {})
                item = QTableWidgetItem(self._verdict_word(outcome.get("verdict")))
                item.setToolTip(str(outcome.get("answer", "")))
                if outcome.get("verdict") == "mixed up":
                    item.setForeground(problem)
                self.table.setItem(row, column, item)
                if graded:
                    self.table.setItem(row, column + 2, QTableWidgetItem(
                        self._verdict_word(outcome.get("grader"))))
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for column in range(1, len(headers)):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        lines = []
        names = {"sunset": self.tr("Sunset model"), "thread": self.tr("Thread model")}
        for shape in SHAPES:
            t = report["totals"][shape]
            lines.append(self.tr(
                "{name}: {right} right, {mixed} mixed up, {other} other; {tokens} prompt "
                "tokens, ${dollars}").format(
                name=names[shape], right=t["right"], mixed=t["mixed_up"], other=t["other"],
                tokens=f"{t['prompt_tokens']:,}", dollars=f"{t['dollars']:.4f}"))
        if graded:
            for shape in SHAPES:
                g = report["totals"][shape].get("grader") or {}
                lines.append(self.tr(
                    "Grader ({model}), a second opinion on the {name}: {right} right, {mixed} "
                    "mixed up, {other} other, {unclear} unclear").format(
                    model=report["grader_model"], name=names[shape], right=g.get("right", 0),
                    mixed=g.get("mixed_up", 0), other=g.get("other", 0),
                    unclear=g.get("unclear", 0)))
        self.totals.setText("\n".join(lines))
