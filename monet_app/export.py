"""``monet export`` and ``monet timeline``: everything stored, and what Claude remembers."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from cms.clock import parse_ts
from storage import Database, queries
from storage.models import MessageRole, MessageStatus

_WHO = {
    MessageRole.USER: "あなた / You",
    MessageRole.ASSISTANT: "Claude",
    MessageRole.TOOL: "tool",
}


def export_records(db: Database, day: str | None = None) -> Iterator[dict[str, Any]]:
    with db.session() as session:
        threads = queries.threads_by_id(session)
        messages = queries.all_messages(session, day)
    for m in messages:
        thread = threads.get(m.thread_id)
        name = (thread.day or thread.title) if thread else ""
        yield {
            "id": m.id,
            "ts": m.ts,
            "day": m.day,
            "tab": m.tab,
            "thread": name,
            "role": m.role,
            "text": m.text,
            "status": m.status,
        }


def export_jsonl(db: Database, day: str | None = None) -> Iterator[str]:
    for record in export_records(db, day):
        yield json.dumps(record, ensure_ascii=False) + "\n"


def export_markdown(db: Database, day: str | None = None) -> Iterator[str]:
    current_day = None
    yield "# MONET export\n"
    for r in export_records(db, day):
        if r["day"] != current_day:
            current_day = r["day"]
            yield f"\n## {current_day}\n"
        when = parse_ts(r["ts"]).strftime("%H:%M")
        who = _WHO.get(r["role"], r["role"])
        flag = " (incomplete)" if r["status"] != MessageStatus.COMPLETE else ""
        thread = f", {r['thread']}" if r["thread"] != r["day"] else ""
        yield f"\n### {when} · {r['tab']}{thread} · {who}{flag}\n\n{r['text']}\n"
