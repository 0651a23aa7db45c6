"""Settings and promotion: what changes the pinned block or the shape of the prompt.

Both take effect at the next request (``settings_changed``, design.md §2).
"""

from __future__ import annotations

from cms.context.core_prompt import promote as promote_statement
from cms.settings import Settings
from monet_app.services.keys import store_api_key
from monet_app.services.wiring import Core
from ui.items import SettingsValues


def settings_values(settings: Settings) -> SettingsValues:
    """What the settings dialog shows (the key is never read back into it)."""
    s = settings
    return SettingsValues("", s.model, s.tabs, s.ceiling_tokens, s.day_start,
                          s.librarian_interval_minutes, s.sunset_model, s.incognito_tabs,
                          theme=s.theme, backup_keep=s.backup_keep)


def apply_settings(core: Core, values: SettingsValues) -> str | None:
    """Validate, store the key and the settings, rebuild what depends on them. Nothing is
    stored if anything is refused. Returns where a new key went ("keyring", or "session"
    where no keyring exists: kept until MONET quits), or None when no key was given."""
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
    return where


def promote(core: Core, category: str, statement: str) -> str:
    """Append a lasting statement to ``system_prompt_core.txt``; returns its heading."""
    return promote_statement(core.home, category, statement)
