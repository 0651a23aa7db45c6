"""The pinned block: MONET's instructions plus what the person promoted to lasting memory.

Promotion appends a statement to ``system_prompt_core.txt`` in the data folder, under one
of three headings (docs/design.md §5). The file is the person's too: a promotion inserts
one line and leaves every other line (hand-written notes included) as it was, and
concurrent promotions take turns (a process lock), so every one lands. The pinned block
changes only then, and the change takes effect at the next request as a
``settings_changed`` rebuild. There is no dedup against the daily context summary: the
first design tried it and removed it (unstable; duplication is cheap).
"""

from __future__ import annotations

from pathlib import Path

from cms.records import instruction_like
from storage.errors import PromotionError
from storage.files import process_lock, read_text, write_text_atomic

CORE_FILE = "system_prompt_core.txt"
CATEGORIES: dict[str, str] = {
    "values": "価値観・判断基準",
    "decisions": "重要な決定事項",
    "facts": "永続的な事実",
}
PROMOTED_HEADER = "# 昇格された記憶（system_prompt_core）"


def core_path(home: Path) -> Path:
    return home / CORE_FILE


def _sections(text: str) -> dict[str, list[str]]:
    sections: dict[str, list[str]] = {key: [] for key in CATEGORIES}
    by_heading = {f"## {title}": key for key, title in CATEGORIES.items()}
    current: str | None = None
    for line in text.splitlines():
        if line.strip() in by_heading:
            current = by_heading[line.strip()]
        elif current is not None and line.startswith("- "):
            sections[current].append(line[2:])
    return sections


#: Every request carries the promoted statements: each is one short sentence.
MAX_STATEMENT_CHARS = 300


def promote(home: Path, category: str, statement: str) -> str:
    """Append ``statement`` under ``category``. Returns the heading it went under."""
    if category not in CATEGORIES:
        raise PromotionError(
            f"Unknown category {category!r}: use values, decisions or facts."
        )
    statement = " ".join(statement.split())
    if not statement:
        raise PromotionError("The statement is empty; nothing was promoted.")
    if len(statement) > MAX_STATEMENT_CHARS:
        raise PromotionError(
            f"A promoted statement is one short sentence (at most {MAX_STATEMENT_CHARS} "
            f"characters; this one has {len(statement):,}): every request carries it. "
            "Nothing was promoted.")
    if instruction_like(statement):
        raise PromotionError(
            "A promoted statement says something about you (a value, a decision, a fact), "
            "not an instruction to Claude: say it as, for example, \"I prefer short "
            "answers.\" Nothing was promoted.")
    path = core_path(home)
    with process_lock(home, "core-prompt"):  # concurrent promotions all land
        write_text_atomic(path, _insert(read_text(path), CATEGORIES[category], statement))
    return CATEGORIES[category]


def _insert(text: str, title: str, statement: str) -> str:
    """``text`` with ``- statement`` added at the end of the ``## title`` section (made at
    the end if missing). Every other line, hand-written ones included, stays as it is."""
    lines = text.splitlines()
    heading = f"## {title}"
    try:
        start = next(i for i, line in enumerate(lines) if line.strip() == heading)
    except StopIteration:
        while lines and not lines[-1].strip():
            lines.pop()
        return "\n".join([*lines, *([""] if lines else []), heading, f"- {statement}"]) + "\n"
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("#")),
               len(lines))
    while end > start + 1 and not lines[end - 1].strip():
        end -= 1  # before the blank lines that close the section
    lines.insert(end, f"- {statement}")
    return "\n".join(lines) + "\n"


def promoted_statements(home: Path) -> list[tuple[str, str]]:
    """(category, statement) in the order they were promoted within each category."""
    sections = _sections(read_text(core_path(home)))
    return [(key, item) for key in CATEGORIES for item in sections[key]]


def pinned_text(instructions: str, home: Path) -> str:
    core = read_text(core_path(home)).strip()
    if not core:
        return instructions
    return f"{instructions.rstrip()}\n\n{PROMOTED_HEADER}\n{core}\n"
