"""``monet usage``: what the conversation has cost, from the ledger.

Cache hit ratio = cache reads / all input tokens (uncached + cache writes + reads).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from storage import Database
from storage.ledger import UsageRow, turn_lifetimes, usage_by_purpose, usage_rows


@dataclass(frozen=True)
class UsageReport:
    days: tuple[UsageRow, ...]  # oldest day first
    totals: UsageRow  # over every day of the report; its ``day`` is "total"
    dollars_by_purpose: dict[str, float]
    #: chat requests by their conversation breakpoint's lifetime ({"5m": n, "1h": m})
    turn_lifetimes: dict[str, int] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        """The report as ``monet usage --json`` prints it."""
        return {
            "totals": _row_dict(self.totals),
            "days": [{"day": row.day, **_row_dict(row)} for row in self.days],
            "dollars_by_purpose": self.dollars_by_purpose,
            "turn_lifetimes": self.turn_lifetimes,
        }


def _row_dict(row: UsageRow) -> dict[str, Any]:
    return {
        "requests": row.requests,
        "input_tokens": row.input_tokens,
        "cache_write_tokens": row.cache_write_tokens,
        "cache_write_5m_tokens": row.cache_write_5m_tokens,
        "cache_write_1h_tokens": row.cache_write_1h_tokens,
        "cache_read_tokens": row.cache_read_tokens,
        "output_tokens": row.output_tokens,
        "dollars": round(row.dollars, 6),
        "cache_hit_ratio": round(row.cache_hit_ratio, 4),
    }


def usage_report(db: Database, day: str | None = None) -> UsageReport:
    with db.session() as session:
        days = usage_rows(session, day)
        purposes = usage_by_purpose(session, day)
        lifetimes = turn_lifetimes(session, day)
    totals = UsageRow(
        day="total",
        requests=sum(r.requests for r in days),
        input_tokens=sum(r.input_tokens for r in days),
        cache_write_5m_tokens=sum(r.cache_write_5m_tokens for r in days),
        cache_write_1h_tokens=sum(r.cache_write_1h_tokens for r in days),
        cache_read_tokens=sum(r.cache_read_tokens for r in days),
        output_tokens=sum(r.output_tokens for r in days),
        # A sum of no days stays the integer 0, as the report has always printed it.
        dollars=sum(r.dollars for r in days),
    )
    return UsageReport(days=tuple(days), totals=totals, dollars_by_purpose=purposes,
                       turn_lifetimes=lifetimes)


def usage_text(report: UsageReport) -> str:
    header = (
        f"{'day':10} {'requests':>8} {'uncached':>10} {'cache write':>12} {'cache read':>12} "
        f"{'output':>10} {'dollars':>10} {'hit':>6}"
    )
    lines = [header, "-" * len(header)]

    def row_text(r: UsageRow) -> str:
        dollars = round(r.dollars, 6)  # rounded as in the JSON report, then shown
        ratio = round(r.cache_hit_ratio, 4)
        return (
            f"{r.day:10} {r.requests:8,d} {r.input_tokens:10,d} "
            f"{r.cache_write_tokens:12,d} {r.cache_read_tokens:12,d} "
            f"{r.output_tokens:10,d} {dollars:10.4f} {ratio:6.1%}"
        )

    for r in report.days:
        lines.append(row_text(r))
    lines.append("-" * len(header))
    lines.append(row_text(report.totals))
    if report.dollars_by_purpose:
        parts = ", ".join(f"{k} ${v:.4f}" for k, v in sorted(report.dollars_by_purpose.items()))
        lines.append(f"by purpose: {parts}")
    chosen = report.turn_lifetimes
    if chosen:
        total = report.totals
        lines.append(
            f"the conversation's cache lifetime, chosen from your pauses: 1 hour on "
            f"{chosen.get('1h', 0):,} of {sum(chosen.values()):,} chat requests, 5 minutes "
            f"on the rest; cache writes {total.cache_write_5m_tokens:,} tokens at 5 minutes, "
            f"{total.cache_write_1h_tokens:,} at 1 hour")
    return "\n".join(lines)


def usage_json(report: UsageReport) -> str:
    return json.dumps(report.as_dict(), ensure_ascii=False, indent=2)
