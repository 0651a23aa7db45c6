"""Files attached to a message, before it is sent: read and checked (a picture scaled
down once, a damaged or unsupported one refused in a sentence), a pasted picture, and a
copy of an attached file for the system's viewer. Reading only: nothing is stored until
the message is sent (``conversation.commit``)."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from collections.abc import Sequence
from pathlib import Path

from cms.attachments import MAX_READ_BYTES, Prepared, prepare, viewer_name
from monet_app.operations.changes import Done
from storage.errors import AttachmentError
from storage.files import NotAFile, TooLarge, read_measured


def prepare_files(paths: Sequence[str]) -> Done[list[Prepared]]:
    """Read and check files to attach (``cms.attachments.prepare``: a picture scaled down
    once, a damaged or unsupported one refused in a sentence). Reading only: nothing is
    stored until the message is sent."""
    found: list[Prepared] = []
    for path in paths:
        where = Path(path)
        try:
            data = read_measured(where, MAX_READ_BYTES, "file to attach")
        except OSError as exc:
            raise AttachmentError("{name} cannot be read ({reason}).", code="damaged",
                                  name=where.name, reason=exc.strerror or exc) from None
        except NotAFile:  # a device, a FIFO, a socket: refused before reading
            raise AttachmentError(
                "{name} is not a regular file (a device, pipe or socket); MONET reads only "
                "files.", code="unsupported", name=where.name) from None
        except TooLarge as exc:  # by its size, before reading (or it grew while read)
            if exc.size is None:
                raise AttachmentError(
                    "{name} is larger than {limit:,.0f} MB (it grew while it was read); a "
                    "file to attach can be at most that.", code="too_large", name=where.name,
                    limit=exc.limit / 1e6) from None
            raise AttachmentError(
                "{name} is {size:,.1f} MB; a file to attach can be at most {limit:,.0f} MB.",
                code="too_large", name=where.name, size=exc.size / 1e6,
                limit=exc.limit / 1e6) from None
        found.append(prepare(data, where.name))
    return Done(found)


def prepare_pasted(data: bytes, name: str) -> Done[list[Prepared]]:
    """A picture pasted from the clipboard (as PNG), checked as a file is."""
    return Done([prepare(data, name)])


def file_to_open(path: str, name: str, media_type: str) -> Done[Path]:
    """A copy of an attached file for the system's viewer, under its name with the suffix
    of what it is (``cms.attachments.viewer_name``: a text file named ``x.bat`` opens as
    ``x.bat.txt``, never runs). The data folder names files by their hash, without the
    suffix a viewer goes by, so the copy is made in a folder of this process's own,
    readable by this user only and removed when MONET quits. Reads the history only."""
    source = Path(path)
    target = _open_folder() / source.name[:16] / viewer_name(name, media_type)
    try:
        if not target.exists():
            target.parent.mkdir(mode=0o700, exist_ok=True)
            data = source.read_bytes()
            fd, part = tempfile.mkstemp(dir=target.parent, prefix=".part-")
            with os.fdopen(fd, "wb") as out:
                out.write(data)
            os.replace(part, target)
    except OSError as exc:
        raise AttachmentError("{name} could not be opened ({reason}).", code="cannot_open",
                              name=name, reason=exc.strerror or exc) from None
    return Done(target)


_OPENED: list[Path] = []  # this process's folder of copies, made on the first open


def _open_folder() -> Path:
    if not _OPENED:
        folder = Path(tempfile.mkdtemp(prefix="monet-open-"))  # (mode 0700)
        atexit.register(shutil.rmtree, folder, True)
        _OPENED.append(folder)
    return _OPENED[0]
