"""What the controller says in the window's language (``assets/i18n``): a failed reply,
a refused action, a bug. The gateway's and the gate's English sentences stay the
fallback for rarer cases (and what ``monet.log`` and the command line say)."""

from __future__ import annotations

from PySide6.QtCore import QObject

from cms.model.errors import ModelError
from monet_app.window.run import describe
from storage.errors import AttachmentError, BusyError


class Words(QObject):
    def bug(self) -> str:
        """A bug, for ``describe``: one sentence; the traceback goes to monet.log."""
        return self.tr(
            "Something went wrong ({kind}). Nothing you typed was lost; details are in monet.log."
        )

    def tightened(self, home: str, count: int) -> str:
        """An older data folder was open to other accounts and is now private."""
        return self.tr(
            "{home} could be read by other accounts of this computer; MONET made it private "
            "({count} folders and files, now readable by you alone)."
        ).format(home=home, count=count)

    def problem(self, exc: BaseException) -> str:
        """Any failure of an operation, said once."""
        if isinstance(exc, BusyError):
            return self.busy(exc)
        return describe(exc, self.bug())

    def busy(self, exc: BusyError) -> str:
        """An action the gate refused (``monet_app/services/gate.py``)."""
        if exc.running == "restore":
            return self.tr("Wait until the restore is finished.")
        if exc.running == "forget":
            return self.tr("Wait until the deletion is finished.")
        if exc.running == "settings":
            return self.tr("Wait until the settings are applied.")
        if exc.requested == "restore":
            return self.tr("Wait for the reply or the deletion to finish first.")
        if exc.requested == "forget":
            return self.tr("Wait for the reply to finish before deleting.")
        if exc.requested == "settings":
            return self.tr(
                "Wait for the reply to finish (or press Stop) before changing settings.")
        if exc.running == "reply":
            return self.tr("Wait for the reply to finish (or press Stop).")
        return str(exc)

    def attachment_problem(self, exc: AttachmentError) -> str:
        """Why a file was not attached, in the window's language; nothing was sent."""
        name = exc.name or self.tr("The file")
        said = {
            "unsupported": self.tr(
                "{name} is not a kind Claude can read here (pictures: PNG, JPEG, GIF, WebP; "
                "documents: PDF or plain text); nothing was attached."),
            "too_large": self.tr(
                "{name} is too large to send (pictures up to 40 MB, PDFs up to 32 MB and "
                "100 pages, text up to 1 MB); nothing was attached."),
            "damaged": self.tr("{name} looks damaged and cannot be read; nothing was "
                               "attached."),
            "cannot_open": self.tr("{name} could not be opened here: {detail}"),
        }.get(exc.code)
        detail = str(exc).partition("(")[2].rstrip(").") or str(exc)
        return said.format(name=name, detail=detail) if said else str(exc)

    def model_problem(self, exc: BaseException) -> str:
        """What went wrong with a reply."""
        if isinstance(exc, BusyError):
            return self.busy(exc)
        code = exc.code if isinstance(exc, ModelError) else ""
        saved = self.tr("Your message is saved.")
        words = {
            "missing_key": self.tr("No API key yet: paste one above or in Settings; "
                                   "Claude answers once a key is set."),
            "auth": self.tr("The API key was refused (401). Check it in Settings."),
            "timeout": self.tr("Claude did not answer in time."),
            "connection": self.tr("No connection to Anthropic. MONET keeps working "
                                  "offline; retry when you are back online."),
            "overloaded": self.tr("Claude is overloaded right now (529); try again shortly."),
            "server": self.tr("Anthropic had a server error; try again."),
            "cut": self.tr("The reply broke off; what arrived is kept, marked incomplete."),
            "ended_early": self.tr("The reply stopped before Claude finished it; what "
                                   "arrived is kept, marked incomplete."),
        }
        if code == "rate_limited":
            wait = getattr(exc, "retry_after", None)
            said = (self.tr("Anthropic's rate limit was reached; try again in {s} s.")
                    .format(s=f"{wait:.0f}") if wait
                    else self.tr("Anthropic's rate limit was reached; try again in a minute."))
            return f"{said} {saved}"
        if code in words:
            return f"{words[code]} {saved}" if code != "missing_key" else words[code]
        return describe(exc, self.tr(
            "Something went wrong while asking Claude ({kind}). Your message is saved; "
            "details are in monet.log."))
