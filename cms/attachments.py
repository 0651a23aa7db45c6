"""Pictures and documents shown to Claude with a message (issue 30).

A file is checked and prepared once, on arrival (``prepare``): its kind is read from its
first bytes (never from its name), a kind the Messages API does not read is refused, and
so is a file too large for it or damaged. A picture larger than what the API reads best
(``LONG_EDGE`` pixels on its long side, about 1.15 megapixels) is scaled down once; the
original is kept beside what is sent. What is sent is stored by its SHA-256 and turned
into the same content block, byte for byte, in every later request of the day
(``content_block``), so the prompt's prefix keeps hitting the cache.

Kinds: PNG, JPEG, GIF and WebP pictures (image blocks), PDF (a document block the API
reads page by page, text and pictures), and plain UTF-8 text (a text document block).

Token estimates (for the ceiling and the cost shown before sending a large one), as
Anthropic documents them: a picture costs about width × height / 750 tokens; a PDF page
about 1,500-3,000 tokens of text plus its page picture (``PDF_PAGE_TOKENS`` per page
here); a text file what the tokenizer counts.

Pillow and pypdf are imported with the first file, never at start-up.
"""

from __future__ import annotations

import base64
import hashlib
import io
import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from storage.errors import AttachmentError

IMAGE_KINDS = ("image/png", "image/jpeg", "image/gif", "image/webp")
PDF = "application/pdf"
TEXT = "text/plain"
#: The long side of a picture as the API reads it best; larger ones are scaled down once.
LONG_EDGE = 1568
#: The API's limits: a picture's bytes as sent, a PDF's bytes and pages.
MAX_IMAGE_BYTES = 5 * 1024 * 1024
MAX_PDF_BYTES = 32 * 1024 * 1024
MAX_PDF_PAGES = 100
#: What MONET takes at all: an original picture (scaled down before sending) and a text.
MAX_ORIGINAL_BYTES = 40 * 1024 * 1024
MAX_TEXT_BYTES = 1024 * 1024
#: The most of any file MONET reads to attach it (measured before reading:
#: ``storage.files.read_measured``).
MAX_READ_BYTES = max(MAX_ORIGINAL_BYTES, MAX_PDF_BYTES)
#: A PDF page's estimate: its text and its page picture.
PDF_PAGE_TOKENS = 2_300


@dataclass(frozen=True)
class Prepared:
    """A file ready to store and send: ``original`` as it came, ``sent`` what the API
    gets (the original unless a picture was scaled down), and what it costs."""

    name: str
    media_type: str  # of what is sent
    original: bytes
    sent: bytes
    width: int = 0
    height: int = 0
    pages: int = 0
    tokens: int = 0

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.original).hexdigest()

    @property
    def sent_sha256(self) -> str:
        return hashlib.sha256(self.sent).hexdigest()

    @property
    def kind(self) -> str:
        """"image", "pdf" or "text"."""
        return "image" if self.media_type in IMAGE_KINDS else (
            "pdf" if self.media_type == PDF else "text")


def sniff(data: bytes) -> str | None:
    """The kind of ``data`` from its first bytes; None for one MONET does not send."""
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "image/png"
    if data.startswith(b"\xff\xd8\xff"):
        return "image/jpeg"
    if data[:6] in (b"GIF87a", b"GIF89a"):
        return "image/gif"
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "image/webp"
    if data.lstrip()[:5] == b"%PDF-":
        return PDF
    if b"\x00" not in data[:8192]:
        try:
            data.decode("utf-8")
        except UnicodeDecodeError:
            return None
        return TEXT
    return None


def image_tokens(width: int, height: int) -> int:
    return math.ceil(width * height / 750)


def prepare(data: bytes, name: str) -> Prepared:
    """Check ``data`` (a file called ``name``) and make it ready to send; an
    ``AttachmentError`` says in a sentence why it cannot be."""
    name = name.strip() or "attachment"
    kind = sniff(data)
    if not data:
        raise AttachmentError("{name} is empty; nothing was attached.", code="damaged",
                              name=name)
    if kind is None:
        raise AttachmentError(
            "{name} is not a kind Claude can read here (pictures: PNG, JPEG, GIF, WebP; "
            "documents: PDF or plain text).", code="unsupported", name=name)
    if kind in IMAGE_KINDS:
        return _picture(data, name, kind)
    if kind == PDF:
        return _pdf(data, name)
    if len(data) > MAX_TEXT_BYTES:
        raise AttachmentError("{name} is larger than 1 MB of text; attach a shorter part.",
                              code="too_large", name=name)
    return Prepared(name, TEXT, data, data, tokens=math.ceil(len(data.decode("utf-8")) / 3))


