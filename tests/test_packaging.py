"""An installable MONET: ``monet --version``, the files it reads at run time shipped as
package data, ``monet install-desktop``, the About box, ``monet --smoke``, and the wheel
working outside the checkout (slow: it builds and installs it)."""

from __future__ import annotations

import configparser
import fnmatch
import io
import os
import shutil
import struct
import subprocess
import sys
import tomllib
from importlib import metadata, resources
from pathlib import Path

import pytest

from monet_app.cli import install_desktop
from monet_app.cli.install_desktop import data_home, exec_quote
from storage.errors import NotLinuxError
from tests.conftest import REPO, TRACES
from tests.helpers import run_monet

PYPROJECT = tomllib.loads((REPO / "pyproject.toml").read_text("utf-8"))
PACKAGE_DATA: dict[str, list[str]] = PYPROJECT["tool"]["setuptools"]["package-data"]
ICON_SIZES = (16, 32, 48, 64, 128, 256, 512)

#: What MONET reads at run time from its own packages (not imported as modules).
RUNTIME_FILES = [
    ("ui", "i18n/monet_ja.qm"),
    ("ui", "icons/monet.svg"),
    *(("ui", f"icons/monet-{size}.png") for size in ICON_SIZES),
    ("monet_app", "demo/demo_trace.jsonl"),
    ("monet_app", "mixing/days.json"),
    ("cms", "system_prompt_default.txt"),
    ("storage", "migrations/env.py"),
    ("storage", "migrations/script.py.mako"),
    ("storage", "migrations/versions/0001_initial_schema.py"),
    ("storage", "schema.sql"),
]


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


