"""The pinned block: MONET's instructions plus what the person promoted to lasting memory.

Promotion appends a statement to ``system_prompt_core.txt`` in the data folder, under one
of three headings (docs/design.md §5). The file is the person's too: a promotion inserts
one line and leaves every other line (hand-written notes included) as it was, and
concurrent promotions take turns (a process lock), so every one lands. A history on a
PostgreSQL server keeps the same text in the history itself (the ``setting``
``system_prompt_core``, issue 31): every device sharing it reads the same pinned block,
and promotions from two devices take turns under the server's advisory lock. The pinned block
changes only then, and the change takes effect at the next request as a
``settings_changed`` rebuild. There is no dedup against the daily context summary: the
first design tried it and removed it (unstable; duplication is cheap).
"""

from __future__ import annotations

from pathlib import Path

from cms.records import instruction_like
from storage import Database
from storage.database import server_lock
from storage.errors import PromotionError
from storage.files import process_lock, read_text, write_text_atomic
from storage.settings import read_value, write_value

CORE_FILE = "system_prompt_core.txt"
#: Where a history on a server keeps the core text (``setting``).
CORE_KEY = "system_prompt_core"
#: The server's advisory lock for a promotion's read-modify-write.
_PROMOTION_LOCK = 0x4D4F4E46
CATEGORIES: dict[str, str] = {
    "values": "価値観・判断基準",
    "decisions": "重要な決定事項",
    "facts": "永続的な事実",
}
PROMOTED_HEADER = "# 昇格された記憶（system_prompt_core）"


def core_path(home: Path) -> Path:
    return home / CORE_FILE


def read_core(where: Database | Path) -> str:
    """The core text: the file in a data folder (``where`` a folder, or a database in
    one), or the history's own copy on a server."""
    if isinstance(where, Path):
        return read_text(core_path(where))
    if not where.server:
        return read_text(core_path(where.home))
    with where.session() as session:
        value = read_value(session, CORE_KEY)
    return value if isinstance(value, str) else ""


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


def promote(where: Database | Path, category: str, statement: str) -> str:
    """Append ``statement`` under ``category``. Returns the heading it went under."""
    if category not in CATEGORIES:
        raise PromotionError(
            "Unknown category {category!r}: use values, decisions or facts.", category=category
        )
    statement = " ".join(statement.split())
    if not statement:
        raise PromotionError("The statement is empty; nothing was promoted.")
    if len(statement) > MAX_STATEMENT_CHARS:
        raise PromotionError(
            "A promoted statement is one short sentence (at most {limit} "
            "characters; this one has {length:,}): every request carries it. "
            "Nothing was promoted.", limit=MAX_STATEMENT_CHARS, length=len(statement))
    if instruction_like(statement):
        raise PromotionError(
            "A promoted statement says something about you (a value, a decision, a fact), "
            "not an instruction to Claude: say it as, for example, \"I prefer short "
            "answers.\" Nothing was promoted.")
    if isinstance(where, Database) and where.server:
        with where.session() as session:  # promotions from two devices take turns
            server_lock(session, _PROMOTION_LOCK)
            old = read_value(session, CORE_KEY)
            write_value(session, CORE_KEY, _insert(
                old if isinstance(old, str) else "", CATEGORIES[category], statement))
        return CATEGORIES[category]
    home = where if isinstance(where, Path) else where.home
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


def promoted_statements(core: str) -> list[tuple[str, str]]:
    """(category, statement) of the core text ``core`` (``read_core``), in the order they
    were promoted within each category."""
    sections = _sections(core)
    return [(key, item) for key in CATEGORIES for item in sections[key]]


def pinned_text(instructions: str, core: str) -> str:
    """The instructions, then the core text (``read_core``) under its heading."""
    core = core.strip()
    if not core:
        return instructions
    return f"{instructions.rstrip()}\n\n{PROMOTED_HEADER}\n{core}\n"
