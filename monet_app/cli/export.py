"""``monet export`` and ``monet timeline``: everything stored, and what Claude remembers.

An export reads row by row in batches: a damaged row (text that is not UTF-8, a broken
page) is skipped and counted, never printed, and every readable row is written. The
target is written whole or not at all (a ``.partial`` file renamed over it, removed on
failure); a symbolic link is written through to its regular target; a folder, a device
or a pipe is refused with a sentence.
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import date
from itertools import islice
from pathlib import Path
from typing import Any, TextIO

from cms.clock import parse_ts
from storage import Database, talk
from storage import attachments as attachment_files
from storage.errors import AttachmentError, ExportError
from storage.models import Message, MessageRole, MessageStatus
from storage.talk import messages_by_ids, threads_by_id

BATCH = 500

_WHO = {
    MessageRole.USER: "あなた / You",
    MessageRole.ASSISTANT: "Claude",
    MessageRole.TOOL: "tool",
}


@dataclass
class Skipped:
    """Rows an export could not read (damaged), by id; their text is never shown."""

    ids: list[int] = field(default_factory=list)


def _readable(db: Database, day: str | None, skipped: Skipped) -> Iterator[Message]:
    """Every message that can be read, oldest first; damaged rows go to ``skipped``."""
    with db.unlocked_reads() as conn:
        ids = talk.ids_of(conn, day)
    for start in range(0, len(ids), BATCH):
        chunk = ids[start : start + BATCH]
        try:
            with db.session() as session:
                rows = messages_by_ids(session, chunk)
        except talk.UNREADABLE:
            rows = []
            for message_id in chunk:  # find the damaged ones, one by one
                try:
                    with db.session() as session:
                        rows += messages_by_ids(session, [message_id])
                except talk.UNREADABLE:
                    skipped.ids.append(message_id)
        yield from rows


def export_records(db: Database, day: str | None = None,
                   skipped: Skipped | None = None) -> Iterator[dict[str, Any]]:
    with db.session() as session:
        threads = threads_by_id(session)
    rows = _readable(db, day, skipped if skipped is not None else Skipped())
    while batch := list(islice(rows, BATCH)):
        with db.session() as session:
            attached = attachment_files.rows_of(
                session, [m.id for m in batch if m.id is not None and m.role == MessageRole.USER])
        for m in batch:
            thread = threads.get(m.thread_id)
            name = (thread.day or thread.title) if thread else ""
            record: dict[str, Any] = {
                "id": m.id,
                "ts": m.ts,
                "day": m.day,
                "tab": m.tab,
                "thread": name,
                "role": m.role,
                "text": m.text,
                "status": m.status,
            }
            files = attached.get(m.id or 0)
            if files:
                record["attachments"] = [
                    {"name": a.name, "media_type": a.media_type, "size": a.size,
                     "sha256": a.sha256} for a in files]
            yield record


def export_jsonl(db: Database, day: str | None = None,
                 skipped: Skipped | None = None) -> Iterator[str]:
    for record in export_records(db, day, skipped):
        yield json.dumps(record, ensure_ascii=False) + "\n"


def export_markdown(db: Database, day: str | None = None,
                    skipped: Skipped | None = None) -> Iterator[str]:
    current_day = None
    yield "# MONET export\n"
    for r in export_records(db, day, skipped):
        if r["day"] != current_day:
            current_day = r["day"]
            yield f"\n## {current_day}\n"
        when = parse_ts(r["ts"]).strftime("%H:%M")
        who = _WHO.get(r["role"], r["role"])
        flag = " (incomplete)" if r["status"] != MessageStatus.COMPLETE else ""
        thread = f", {r['thread']}" if r["thread"] != r["day"] else ""
        files = "".join(f"\n- 📎 {a['name']} ({a['media_type']}, {a['size']:,} bytes, "
                        f"sha256 {a['sha256'][:12]}…)" for a in r.get("attachments", []))
        yield (f"\n### {when} · {r['tab']}{thread} · {who}{flag}\n\n{r['text']}\n"
               + (files + "\n" if files else ""))


def checked_day(day: str | None) -> str | None:
    if day is None:
        return None
    try:
        return date.fromisoformat(day).isoformat()
    except ValueError:
        raise ExportError("--day needs a date as YYYY-MM-DD (got {day!r}).", day=day) from None


def target_of(out: Path) -> Path:
    """Where an export to ``out`` goes: ``out`` itself, or the regular file a symbolic link
    points to. A folder, a device, a pipe or a socket is refused."""
    path = out.resolve() if out.is_symlink() else out
    if path.is_dir():
        raise ExportError(
            "{out} is a folder; give a file name (for example {example}).", out=out,
            example=out / "monet.jsonl")
    if path.exists() and not stat.S_ISREG(path.stat().st_mode):
        raise ExportError(
            "{out} is not a regular file (a device, pipe or socket); MONET writes exports "
            "only to regular files.", out=out
        )
    return path


def write_attachments(db: Database, day: str | None, folder: Path) -> tuple[int, list[str]]:
    """``monet export --attachments DIR``: every attached file (of ``day``, or all) into
    ``folder`` as ``<message id>-<position>-<name>``, the bytes as they came (their
    SHA-256 is the export's). Returns how many were written, and the names of those left
    out because the data folder's copy no longer holds the bytes its name says."""
    if folder.exists() and not folder.is_dir():
        raise ExportError(
            "{folder} is not a folder; give a folder for the attachments.", folder=folder)
    folder.mkdir(parents=True, exist_ok=True)
    written, damaged = 0, []
    with db.session() as session:
        ids = attachment_files.messages_with_files(session, day)
        found = attachment_files.rows_of(session, ids)
    for message_id, files in sorted(found.items()):
        for a in files:
            safe = "".join(c if c.isalnum() or c in "._-" else "_" for c in a.name) or "file"
            target = folder / f"{message_id}-{a.position}-{safe}"
            try:
                data = attachment_files.read(db.home, a.sha256)
            except AttachmentError:
                damaged.append(target.name)
                continue
            tmp = target.with_name(target.name + ".partial")
            tmp.write_bytes(data)
            tmp.replace(target)
            written += 1
    return written, damaged


def write_export(db: Database, fmt: str, day: str | None, out: Path | None,
                 stdout: TextIO) -> Skipped:
    """Write the export to ``out`` (whole or not at all) or to ``stdout``."""
    day = checked_day(day)
    skipped = Skipped()
    make: Callable[..., Iterator[str]] = export_jsonl if fmt == "jsonl" else export_markdown
    chunks = make(db, day, skipped)
    if out is None:
        stdout.writelines(chunks)
        return skipped
    target = target_of(out)
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(target.name + ".partial")
    try:
        with tmp.open("w", encoding="utf-8") as handle:
            handle.writelines(chunks)
            handle.flush()
            os.fsync(handle.fileno())
        tmp.replace(target)
    finally:
        tmp.unlink(missing_ok=True)
    return skipped
