"""Every error a person can meet has a key and its values (``storage/errors.py``), and
the window's Japanese catalog (``monet_app/window/error_words.py``) says each one.

The scan reads every module of ``cms``, ``storage`` and ``monet_app``: each call of a
``UserFacingError`` subclass (or of ``Phrase``), raised or returned, names its sentence
as a string literal, a module-level string constant, or an entry of a module-level table
of literals (``REFUSED_BY[work][running]``), never an f-string or a sentence built in
pieces, so the catalog can look it up."""

from __future__ import annotations

import ast
import inspect
import string
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

import cms.model.errors
import storage.errors
from monet_app.window.error_words import JA, say
from storage.errors import Phrase, UserFacingError

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("cms", "storage", "monet_app")


def _error_names() -> set[str]:
    found: set[str] = set()
    for module in (storage.errors, cms.model.errors):
        for name, value in vars(module).items():
            if inspect.isclass(value) and issubclass(value, UserFacingError):
                found.add(name)
    return found | {Phrase.__name__}


ERRORS = _error_names()


@dataclass(frozen=True)
class Site:
    where: str  # path:line
    error: str
    templates: tuple[str, ...]  # () when the sentence is not a literal


def _strings(node: ast.AST) -> Iterator[str]:
    """The string literals a table's values hold (its keys are ``Work`` members)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        yield node.value
    elif isinstance(node, ast.Dict):
        for value in node.values:
            yield from _strings(value)
    elif isinstance(node, ast.DictComp):
        yield from _strings(node.value)
    elif isinstance(node, ast.Constant | ast.Attribute | ast.Name):
        return
    else:
        raise AssertionError(f"not a table of literals: {ast.unparse(node)}")


def _constants(tree: ast.Module) -> tuple[dict[str, str], dict[str, tuple[str, ...]]]:
    """Module-level string constants, and module-level tables (dicts) of literals."""
    strings: dict[str, str] = {}
    tables: dict[str, tuple[str, ...]] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target, value = node.targets[0], node.value
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            target, value = node.target, node.value
        else:
            continue
        if not isinstance(target, ast.Name):
            continue
        if isinstance(value, ast.Constant) and isinstance(value.value, str):
            strings[target.id] = value.value
        elif isinstance(value, ast.Dict):
            try:
                tables[target.id] = tuple(_strings(value))
            except AssertionError:
                continue
    return strings, tables


def _called(node: ast.Call) -> str | None:
    func = node.func
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


def _sites() -> list[Site]:
    sites = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            tree = ast.parse(path.read_text("utf-8"))
            strings, tables = _constants(tree)
            for node in ast.walk(tree):
                if not isinstance(node, ast.Call) or _called(node) not in ERRORS:
                    continue
                where = f"{path.relative_to(ROOT)}:{node.lineno}"
                first = node.args[0] if node.args else None
                templates: tuple[str, ...] = ()
                if isinstance(first, ast.Constant) and isinstance(first.value, str):
                    templates = (first.value,)
                elif isinstance(first, ast.Name) and first.id in strings:
                    templates = (strings[first.id],)
                elif isinstance(first, ast.Subscript):
                    table = first
                    while isinstance(table, ast.Subscript):
                        table = table.value  # type: ignore[assignment]
                    if isinstance(table, ast.Name) and table.id in tables:
                        templates = tables[table.id]
                sites.append(Site(where, str(_called(node)), templates))
    return sites


SITES = _sites()


def _placeholders(template: str) -> set[str]:
    return {field for _, field, _, _ in string.Formatter().parse(template) if field is not None}


def test_the_scan_finds_the_errors() -> None:
    """(The scan itself: it finds the raise sites of every layer, and the names.)"""
    assert {"DatabaseError", "BackupError", "TraceError", "ModelError", "BusyError",
            "AttachmentError", "Phrase"} <= {site.error for site in SITES}
    assert len(SITES) > 150


def test_every_error_names_a_literal_template() -> None:
    """No f-string sentence, no sentence built in pieces or passed through a variable:
    the window could not look it up."""
    assert [f"{site.where} {site.error}" for site in SITES if not site.templates] == []


def test_every_template_has_its_japanese_with_the_same_placeholders() -> None:
    templates = {template for site in SITES for template in site.templates}
    missing = sorted(template for template in templates if template not in JA)
    assert missing == [], "no Japanese for:\n" + "\n".join(missing)
    differing = sorted(template for template in templates
                       if _placeholders(JA[template]) != _placeholders(template))
    assert differing == [], "other placeholders in the Japanese of:\n" + "\n".join(differing)


def test_the_catalog_holds_no_sentence_nothing_raises() -> None:
    """An English sentence changed at its raise leaves its old key behind: said here."""
    templates = {template for site in SITES for template in site.templates}
    assert sorted(set(JA) - templates) == []


def _sample(spec: str) -> object:
    return 1234.5 if any(c in spec for c in ",.fd") else "x"


def test_the_japanese_is_japanese_and_formats() -> None:
    """Each entry is written in Japanese (kana or kanji; but one made of its values only,
    as "{path}:{number}: {exc}") and formats with values of its specs' kinds."""
    for english, japanese in JA.items():
        words = "".join(literal for literal, _, _, _ in string.Formatter().parse(english))
        if any(ch.isalpha() for ch in words):
            assert any("\u3040" <= ch <= "\u30ff" or "\u4e00" <= ch <= "\u9fff"
                       for ch in japanese), english
        values = {field: _sample(spec or "") for _, field, spec, _
                  in string.Formatter().parse(japanese) if field is not None}
        assert japanese.format(**values)


