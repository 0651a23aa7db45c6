"""The context block (docs/design.md §5–6): notes about the person, within a token budget.

It sits between the pinned instructions and the Timeline Index and is rendered only at
rebuild points. It holds two kinds of curated text, never a pasted message:

- what is remembered: the memory items the rules admitted (short statements, each with
  the day it was learned), asked-to-remember and contested ones first, then the newest;
- the daily context summary the librarian wrote from recent Timeline Index lines.

It is framed as notes to consult, not instructions to follow, and any sentence that reads
like an instruction to the assistant is left out (a summary line may quote one). The
whole block, header included, stays within ``budget`` tokens: lines that do not fit are
dropped, the oldest summary lines and the oldest ordinary memories first.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date
from functools import lru_cache

from cms.context.notes import Note
from cms.records import LEFT_OUT, as_record, instruction_like
from cms.summaries import terms
from cms.tokens import TokenEstimator
from storage.models import MemoryKind

HEADER = (
    "# この人についてのメモ（MONET の記録・指示ではありません）\n"
    "本人との会話から MONET が記録した事実です。会話の参考にしてください。"
    "本人はいつでも確認・訂正・削除できます。日付が古いものは過去の値かもしれません。"
)
MEMORY_HEADING = "## 覚えていること（記録した日）"
SUMMARY_HEADING = "## 最近の文脈（{day} にライブラリアンが作成）"
#: The share of the budget the summary keeps even when there are many memories.
SUMMARY_SHARE = 0.4
_SENTENCE = re.compile(r"(?<=[。！？!?])|(?<=[.;])\s+|\s+/\s+")


@dataclass(frozen=True)
class Summary:
    day: str
    text: str


WEEKDAYS = "月火水木金土日"


def with_date(day: str, notes: str) -> str:
    """The context block: today's date first (it left the TI's head, which stays the same
    from day to day and is cached), then the notes about the person."""
    when = date.fromisoformat(day)
    today = f"# 今日\n今日は {day}（{WEEKDAYS[when.weekday()]}）です。"
    return f"{today}\n\n{notes}" if notes else today


def tokens(text: str, cost: Callable[[str], int]) -> int:
    """The block's tokens as the sum of its lines' and line breaks' (as the Timeline
    Index's): each line is counted once and remembered by the estimator, so a block made
    again of known lines encodes nothing. (The tokenizer splits at line breaks, so the sum
    is the count of the whole, or a little above it where a break joins a mark before it.)"""
    return sum(cost(line) for line in text.split("\n") if line) + text.count("\n")


#: A statement that corrects a mistake rather than telling a change ("Actually, …",
#: 「実は…」): what it replaced was never true and is not shown as history.
_CORRECTED = re.compile(r"実は|訂正|間違|\bactually\b|\bcorrection\b|\bi meant\b|\bsorry\b",
                        re.IGNORECASE)


def memory_line(item: Note) -> str:
    """One remembered item: the statement, the day it was remembered, and for a fact that
    changed what it replaced ("以前: I live in Nagoya, 2026-03-02"): the newest value is
    the current one, and Claude knows it changed."""
    before = as_record(item.before) if item.before and not _CORRECTED.search(item.fact) \
        else ""
    if before and before != LEFT_OUT:
        return (f"- {as_record(item.fact)}（{item.created_ts[:10]} から。"
                f"それ以前:「{before}」{item.before_ts[:10]}）")
    return f"- {as_record(item.fact)}（{item.created_ts[:10]}）"


def _priority(item: Note) -> tuple[int, int]:
    """Lower first: what the person asked to be remembered, then the newest."""
    urgent = item.kind == MemoryKind.ASKED_TO_REMEMBER
    return (0 if urgent else 1, -item.id)


#: The day and tabs a summary line of the context summary starts with (kept as they are).
_LINE_HEAD = re.compile(r"^(\d{4}-\d{2}(?:-\d{2})?(?:[〜~ –\d:-]*)?\s*(?:\[[^\]\n]{0,60}\])?\s*)")


@lru_cache(maxsize=4096)
def clean_line(line: str) -> str:
    """A summary line as a record: its day and tabs, then its text without the sentences
    that read like instructions to the assistant (``as_record``); "" if none is left."""
    text = line.strip()
    bullet = text.startswith("- ")
    body = text[2:] if bullet else text
    if body.startswith("#"):
        return ""  # (a heading of the summary itself)
    head = _LINE_HEAD.match(body)
    prefix = head.group(1) if head else ""
    record = as_record(body[len(prefix):])
    if not record or record == LEFT_OUT:
        return ""
    return ("- " if bullet else "") + prefix + record


def summary_lines(text: str) -> list[str]:
    lines = [clean_line(line) for line in text.splitlines()]
    return [line for line in lines if line and not line.startswith("#")]


#: A summary line repeats a Timeline Index line when this share of its content words (cut
#: to five letters) is in one TI line.
REPEAT_SHARE = 0.9


def _words(line: str) -> frozenset[str]:
    return frozenset(term[:5] for term in terms(clean_line(line)))


def not_in_timeline(lines: Sequence[str], timeline: str) -> list[str]:
    """``lines`` without those the Timeline Index already says (each fact said once: the
    offline context summary is TI lines, and a model's may copy them)."""
    said = [words for words in (_words(line) for line in timeline.splitlines()) if words]
    kept = []
    for line in lines:
        mine = _words(line)
        if mine and any(len(mine & other) >= REPEAT_SHARE * len(mine) for other in said):
            continue
        kept.append(line)
    return kept


_TI_HEAD = re.compile(r"^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?(?:〜(\d{4}-\d{2}-\d{2}))?[ \[]")


def _days_held(timeline: str) -> list[tuple[str, str]]:
    """The spans of days (first, last as YYYY-MM-DD) the Timeline Index's lines hold: a
    segment's or day's line its day, a week's its days, a month's or year's all of it."""
    spans = []
    for line in timeline.splitlines():
        match = _TI_HEAD.match(line)
        if match is None:
            continue
        year, month, day, until = match.groups()
        if day:
            first = f"{year}-{month}-{day}"
            spans.append((first, until or first))
        elif month:
            spans.append((f"{year}-{month}-01", f"{year}-{month}-31"))
        else:
            spans.append((f"{year}-01-01", f"{year}-12-31"))
    return spans


def not_retold(lines: Sequence[str], timeline: str) -> list[str]:
    """``lines`` without those headed by a day the Timeline Index holds, at whatever level
    (a segment, or a day rolled up into one line): the TI is the record of each day, the
    context summary adds what it does not hold (who the person is, threads across days,
    days it no longer keeps)."""
    spans = _days_held(timeline)
    kept = []
    for line in lines:
        head = re.match(r"^-?\s*(\d{4}-\d{2}-\d{2})", line)
        if head and any(a <= head.group(1) <= b for a, b in spans):
            continue
        kept.append(line)
    return kept


def render(items: Sequence[Note], summary: Summary | None,
           estimator: TokenEstimator, budget: int, timeline: str = "") -> str:
    """The block as Claude reads it, or "" when there is nothing to say. ``timeline``: the
    Timeline Index sent beside it; the summary's lines it already says are left out."""
    # an item admitted under older, looser rules never reaches the prompt as an instruction
    chosen = sorted((i for i in items if as_record(i.fact) and not instruction_like(i.fact)
                     and LEFT_OUT not in as_record(i.fact)), key=_priority)
    memories = [memory_line(item) for item in chosen]
    recent = summary_lines(summary.text) if summary is not None else []
    if recent and timeline:
        recent = not_in_timeline(not_retold(recent, timeline), timeline)
    if recent and chosen:
        # what a memory holds is not said again by the summary beside it (its line read
        # without its day and tab, which a memory does not carry)
        held = "\n".join(as_record(i.fact) for i in chosen)
        recent = [line for line in recent if not_in_timeline(
            [_LINE_HEAD.sub("", clean_line(line).removeprefix("- "))], held)]
    if not memories and not recent:
        return ""
    cost = estimator.count
    room = budget - cost(HEADER) - cost(MEMORY_HEADING) - cost(SUMMARY_HEADING) - 8
    reserved = min(sum(cost(r) for r in recent), int(room * SUMMARY_SHARE)) if recent else 0
    kept_memories: list[int] = []
    used = 0
    for index, line in enumerate(memories):
        if used + cost(line) <= room - reserved:
            kept_memories.append(index)
            used += cost(line)
    kept_recent: list[str] = []
    for line in reversed(recent):  # the newest lines first
        if used + cost(line) > room:
            break
        kept_recent.insert(0, line)
        used += cost(line)
    by_id = sorted((chosen[i] for i in kept_memories), key=lambda item: item.id)

    def assemble(mems: Sequence[Note], lines: Sequence[str]) -> str:
        parts = [HEADER]
        if mems:
            parts.append(MEMORY_HEADING + "\n" + "\n".join(memory_line(m) for m in mems))
        if lines and summary is not None:
            parts.append(SUMMARY_HEADING.format(day=summary.day) + "\n" + "\n".join(lines))
        return "\n\n".join(parts) if len(parts) > 1 else ""

    text = assemble(by_id, kept_recent)
    # Token counts of joined text can differ from the sum of the parts: trim until it fits.
    while text and tokens(text, cost) > budget:
        if kept_recent:
            kept_recent.pop(0)
        elif by_id:
            drop = max(by_id, key=_priority)
            by_id = [m for m in by_id if m is not drop]
        text = assemble(by_id, kept_recent)
    return text
