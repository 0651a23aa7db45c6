"""Render MONET's icon from its source, ``assets/icons/monet.svg``:

    QT_QPA_PLATFORM=offscreen python assets/icons/render_icons.py

writes what the app ships (package data of ``ui``) and what the packagers use:

- ``ui/icons/monet.svg`` (a copy of the source) and ``ui/icons/monet-<N>.png`` for N in
  16, 32, 48, 64, 128, 256, 512: the window's icon and ``monet install-desktop``'s hicolor
  icons;
- ``assets/icons/monet.ico`` (Windows, 16 to 256 px) and ``assets/icons/monet.icns``
  (macOS, 16 to 512 px): PyInstaller's ``--icon`` (``packaging/monet.spec``). Both hold
  PNG images and are packed here by hand, so no Pillow is needed.

Run it after changing the SVG; ``tests/test_packaging.py`` checks the copies agree.
"""

from __future__ import annotations

import os
import shutil
import struct
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
SOURCE = HERE / "monet.svg"
RUNTIME = REPO / "ui" / "icons"
SIZES = (16, 32, 48, 64, 128, 256, 512)
#: ICNS element types holding PNG data, by pixel size.
ICNS_TYPES = {16: b"icp4", 32: b"icp5", 64: b"icp6", 128: b"ic07", 256: b"ic08", 512: b"ic09"}


def render(size: int) -> bytes:
    """The SVG drawn at ``size`` × ``size`` pixels, as PNG bytes."""
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QRectF, Qt
    from PySide6.QtGui import QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    renderer = QSvgRenderer(str(SOURCE))
    if not renderer.isValid():
        raise SystemExit(f"{SOURCE} is not a valid SVG")
    image = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
    renderer.render(painter, QRectF(0, 0, size, size))
    painter.end()
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "PNG")
    buffer.close()
    return bytes(data.data())


def ico(pngs: dict[int, bytes]) -> bytes:
    """A Windows icon whose images are PNGs (allowed since Windows Vista)."""
    sizes = [s for s in sorted(pngs) if s <= 256]
    header = struct.pack("<HHH", 0, 1, len(sizes))
    offset = len(header) + 16 * len(sizes)
    entries, blobs = b"", b""
    for size in sizes:
        blob = pngs[size]
        side = 0 if size == 256 else size  # 0 means 256 in the directory
        entries += struct.pack("<BBBBHHII", side, side, 0, 0, 1, 32, len(blob), offset)
        offset += len(blob)
        blobs += blob
    return header + entries + blobs


def icns(pngs: dict[int, bytes]) -> bytes:
    """A macOS icon: an ``icns`` header and one PNG element per size."""
    body = b"".join(
        kind + struct.pack(">I", 8 + len(pngs[size])) + pngs[size]
        for size, kind in ICNS_TYPES.items()
    )
    return b"icns" + struct.pack(">I", 8 + len(body)) + body


def main() -> int:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtGui import QGuiApplication

    app = QGuiApplication.instance() or QGuiApplication(sys.argv)
    pngs = {size: render(size) for size in SIZES}
    RUNTIME.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(SOURCE, RUNTIME / "monet.svg")
    for size, blob in pngs.items():
        (RUNTIME / f"monet-{size}.png").write_bytes(blob)
    (HERE / "monet.ico").write_bytes(ico(pngs))
    (HERE / "monet.icns").write_bytes(icns(pngs))
    del app
    written = [RUNTIME / "monet.svg", *(RUNTIME / f"monet-{s}.png" for s in SIZES),
               HERE / "monet.ico", HERE / "monet.icns"]
    for path in written:
        print(f"{path.relative_to(REPO)}  {path.stat().st_size:,} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
