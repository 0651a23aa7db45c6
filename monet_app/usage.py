"""``monet usage``: what the conversation has cost, from the ledger.

Cache hit ratio = cache reads / all input tokens (uncached + cache writes + reads).
"""

from __future__ import annotations

import json
from typing import Any

from storage import Database, queries


def hit_ratio(row: dict[str, Any]) -> float:
    total = row["input_tokens"] + row["cache_write_tokens"] + row["cache_read_tokens"]
    return row["cache_read_tokens"] / total if total else 0.0


def usage_report(db: Database, day: str | None = None) -> dict[str, Any]:
    with db.session() as session:
        days = queries.usage_rows(session, day)
        purposes = queries.usage_by_purpose(session, day)
    keys = [
        "requests", "input_tokens", "cache_write_tokens", "cache_write_5m_tokens",
        "cache_write_1h_tokens", "cache_read_tokens", "output_tokens", "dollars",
    ]
    totals: dict[str, Any] = {k: sum(r[k] for r in days) for k in keys}
    totals["dollars"] = round(totals["dollars"], 6)
    for row in [*days, totals]:
        row["cache_hit_ratio"] = round(hit_ratio(row), 4)
        row["dollars"] = round(row["dollars"], 6)
    return {"totals": totals, "days": days, "dollars_by_purpose": purposes}


def usage_text(report: dict[str, Any]) -> str:
    header = (
        f"{'day':10} {'requests':>8} {'uncached':>10} {'cache write':>12} {'cache read':>12} "
        f"{'output':>10} {'dollars':>10} {'hit':>6}"
    )
    lines = [header, "-" * len(header)]

    def row_text(name: str, r: dict[str, Any]) -> str:
        return (
            f"{name:10} {r['requests']:8,d} {r['input_tokens']:10,d} "
            f"{r['cache_write_tokens']:12,d} {r['cache_read_tokens']:12,d} "
            f"{r['output_tokens']:10,d} {r['dollars']:10.4f} {r['cache_hit_ratio']:6.1%}"
        )

    for r in report["days"]:
        lines.append(row_text(r["day"], r))
    lines.append("-" * len(header))
    lines.append(row_text("total", report["totals"]))
    if report["dollars_by_purpose"]:
        parts = ", ".join(f"{k} ${v:.4f}" for k, v in sorted(report["dollars_by_purpose"].items()))
        lines.append(f"by purpose: {parts}")
    return "\n".join(lines)


def usage_json(report: dict[str, Any]) -> str:
    return json.dumps(report, ensure_ascii=False, indent=2)
