"""``monet install-desktop [--dry-run]``: MONET in the Linux desktop's application menu.

Writes a desktop entry (freedesktop.org Desktop Entry Specification 1.4) to
``$XDG_DATA_HOME/applications/monet.desktop`` (``~/.local/share`` when XDG_DATA_HOME is
unset, empty or relative, as the XDG Base Directory Specification says) and the icon
under ``$XDG_DATA_HOME/icons/hicolor/``: ``<N>x<N>/apps/monet.png`` for each rendered size
and ``scalable/apps/monet.svg``. The icons are package data of ``ui`` (``ui/icons/``).

``Exec`` is the ``monet`` command actually running: a PyInstaller bundle's executable;
else the console script this process was started as; else the ``monet`` on PATH; else
this Python with ``-m monet_app.cli.main``. Paths are made absolute, not resolved through
symbolic links (``~/.local/bin/monet`` stays valid when what it points to is replaced).

No Qt is imported: it runs where the window could not start. Nothing outside the two
folders above is touched; running it again rewrites the same files.
"""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from storage.errors import InputError, NotLinuxError

#: Sizes of ``ui/icons/monet-<N>.png``, installed as hicolor ``<N>x<N>`` icons.
ICON_SIZES = (16, 32, 48, 64, 128, 256, 512)
APP_ID = "monet"


@dataclass(frozen=True)
class Planned:
    """One file install-desktop writes: where, and its bytes."""

    target: Path
    content: bytes
    what: str


def data_home(environ: Mapping[str, str] | None = None) -> Path:
    """``XDG_DATA_HOME`` if it is an absolute path, else ``~/.local/share``."""
    env: Mapping[str, str] = os.environ if environ is None else environ
    value = env.get("XDG_DATA_HOME", "")
    if value and os.path.isabs(value):
        return Path(value)
    return Path.home() / ".local" / "share"


def icons_dir() -> Path:
    """``ui/icons/`` (package data; found beside ``ui`` without importing Qt)."""
    from importlib.util import find_spec

    spec = find_spec("ui")
    assert spec is not None and spec.origin is not None
    return Path(spec.origin).parent / "icons"


def monet_command() -> list[str]:
    """The command that starts this MONET (see the module's docstring)."""
    if getattr(sys, "frozen", False):
        return [os.path.abspath(sys.executable)]
    started_as = Path(sys.argv[0]) if sys.argv and sys.argv[0] else None
    if started_as is not None and started_as.name.startswith("monet") \
            and started_as.suffix != ".py" and started_as.is_file():
        return [os.path.abspath(started_as)]
    on_path = shutil.which("monet")
    if on_path:
        return [os.path.abspath(on_path)]
    return [os.path.abspath(sys.executable), "-m", "monet_app.cli"]


def exec_quote(argument: str) -> str:
    """One argument of an ``Exec`` key: quoted when it holds a reserved character, with
    ``"``, `````, ``$`` and ``\\`` escaped inside the quotes; ``%`` doubled (a field code
    otherwise). The desktop file's own escape rule then doubles every backslash."""
    argument = argument.replace("%", "%%")
    reserved = set(" \t\n\"'\\><~|&;$*?#()`")
    if any(ch in reserved for ch in argument):
        inner = "".join("\\" + ch if ch in '"`$\\' else ch for ch in argument)
        argument = f'"{inner}"'
    return argument.replace("\\", "\\\\")


def desktop_entry(command: list[str]) -> str:
    """The text of ``monet.desktop``."""
    exec_line = " ".join(exec_quote(part) for part in command)
    lines = [
        "[Desktop Entry]",
        "Type=Application",
        "Version=1.4",
        "Name=MONET",
        "GenericName=Conversation with Claude",
        "GenericName[ja]=Claude との会話",
        "Comment=One continuous conversation with Claude per day",
        "Comment[ja]=Claude との会話を1日1本に",
        f"Exec={exec_line}",
        f"TryExec={exec_quote(command[0])}",
        f"Icon={APP_ID}",
        "Terminal=false",
        "Categories=Network;Chat;",
        "Keywords=Claude;AI;chat;conversation;diary;",
        "StartupNotify=true",
        "StartupWMClass=MONET",  # the window's class: Qt's application name
    ]
    return "\n".join(lines) + "\n"


