"""The text files beside the database: written atomically, read as UTF-8."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def read_text(path: Path) -> str:
    try:
        return path.read_text("utf-8")
    except FileNotFoundError:
        return ""


def write_text_atomic(path: Path, text: str) -> None:
    """Write to a temporary file and rename over ``path``: never half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
