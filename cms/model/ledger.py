"""The usage ledger: one row per model request (chat or librarian) with its dollars."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import Any

from cms.model.pricing import Price, dollars
from cms.model.protocol import Usage
from storage import Database
from storage.models import UsageRecord


@dataclass(frozen=True)
class UsageNote:
    """A request's usage, written to the ledger with the message its reply stored."""

    purpose: str
    usage: Usage
    estimated_input: int
    source: str
    model: str | None = None
    turn_ttl: str = ""  # a chat request's conversation breakpoint lifetime

    def as_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> UsageNote:
        fields = dict(data)
        fields["usage"] = Usage(**fields.get("usage", {}))
        return cls(**fields)


def usage_values(
    *,
    ts: str,
    day: str,
    purpose: str,
    model: str,
    usage: Usage,
    estimated_input: int,
    source: str,
    prices: Mapping[str, Price] | None = None,
    turn_ttl: str = "",
) -> dict[str, Any]:
    """A ledger line's columns (``UsageRecord`` without its id)."""
    unsplit = usage.cache_creation_input_tokens - usage.cache_creation_5m - usage.cache_creation_1h
    return {
        "ts": ts,
        "day": day,
        "purpose": purpose,
        "model": model,
        "source": source,
        "input_tokens": usage.input_tokens,
        "cache_write_5m": usage.cache_creation_5m + max(0, unsplit),
        "cache_write_1h": usage.cache_creation_1h,
        "cache_read": usage.cache_read_input_tokens,
        "output_tokens": usage.output_tokens,
        "dollars": dollars(usage, model, prices),
        "estimated_input": estimated_input,
        "turn_ttl": turn_ttl,
    }


def usage_record(**kwargs: Any) -> UsageRecord:
    """``usage_values`` as a ``UsageRecord`` (same keywords)."""
    return UsageRecord(**usage_values(**kwargs))


def record(db: Database, row: UsageRecord) -> None:
    with db.session() as session:
        session.add(row)