def plan(environ: Mapping[str, str] | None = None, command: list[str] | None = None,
         source: Path | None = None) -> list[Planned]:
    """What install-desktop writes, in order: the icons, then the desktop entry (a menu
    that sees the entry finds its icon already there)."""
    base = data_home(environ)
    source = icons_dir() if source is None else source
    hicolor = base / "icons" / "hicolor"
    files = []
    for size in ICON_SIZES:
        png = source / f"monet-{size}.png"
        files.append(Planned(hicolor / f"{size}x{size}" / "apps" / f"{APP_ID}.png",
                             png.read_bytes(), f"the {size}×{size} icon"))
    files.append(Planned(hicolor / "scalable" / "apps" / f"{APP_ID}.svg",
                         (source / "monet.svg").read_bytes(), "the scalable icon"))
    entry = desktop_entry(monet_command() if command is None else command)
    files.append(Planned(base / "applications" / f"{APP_ID}.desktop",
                         entry.encode("utf-8"), "the menu entry"))
    return files


#: What to do on a system that has no desktop entries: macOS, Windows, any other.
NOT_LINUX_MACOS = (
    "monet install-desktop is for Linux desktops. On macOS, build MONET.app "
    "(packaging/README.md) and drag it to Applications, or start MONET with the "
    "monet command.")
NOT_LINUX_WINDOWS = (
    "monet install-desktop is for Linux desktops. On Windows, build the bundle "
    "(packaging/README.md) and pin dist\\monet\\monet.exe to Start (right-click, "
    "Pin to Start), or start MONET with the monet command.")
NOT_LINUX_OTHER = (
    "monet install-desktop is for Linux desktops (freedesktop.org menus); on this "
    "system, start MONET with the monet command.")


def install(dry_run: bool = False, *, platform: str | None = None,
            environ: Mapping[str, str] | None = None, command: list[str] | None = None,
            out: TextIO | None = None) -> int:
    """Write (or with ``dry_run`` only describe) the entry and the icons; prints plain
    sentences on ``out`` (stdout by default). Returns the exit code."""
    platform = sys.platform if platform is None else platform
    if platform == "darwin":
        raise NotLinuxError(NOT_LINUX_MACOS)
    if platform.startswith(("win", "cygwin", "msys")):
        raise NotLinuxError(NOT_LINUX_WINDOWS)
    if not platform.startswith(("linux", "freebsd", "openbsd", "netbsd")):
        raise NotLinuxError(NOT_LINUX_OTHER)
    stream = sys.stdout if out is None else out
    files = plan(environ, command)
    entry = files[-1]
    exec_value = next(line[5:] for line in entry.content.decode("utf-8").splitlines()
                      if line.startswith("Exec="))

    def say(text: str) -> None:
        print(text, file=stream)

    if dry_run:
        say("Nothing was written (--dry-run). Without --dry-run, install-desktop would write:")
    for planned in files:
        if dry_run:
            say(f"  {planned.what}: {planned.target}")
            continue
        try:
            planned.target.parent.mkdir(parents=True, exist_ok=True)
            planned.target.write_bytes(planned.content)
        except OSError as exc:
            raise InputError(
                "Could not write {target} ({reason}); nothing else "
                "was changed after it.", target=planned.target, reason=exc.strerror or exc) from exc
    if dry_run:
        say(f"The menu entry would start MONET with: {exec_value}")
        return 0
    icons = entry.target.parents[1] / "icons" / "hicolor"
    say(f"Wrote the menu entry {entry.target}; it starts MONET with: {exec_value}")
    say(f"Wrote the icon in {len(files) - 1} sizes under {icons} "
        f"(<size>/apps/{APP_ID}.png and scalable/apps/{APP_ID}.svg).")
    say("MONET is now in the application menu (some desktops show it after the next login). "
        "Run install-desktop again after moving MONET; to remove it, delete these files.")
    return 0