def _picture(data: bytes, name: str, kind: str) -> Prepared:
    if len(data) > MAX_ORIGINAL_BYTES:
        raise AttachmentError("{name} is larger than 40 MB; nothing was attached.",
                              code="too_large", name=name)
    from PIL import Image, ImageOps, UnidentifiedImageError

    try:
        with Image.open(io.BytesIO(data)) as probe:
            probe.verify()  # a truncated or damaged file fails here
        opened = Image.open(io.BytesIO(data))
        opened.load()
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError) as exc:
        raise AttachmentError("{name} looks damaged and cannot be read ({exc}).", exc=exc,
                              code="damaged", name=name) from None
    width, height = opened.size
    if opened.getexif().get(0x0112, 1) in (5, 6, 7, 8):  # a photo turned by its EXIF tag
        width, height = height, width  # (the size as seen, as the transcript draws it)
    if max(width, height) <= LONG_EDGE and len(data) <= MAX_IMAGE_BYTES:
        return Prepared(name, kind, data, data, width, height,
                        tokens=image_tokens(width, height))
    image = ImageOps.exif_transpose(opened)  # (scaled as seen: the EXIF turn applied)
    image.thumbnail((LONG_EDGE, LONG_EDGE), Image.Resampling.LANCZOS)
    out = io.BytesIO()
    if kind == "image/jpeg" or image.mode not in ("RGBA", "LA", "P"):
        image.convert("RGB").save(out, "JPEG", quality=85, optimize=True)
        sent_kind = "image/jpeg"
    else:
        image.save(out, "PNG", optimize=True)
        sent_kind = "image/png"
    sent = out.getvalue()
    if len(sent) > MAX_IMAGE_BYTES:
        raise AttachmentError("{name} is still larger than 5 MB once scaled down.",
                              code="too_large", name=name)
    return Prepared(name, sent_kind, data, sent, image.width, image.height,
                    tokens=image_tokens(image.width, image.height))


def _pdf(data: bytes, name: str) -> Prepared:
    if len(data) > MAX_PDF_BYTES:
        raise AttachmentError("{name} is larger than 32 MB, the API's limit for a PDF.",
                              code="too_large", name=name)
    from pypdf import PdfReader
    from pypdf.errors import PdfReadError

    try:
        pages = len(PdfReader(io.BytesIO(data), strict=False).pages)
    except (PdfReadError, OSError, ValueError, KeyError, TypeError) as exc:
        raise AttachmentError("{name} looks damaged and cannot be read ({exc}).", exc=exc,
                              code="damaged", name=name) from None
    if pages == 0:
        raise AttachmentError("{name} has no pages.", code="damaged", name=name)
    if pages > MAX_PDF_PAGES:
        raise AttachmentError("{name} has {pages} pages; the API reads at most 100.", pages=pages,
                              code="too_large", name=name)
    return Prepared(name, PDF, data, data, pages=pages, tokens=pages * PDF_PAGE_TOKENS)


#: The suffix a viewer goes by, for each kind MONET keeps.
SUFFIXES = {"image/png": ".png", "image/jpeg": ".jpg", "image/gif": ".gif",
            "image/webp": ".webp", PDF: ".pdf", TEXT: ".txt"}
#: Longest file name most file systems take, in bytes.
MAX_NAME_BYTES = 255


def viewer_name(name: str, media_type: str) -> str:
    """``name`` made safe to open in the system's viewer: no folders, no control or
    format characters (U+202E would turn a shown name around), and ending in the suffix
    of what the bytes are (a text named ``notes.bat`` becomes ``notes.bat.txt``: opened
    as text, never run); cut to 255 bytes, the suffix kept."""
    import unicodedata

    base = "".join("_" if c in '/\\:*?"<>|' or unicodedata.category(c) in ("Cc", "Cf")
                   else c for c in name.rsplit("/", 1)[-1].rsplit("\\", 1)[-1])
    base = base.strip(". ") or "file"
    suffix = SUFFIXES.get(media_type, ".bin")
    if not base.lower().endswith(suffix) and not (
            suffix == ".jpg" and base.lower().endswith(".jpeg")):
        base += suffix
        stem = base[:-len(suffix)]
    else:
        stem, suffix = base[:len(base) - len(suffix)], base[len(base) - len(suffix):]
    while len((stem + suffix).encode("utf-8")) > MAX_NAME_BYTES:
        stem = stem[:-1]
    return stem + suffix


