"""Settings and promotion: what changes the pinned block or the shape of the prompt.

Both take effect at the next request (``settings_changed``, design.md §2). Settings are
``Work.SETTINGS`` in the gate (never mid-reply: they may rebuild the context manager);
promoting is a note (``Work.NOTE``).
"""

from __future__ import annotations

from cms.context.core_prompt import promote as promote_statement
from cms.settings import DEFAULT_TABS, ENGLISH_TABS, Settings
from monet_app.operations.changes import EVERYTHING, Changes, Done
from monet_app.services.gate import Work
from monet_app.services.keys import store_api_key
from monet_app.services.wiring import Core
from storage.talk import day_message_counts
from ui.items import SettingsValues


def settings_values(settings: Settings) -> SettingsValues:
    """What the settings dialog shows (the key is never read back into it)."""
    s = settings
    return SettingsValues("", s.model, s.tabs, s.ceiling_tokens, s.day_start,
                          s.librarian_interval_minutes, s.sunset_model, s.incognito_tabs,
                          theme=s.theme, backup_keep=s.backup_keep)


def choose_model(core: Core, model: str) -> Done[str]:
    """The model for the next replies, chosen beside the composer (refused mid-reply by
    the gate). The prompt cache is per model: the next request writes it again."""
    with core.gate.hold(Work.SETTINGS):
        core.use_settings(core.settings.with_overrides(model=model.strip()))
    return Done(core.settings.model, Changes(settings=True))


def apply_settings(core: Core, values: SettingsValues) -> Done[str | None]:
    """Validate, store the key and the settings, rebuild what depends on them. Nothing is
    stored if anything is refused. The value is where a new key went ("keyring", or
    "session" where no keyring exists: kept until MONET quits), or None when no key was
    given."""
    with core.gate.hold(Work.SETTINGS):
        new = core.settings.with_overrides(
            model=values.model, tabs=values.tabs, ceiling_tokens=values.ceiling_tokens,
            day_start=values.day_start,
            librarian_interval_minutes=values.librarian_interval_minutes,
            sunset_model=values.sunset_model, incognito_tabs=values.incognito_tabs,
            theme=values.theme, backup_keep=values.backup_keep,
        )
        where = None
        if values.api_key:
            where = store_api_key(values.api_key)
            core.drop_model()  # the next request uses the new key, whatever else changed
        core.use_settings(new)
    return Done(where, EVERYTHING)


def promote(core: Core, category: str, statement: str) -> Done[str]:
    """Append a lasting statement to ``system_prompt_core.txt``; the value is its heading."""
    with core.gate.hold(Work.NOTE):
        return Done(promote_statement(core.db, category, statement))


def name_tabs_in_english(core: Core) -> Done[bool]:
    """A first run in English gets English tab names (the defaults are Japanese). Only on
    a home with no talk yet: labels reach the prompt, so they never change under a
    history by themselves. The value says whether they were renamed."""
    if core.settings.tabs != DEFAULT_TABS:
        return Done(False)
    with core.db.session() as session:
        if day_message_counts(session):
            return Done(False)
    with core.gate.hold(Work.SETTINGS):
        core.use_settings(core.settings.with_overrides(tabs=ENGLISH_TABS))
    return Done(True, EVERYTHING)
