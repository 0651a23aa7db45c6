"""What the controller says in the window's language (``assets/i18n``): a failed reply,
a refused action, a bug. The reply's, the gate's and the attachments' failures are said
by their ``code`` through Qt's translation; every other error (and one of those whose code
has no sentence here) through the error catalog (``monet_app/window/error_words.py``,
keyed by the error's English template). The English sentence stays what ``monet.log``
and the command line say."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QObject

from cms.model.errors import ModelError
from monet_app.window.error_words import say
from monet_app.window.run import describe
from storage.errors import AttachmentError, BusyError, ServerAwayError, UserFacingError

#: A sentence of ``Words``' own that MONET's Japanese translates (``assets/i18n``; said by
#: ``model_problem``, so ``pyside6-lupdate`` keeps it).
_PROBE = "Your message is saved."


def window_language() -> str:
    """The language the window speaks: "ja" when MONET's Japanese translation is
    installed, else "en".

    ``ui/look.py`` decides it at start: ``ui_language()`` (``MONET_LANG``, else the
    system's locale) says "ja", and ``install_translator`` then loads ``monet_ja.qm``
    into the application. Rather than asking ``ui_language()`` again (which says "ja"
    even when the translation could not be loaded, or was removed, and the window speaks
    English), this asks the translation itself: one of ``Words``' own sentences comes
    back in Japanese exactly when it is installed. So an error is always said in the
    language of the rest of the window. Thread-safe (``QCoreApplication.translate``)."""
    translated = QCoreApplication.translate("Words", _PROBE)
    return "ja" if translated != _PROBE else "en"


class Words(QObject):
    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        #: The sentences said for a history's server away: a banner showing one goes when
        #: the server answers again (``SharedWatch``).
        self._away: set[str] = set()

    def language(self) -> str:
        """The window's language ("ja" or "en"): see ``window_language``."""
        return window_language()

    def said(self, exc: UserFacingError) -> str:
        """A sentence-error in the window's language: the catalog's, else its English."""
        sentence = say(exc, self.language())
        if isinstance(exc, ServerAwayError):
            self._away.add(sentence)
        return sentence

    def held_reply(self) -> str:
        """A reply that ended while the history's server was away (``cms/context/away.py``)."""
        sentence = self.tr("The history's server cannot be reached: Claude's reply is kept "
                           "on this device and goes into the history, with its cost, as "
                           "soon as the server answers again.")
        self._away.add(sentence)
        return sentence

    def about_away(self, sentence: str) -> bool:
        """Whether ``sentence`` was said for a server away (and may go once it answers)."""
        return bool(sentence) and sentence in self._away

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
        if isinstance(exc, UserFacingError):
            return self.said(exc)
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
        return self.said(exc)

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
        return said.format(name=name, detail=detail) if said else self.said(exc)

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
        if isinstance(exc, UserFacingError):
            return self.said(exc)
        return describe(exc, self.tr(
            "Something went wrong while asking Claude ({kind}). Your message is saved; "
            "details are in monet.log."))