def test_a_real_error_reads_in_japanese_and_in_english(tmp_path: Path) -> None:
    from storage import Database
    from storage.errors import DatabaseError

    home = tmp_path / "not-a-folder"
    home.write_text("a file", "utf-8")
    with pytest.raises(DatabaseError) as raised:
        Database(home)
    error = raised.value
    assert str(error) == (f"{home} is a file, not a folder, so it cannot be a MONET data "
                          "folder; nothing was written.")
    assert error.template == ("{home} is a file, not a folder, so it cannot be a MONET data "
                              "folder; nothing was written.")
    assert error.values == {"home": home}
    japanese = say(error, "ja")
    assert japanese.startswith(str(home)) and "データフォルダー" in japanese
    assert "nothing was written" not in japanese
    assert say(error, "en") == str(error)


def test_values_that_are_sentences_are_said_in_japanese_too() -> None:
    """A settings problem of several (``Phrases``), and an error inside another's
    sentence, follow the language; a sentence the catalog lacks stays English."""
    from cms.settings import Settings
    from storage.errors import KeyStoreError, SettingsError

    with pytest.raises(SettingsError) as raised:
        Settings(ceiling_tokens=0, theme="pink")  # type: ignore[arg-type]
    error = raised.value
    assert str(error) == ("Invalid settings: the token ceiling must be above 0 (got 0); the "
                          "appearance must be system, light or dark (got 'pink').")
    japanese = say(error, "ja")
    assert "'pink'" in japanese and "トークン上限" in japanese and "got" not in japanese
    inner = KeyStoreError("The OS keyring refused to store the password ({kind}); nothing "
                          "was stored.", kind="LockedError")
    outer = KeyStoreError(
        "The history was copied to {where} and checked, but this device was not switched to "
        "it: {exc} Keep the password with `monet server-password --database-url "
        "{device_url}` or in ~/.pgpass, then name {device_url} in device.json.",
        where="db.example", exc=inner, device_url="postgresql://me@db.example/monet")
    assert "The OS keyring refused" in str(outer)
    assert "LockedError" in say(outer, "ja") and "refused" not in say(outer, "ja")
    unknown = UserFacingError("A sentence no catalog has ({n}).", n=3)
    assert say(unknown, "ja") == str(unknown) == "A sentence no catalog has (3)."


def test_the_window_says_errors_in_its_language(qtbot, monkeypatch) -> None:
    """``Words.problem``: Japanese once MONET's Japanese is installed, English without."""
    from PySide6.QtWidgets import QApplication

    from monet_app.window.words import Words
    from storage.errors import BackupError, BusyError
    from ui.look import install_translator

    error = BackupError("{archive} does not exist or is not a file.", archive="old.zip")
    words = Words()
    assert words.language() == "en"
    assert words.problem(error) == "old.zip does not exist or is not a file."
    monkeypatch.setenv("MONET_LANG", "ja")
    app = QApplication.instance()
    translator = install_translator(app)  # type: ignore[arg-type]
    try:
        assert translator is not None
        assert words.language() == "ja"
        assert words.problem(error) == say(error, "ja") != str(error)
        assert words.problem(error).startswith("old.zip")
        busy = BusyError("A backup is already being made.", requested="backup",
                         running="backup")
        assert words.problem(busy) == JA["A backup is already being made."]
    finally:
        app.removeTranslator(translator)  # type: ignore[union-attr, arg-type]
    assert words.language() == "en"