def _base64(sent: bytes) -> str:
    return base64.b64encode(sent).decode("ascii")


def content_block(media_type: str, sent: bytes, name: str) -> dict[str, Any]:
    """The API's block for what is sent: the same bytes give the same block every time
    (the prompt builds it once per file: ``cms.context.prompt._attachment_block``)."""
    if media_type in IMAGE_KINDS:
        return {"type": "image",
                "source": {"type": "base64", "media_type": media_type, "data": _base64(sent)}}
    if media_type == PDF:
        return {"type": "document", "title": name,
                "source": {"type": "base64", "media_type": PDF, "data": _base64(sent)}}
    return {"type": "document", "title": name,
            "source": {"type": "text", "media_type": TEXT, "data": sent.decode("utf-8")}}


#: What a summarizer is shown of a day's files: at most this many, each picture at most
#: ``GLANCE_EDGE`` pixels on its long side (about 790 tokens), a PDF of at most
#: ``GLANCE_PAGES`` pages, the start of a text. Enough to know what "this" was; a fold's
#: summary costs cents, not the files' full price again.
GLANCE_FILES = 4
GLANCE_EDGE = 768
GLANCE_PAGES = 4
GLANCE_TEXT = 4_000


def glance_block(media_type: str, sent: bytes, name: str) -> dict[str, Any] | None:
    """A smaller block of a file for the librarian's summarizer (None: not worth sending:
    a long PDF, a picture that no longer opens)."""
    if media_type in IMAGE_KINDS:
        from PIL import Image, UnidentifiedImageError

        try:
            with Image.open(io.BytesIO(sent)) as image:
                if max(image.size) <= GLANCE_EDGE:
                    return content_block(media_type, sent, name)
                image.thumbnail((GLANCE_EDGE, GLANCE_EDGE), Image.Resampling.LANCZOS)
                flat = Image.new("RGB", image.size, "white")  # (transparency on white)
                rgba = image.convert("RGBA")
                flat.paste(rgba, mask=rgba.getchannel("A"))
                out = io.BytesIO()
                flat.save(out, "JPEG", quality=80)
        except (UnidentifiedImageError, OSError, ValueError):
            return None
        return content_block("image/jpeg", out.getvalue(), name)
    if media_type == PDF:
        from pypdf import PdfReader
        from pypdf.errors import PdfReadError

        try:
            pages = len(PdfReader(io.BytesIO(sent), strict=False).pages)
        except (PdfReadError, OSError, ValueError, KeyError, TypeError):
            return None
        return content_block(PDF, sent, name) if pages <= GLANCE_PAGES else None
    text = sent.decode("utf-8", "replace")[:GLANCE_TEXT]
    return content_block(TEXT, text.encode("utf-8"), name)


def block_tokens(block: Any, count_text: Any) -> int | None:
    """What an image or document block costs as input, as the API counts it (a picture
    by its pixels, a PDF by its pages, a text document by its words through
    ``count_text``); None for any other block. Used by the cost estimates and the cache
    simulator, which would otherwise count the base64 as text."""
    kind = block.get("type") if hasattr(block, "get") else None
    source = block.get("source") if kind in ("image", "document") else None
    if not isinstance(source, dict):
        return None
    data = source.get("data")
    if not isinstance(data, str):
        return None
    if source.get("type") == "text":
        return int(count_text(data))
    return _base64_tokens(str(source.get("media_type", "")), data)


@lru_cache(maxsize=256)
def _base64_tokens(media_type: str, data: str) -> int:
    raw = base64.b64decode(data)
    if media_type in IMAGE_KINDS:
        from PIL import Image

        try:
            with Image.open(io.BytesIO(raw)) as image:  # (the header only)
                return image_tokens(*image.size)
        except (OSError, ValueError):
            return math.ceil(len(raw) / 750)
    if media_type == PDF:
        from pypdf import PdfReader

        try:
            return len(PdfReader(io.BytesIO(raw), strict=False).pages) * PDF_PAGE_TOKENS
        except Exception:  # noqa: BLE001 - an estimate: a damaged one by its size
            return math.ceil(len(raw) / 1000)
    return math.ceil(len(raw) / 4)