# ----- --version ------------------------------------------------------------------------
def test_version_prints_the_installed_version(tmp_path: Path) -> None:
    done = run_monet("--version", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"monet {metadata.version('monet')}\n"
    assert not (tmp_path / "monet.log").exists()


# ----- package data -----------------------------------------------------------------------
@pytest.mark.parametrize(("package", "name"), RUNTIME_FILES)
def test_runtime_files_are_package_data(package: str, name: str) -> None:
    assert resources.files(package).joinpath(name).is_file(), f"{package}/{name} is missing"
    assert any(fnmatch.fnmatch(name, pattern) for pattern in PACKAGE_DATA[package]), \
        f"{package}/{name} exists but pyproject.toml's package-data does not ship it"


def test_every_migration_and_package_data_pattern_ships() -> None:
    from storage.database import MIGRATIONS_DIR

    for path in MIGRATIONS_DIR.rglob("*"):
        if path.is_file() and "__pycache__" not in path.parts:
            name = path.relative_to(MIGRATIONS_DIR.parent).as_posix()
            assert any(fnmatch.fnmatch(name, p) for p in PACKAGE_DATA["storage"]), name
    for package, patterns in PACKAGE_DATA.items():
        base = Path(str(resources.files(package)))
        for pattern in patterns:
            assert list(base.glob(pattern)), f"{package}: {pattern} matches nothing"


def test_the_translation_and_icon_load_from_the_ui_package(qtbot) -> None:
    from PySide6.QtCore import QCoreApplication
    from PySide6.QtWidgets import QApplication

    from ui import look

    app = QApplication.instance()
    assert isinstance(app, QApplication)
    assert look.I18N == Path(look.__file__).resolve().parent / "i18n"
    old = os.environ.get("MONET_LANG")
    os.environ["MONET_LANG"] = "ja"
    try:
        translator = look.install_translator(app)
        assert translator is not None
        assert QCoreApplication.translate("ComposePane", "Send") == "送信"
    finally:
        if translator is not None:
            app.removeTranslator(translator)
        if old is None:
            os.environ.pop("MONET_LANG")
        else:
            os.environ["MONET_LANG"] = old
    sizes = {(s.width(), s.height()) for s in look.app_icon().availableSizes()}
    assert sizes == {(n, n) for n in ICON_SIZES}


def test_the_shipped_icons_are_rendered_from_the_source() -> None:
    """``python assets/icons/render_icons.py`` after changing the SVG keeps these true."""
    icons = REPO / "ui" / "icons"
    assert (icons / "monet.svg").read_bytes() == (REPO / "assets/icons/monet.svg").read_bytes()
    for size in ICON_SIZES:
        assert png_size((icons / f"monet-{size}.png").read_bytes()) == (size, size)
    assert (REPO / "assets/icons/monet.ico").read_bytes()[:4] == b"\0\0\1\0"
    assert (REPO / "assets/icons/monet.icns").read_bytes()[:4] == b"icns"


# ----- install-desktop ------------------------------------------------------------------------
#: Keys of the Desktop Entry Specification (1.4 and 1.5) that an entry may carry.
DESKTOP_KEYS = {
    "Type", "Version", "Name", "GenericName", "NoDisplay", "Comment", "Icon", "Hidden",
    "OnlyShowIn", "NotShowIn", "DBusActivatable", "TryExec", "Exec", "Path", "Terminal",
    "Actions", "MimeType", "Categories", "Implements", "Keywords", "StartupNotify",
    "StartupWMClass", "URL", "PrefersNonDefaultGPU", "SingleMainWindow",
}


def read_entry(path: Path) -> dict[str, str]:
    parser = configparser.ConfigParser(interpolation=None, strict=True)
    parser.optionxform = str  # type: ignore[assignment,method-assign]  # keys are case-sensitive
    parser.read_string(path.read_text("utf-8"))
    assert parser.sections() == ["Desktop Entry"]
    return dict(parser["Desktop Entry"])


def test_install_desktop_writes_the_entry_and_hicolor_icons(tmp_path: Path) -> None:
    xdg = tmp_path / "xdg"
    out = io.StringIO()
    command = ["/opt/MONET app/bin/monet"]
    code = install_desktop.install(platform="linux", environ={"XDG_DATA_HOME": str(xdg)},
                                   command=command, out=out)
    assert code == 0
    entry_path = xdg / "applications" / "monet.desktop"
    entry = read_entry(entry_path)
    for key in entry:
        assert key.split("[")[0] in DESKTOP_KEYS, key
    assert entry["Type"] == "Application" and entry["Name"] == "MONET"
    assert entry["Exec"] == '"/opt/MONET app/bin/monet"'
    assert entry["Icon"] == "monet" and entry["Terminal"] == "false"
    assert entry["Categories"].endswith(";") and "Chat" in entry["Categories"].split(";")
    for size in ICON_SIZES:
        png = xdg / "icons" / "hicolor" / f"{size}x{size}" / "apps" / "monet.png"
        assert png_size(png.read_bytes()) == (size, size)
    assert (xdg / "icons/hicolor/scalable/apps/monet.svg").read_bytes().startswith(b"<?xml")
    if shutil.which("desktop-file-validate"):  # desktop-file-utils, where installed
        checked = subprocess.run(["desktop-file-validate", str(entry_path)],
                                 capture_output=True, text=True, check=False)
        assert checked.returncode == 0 and not checked.stdout.strip(), checked.stdout
    said = out.getvalue()
    assert str(entry_path) in said and '"/opt/MONET app/bin/monet"' in said
    assert str(xdg / "icons" / "hicolor") in said


def test_install_desktop_dry_run_writes_nothing_and_says_where(tmp_path: Path) -> None:
    out = io.StringIO()
    install_desktop.install(True, platform="linux", environ={"XDG_DATA_HOME": str(tmp_path)},
                            command=["/usr/bin/monet"], out=out)
    assert not any(tmp_path.iterdir())
    said = out.getvalue()
    assert "Nothing was written" in said
    assert str(tmp_path / "applications" / "monet.desktop") in said
    assert str(tmp_path / "icons/hicolor/16x16/apps/monet.png") in said


def test_install_desktop_command_runs_the_monet_that_is_running(tmp_path: Path) -> None:
    done = run_monet("install-desktop", env={"XDG_DATA_HOME": str(tmp_path)}, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "Wrote the menu entry" in done.stdout
    entry = read_entry(tmp_path / "applications" / "monet.desktop")
    program = entry["Exec"].split()[0].strip('"')
    assert Path(program).is_absolute() and Path(program).is_file()
    assert entry["TryExec"].strip('"') == program


def test_install_desktop_elsewhere_says_what_to_do_instead(tmp_path: Path) -> None:
    for platform, advice in (("darwin", "Applications"), ("win32", "Start")):
        with pytest.raises(NotLinuxError, match="Linux") as raised:
            install_desktop.install(platform=platform, environ={"XDG_DATA_HOME": str(tmp_path)})
        assert advice in str(raised.value)
    assert not any(tmp_path.iterdir())


def test_xdg_data_home_and_exec_quoting() -> None:
    assert data_home({"XDG_DATA_HOME": "/x/share"}) == Path("/x/share")
    assert data_home({"XDG_DATA_HOME": "relative"}) == Path.home() / ".local" / "share"
    assert data_home({}) == Path.home() / ".local" / "share"
    assert exec_quote("/usr/bin/monet") == "/usr/bin/monet"
    assert exec_quote("/a b/monet") == '"/a b/monet"'
    assert exec_quote("/a$b/100%") == '"/a\\\\$b/100%%"'


# ----- the About box -------------------------------------------------------------------
def test_about_shows_version_folder_and_schema_revision(qtbot, tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    from PySide6.QtCore import Qt, QUrl
    from PySide6.QtGui import QDesktopServices

    from storage import Database
    from ui.about_dialog import AboutDialog

    db = Database(tmp_path)
    revision = db.schema_revision()
    db.close()
    assert revision
    dialog = AboutDialog("1.2.3", str(tmp_path), revision)
    qtbot.addWidget(dialog)
    version = dialog.findChild(type(dialog.folder), "aboutVersion")
    assert version is not None and "1.2.3" in version.text()
    assert dialog.folder.text() == str(tmp_path)
    assert dialog.folder.textInteractionFlags() & Qt.TextInteractionFlag.TextSelectableByMouse
    assert dialog.revision.text() == revision
    opened: list[QUrl] = []

    def open_url(url: QUrl) -> bool:
        opened.append(url)
        return True

    monkeypatch.setattr(QDesktopServices, "openUrl", open_url)
    qtbot.mouseClick(dialog.open_button, Qt.MouseButton.LeftButton)
    assert [url.toLocalFile() for url in opened] == [str(tmp_path)]
    fresh = AboutDialog("1.2.3", str(tmp_path), None)
    qtbot.addWidget(fresh)
    assert fresh.revision.text() == "none (a new database)"


# ----- --smoke -------------------------------------------------------------------------------
@pytest.mark.heavy
def test_smoke_paints_the_window_and_exits(tmp_path: Path) -> None:
    done = run_monet("--smoke", "--home", str(tmp_path / "home"), cwd=tmp_path,
                     env={"QT_QPA_PLATFORM": "offscreen", "MONET_LANG": "ja"})
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("window painted in "), done.stdout
    assert "language ja, Send = 送信" in done.stdout
    assert (tmp_path / "home" / "monet.db").is_file()


def test_smoke_takes_no_command(tmp_path: Path) -> None:
    done = run_monet("--smoke", "timeline", "--home", str(tmp_path))
    assert done.returncode == 2 and "takes no command" in done.stderr


@pytest.mark.slow
def test_demo_smoke_opens_the_demo_and_removes_its_folder(tmp_path: Path) -> None:
    done = run_monet("--demo", "--smoke", cwd=tmp_path,
                     env={"QT_QPA_PLATFORM": "offscreen", "TMPDIR": str(tmp_path)})
    assert done.returncode == 0, done.stderr
    assert "window painted in " in done.stdout
    assert not list(tmp_path.glob("monet-demo-*"))  # the throwaway folder is gone


# ----- the wheel, outside the checkout ----------------------------------------------------------
@pytest.mark.slow
def test_the_wheel_works_installed_outside_the_checkout(tmp_path: Path) -> None:
    """The wheel built from a clean copy of the sources, installed (not editable) into a
    new virtual environment that borrows this one's dependencies (a path line, so this
    environment's editable MONET is not loaded), run from a folder outside the checkout.
    ``packaging/check_wheel.sh`` does the same with dependencies from the package index."""
    source = tmp_path / "source"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(REPO / name, source / name)
    for package in ("cms", "monet_app", "storage", "ui"):
        shutil.copytree(REPO / package, source / package,
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    wheels = tmp_path / "wheels"
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w",
                            str(wheels), str(source)], capture_output=True, text=True, check=False)
    assert built.returncode == 0, built.stderr
    [wheel] = wheels.glob("monet-*.whl")

    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    purelib = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                             capture_output=True, text=True, check=True).stdout.strip()
    here = next(p for p in sys.path if p.endswith("site-packages"))
    (Path(purelib) / "borrowed.pth").write_text(here + "\n")
    installed = subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install",
                                "-q", "--no-deps", "--no-index", str(wheel)],
                               capture_output=True, text=True, check=False)
    assert installed.returncode == 0, installed.stderr

    work = tmp_path / "elsewhere"
    work.mkdir()
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "MONET_LANG": "ja"}
    env.pop("PYTHONPATH", None)
    env.pop("MONET_HOME", None)

    def run(*args: str) -> str:
        done = subprocess.run([str(venv / "bin" / "monet"), *args], capture_output=True,
                              text=True, cwd=work, env=env, timeout=300, check=False)
        assert done.returncode == 0, done.stderr
        return done.stdout

    where = subprocess.run([str(python), "-c", "import monet_app, ui; print(monet_app.__file__)"],
                           capture_output=True, text=True, cwd=work, env=env, check=True)
    assert where.stdout.startswith(purelib), where.stdout  # not the checkout
    assert run("--version") == f"monet {PYPROJECT['project']['version']}\n"
    replayed = run("replay", str(TRACES / "synthetic-actions.jsonl"), "--home",
                   str(work / "wh"), "--request-log", str(work / "wl.jsonl"))
    assert "turns 60" in replayed
    assert "Send = 送信" in run("--smoke", "--home", str(work / "wh2"))
    assert "window painted" in run("--demo", "--smoke")
