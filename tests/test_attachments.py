"""Pictures and documents with a message (issue 30): checked and prepared on arrival,
stored by content in the data folder, sent as the same blocks every request of the day,
and gone, bytes and all, when the message is deleted or forgotten."""

from __future__ import annotations

import io
import json
from collections.abc import Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from sqlmodel import col, select

from cms.attachments import LONG_EDGE, PDF, image_tokens, prepare, sniff
from cms.clock import ManualClock
from monet_app.services.wiring import Core, build_core, no_model
from storage import attachments as files
from storage.errors import AttachmentError, EmptyMessageError
from storage.models import Attachment, Message, MessageRole
from tests.helpers import blank_pdf

NOW = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)


def png(width: int, height: int, colour: tuple[int, int, int] = (200, 80, 40)) -> bytes:
    from PIL import Image

    out = io.BytesIO()
    Image.new("RGB", (width, height), colour).save(out, "PNG")
    return out.getvalue()


pdf = blank_pdf


@pytest.fixture
def core(tmp_path: Path):
    c = build_core(tmp_path / "home", clock=ManualClock(NOW), model_factory=no_model,
                   summarizer="offline")
    yield c
    c.close()


# ----- prepared on arrival ---------------------------------------------------------------
def test_kinds_are_read_from_the_bytes_not_the_name() -> None:
    assert sniff(png(4, 4)) == "image/png"
    assert sniff(pdf(1)) == PDF
    assert sniff("ただのテキストです\n".encode()) == "text/plain"
    assert sniff(b"PK\x03\x04\x00\x00binary") is None
    picture = prepare(png(4, 4), "menu.txt")  # a picture, whatever it is called
    assert picture.media_type == "image/png" and picture.kind == "image"


def test_a_large_picture_is_scaled_down_once_and_the_original_kept() -> None:
    big = png(3200, 2400)
    prepared = prepare(big, "receipt.png")
    assert prepared.original == big
    assert max(prepared.width, prepared.height) == LONG_EDGE
    assert prepared.sent != big and prepared.sent_sha256 != prepared.sha256
    assert prepared.tokens == image_tokens(prepared.width, prepared.height)
    small = prepare(png(800, 600), "small.png")
    assert small.sent == small.original and small.tokens == image_tokens(800, 600)


def test_unsupported_damaged_and_oversized_files_are_refused_in_words() -> None:
    with pytest.raises(AttachmentError) as unsupported:
        prepare(b"PK\x03\x04\x00\x00binary", "notes.zip")
    assert unsupported.value.code == "unsupported" and "notes.zip" in str(unsupported.value)
    with pytest.raises(AttachmentError) as damaged:
        prepare(png(300, 300)[:200], "cut.png")
    assert damaged.value.code == "damaged"
    with pytest.raises(AttachmentError) as bad_pdf:
        prepare(b"%PDF-1.4\nnot really a pdf", "school.pdf")
    assert bad_pdf.value.code == "damaged"
    with pytest.raises(AttachmentError) as empty:
        prepare(b"", "empty.png")
    assert empty.value.code == "damaged"
    with pytest.raises(AttachmentError) as long_text:
        prepare(b"a" * (1024 * 1024 + 1), "huge.txt")
    assert long_text.value.code == "too_large"


def test_a_pdf_counts_its_pages() -> None:
    prepared = prepare(pdf(3), "school.pdf")
    assert prepared.pages == 3 and prepared.kind == "pdf" and prepared.tokens > 0


# ----- stored, sent, forgotten -----------------------------------------------------------
def _user_blocks(core: Core) -> list[Mapping[str, Any]]:
    body = core.context.prepare_request().body
    user_turns = [m for m in body["messages"] if m["role"] == MessageRole.USER]
    return list(user_turns[0]["content"])


def test_attachments_are_stored_by_content_and_sent_before_the_words(core: Core) -> None:
    picture = prepare(png(3000, 2000), "menu.png")
    document = prepare(pdf(2), "school.pdf")
    message = core.context.commit_user_message("What does the menu say?", "chat",
                                               [picture, document])
    home = core.home
    for sha in (picture.sha256, picture.sent_sha256, document.sha256):
        assert files.path_of(home, sha).read_bytes() in (picture.original, picture.sent,
                                                         document.original)
    with core.db.session() as session:
        rows = session.exec(select(Attachment).order_by(col(Attachment.position))).all()
    assert [(r.message_id, r.name, r.sent_media_type) for r in rows] == [
        (message.id, "menu.png", "image/jpeg"), (message.id, "school.pdf", PDF)]
    blocks = _user_blocks(core)
    assert [b["type"] for b in blocks] == ["image", "document", "text"]
    import base64

    assert base64.b64decode(blocks[0]["source"]["data"]) == picture.sent
    assert message.token_estimate > picture.tokens + document.tokens


def test_every_later_request_of_the_day_carries_the_same_block_bytes(core: Core) -> None:
    core.context.commit_user_message("Look at this", "chat", [prepare(png(900, 700), "a.png")])
    first = json.dumps(_user_blocks(core), ensure_ascii=False)
    core.context.record_reply("A bright orange square.", "chat")
    core.context.commit_user_message("And the colour?", "chat")
    body = core.context.prepare_request().body
    again = json.dumps(body["messages"][0]["content"], ensure_ascii=False)
    assert again.replace(', "cache_control": {"type": "ephemeral"}', "") == first.replace(
        ', "cache_control": {"type": "ephemeral"}', "")


def test_a_message_with_only_a_picture_is_accepted(core: Core) -> None:
    message = core.context.commit_user_message("  ", "chat", [prepare(png(10, 10), "x.png")])
    assert message.id and message.text == ""
    with pytest.raises(EmptyMessageError):  # (still empty without one)
        core.context.commit_user_message("  ", "chat")


def test_deleting_or_forgetting_the_message_leaves_no_byte_of_it(core: Core) -> None:
    from cms.memory import forget

    kept = prepare(png(20, 20, (1, 2, 3)), "kept.png")
    gone = prepare(png(30, 30, (9, 9, 9)), "gone.png")
    hidden = prepare(pdf(1), "hidden.pdf")
    core.context.commit_user_message("keep", "chat", [kept])
    deleted = core.context.commit_user_message("delete", "chat", [gone])
    forgotten = core.context.commit_user_message("forget", "chat", [hidden])
    forget.delete_messages(core.db, [deleted.id], NOW)
    forget.hide_messages(core.db, [forgotten.id], NOW)
    home = core.home
    assert not files.path_of(home, gone.sha256).exists()
    assert not files.path_of(home, hidden.sha256).exists()
    assert files.path_of(home, kept.sha256).exists()
    for path in home.rglob("*"):  # no copy anywhere in the data folder
        if path.is_file():
            data = path.read_bytes()
            assert gone.original not in data and hidden.original not in data, path
    with core.db.session() as session:
        assert [r.name for r in session.exec(select(Attachment))] == ["kept.png"]
        assert session.get(Message, forgotten.id) is not None  # kept for the person


def test_an_exchange_set_aside_by_a_send_keeps_its_attachments(core: Core) -> None:
    """Edit and resend hides the old exchange until the new reply is stored: if that
    fails, it comes back whole, attachments included (no trigger acts on ``hidden``)."""
    from monet_app.operations import versions

    picture = prepare(png(12, 12), "keep-me.png")
    message = core.context.commit_user_message("what is this?", "chat", [picture])
    versions.set_aside(core, [message.id])
    versions.settle(core, replaced=False)
    with core.db.session() as session:
        assert [r.name for r in session.exec(select(Attachment))] == ["keep-me.png"]
    assert files.path_of(core.home, picture.sha256).exists()


# ----- replay: a trace turn may carry files ----------------------------------------------
def _request_bodies(log: Path) -> list[dict]:
    """The bodies of the requests a replay logged, in order."""
    return [record["body"] for record in map(json.loads, log.read_text("utf-8").splitlines())
            if record.get("kind") == "request"]


def _trace(folder: Path, lines: list[dict[str, object]]) -> Path:
    trace = folder / "trace.jsonl"
    trace.write_text("".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines),
                     "utf-8")
    return trace


def test_a_replay_carries_day_one_files_byte_for_byte_and_leaves_them_at_sunset(
        tmp_path: Path) -> None:
    from monet_app.services.replay import replay

    (tmp_path / "pics").mkdir()
    (tmp_path / "pics" / "menu.png").write_bytes(png(2400, 1800))
    (tmp_path / "pics" / "receipt.png").write_bytes(png(640, 480, (10, 200, 10)))
    (tmp_path / "school.pdf").write_bytes(pdf(2))
    trace = _trace(tmp_path, [
        {"ts": "2026-03-02T09:00:00+09:00", "tab": "chat", "user": "what is on this menu?",
         "assistant": "Noodles and rice.", "attachments": ["pics/menu.png", "school.pdf"]},
        {"ts": "2026-03-02T09:05:00+09:00", "tab": "chat", "user": "and this receipt?",
         "assistant": "Lunch for two.", "attachments": ["pics/receipt.png"]},
        {"ts": "2026-03-02T09:10:00+09:00", "tab": "chat", "user": "thanks",
         "assistant": "You're welcome."},
        {"ts": "2026-03-03T09:00:00+09:00", "tab": "chat", "user": "good morning",
         "assistant": "Morning!"},
    ])
    log = tmp_path / "requests.jsonl"
    replay(trace, tmp_path / "home", log, librarian=False, meaning=False)
    bodies = _request_bodies(log)
    assert len(bodies) == 4

    def first_user(body: dict) -> list[dict]:
        return [b for b in body["messages"][0]["content"] if b["type"] != "text"]

    blocks = [json.dumps(first_user(b), sort_keys=True) for b in bodies[:3]]
    assert blocks[0] == blocks[1] == blocks[2]  # day one: the same bytes every request
    assert [b["type"] for b in first_user(bodies[0])] == ["image", "document"]
    day_two = json.dumps(bodies[3]["messages"])
    assert '"image"' not in day_two and '"document"' not in day_two  # left at the sunset


def test_a_bad_attachment_is_refused_as_file_and_line_before_anything_is_written(
        tmp_path: Path) -> None:
    from monet_app.services.replay import replay
    from storage.errors import TraceError

    (tmp_path / "notes.zip").write_bytes(b"PK\x03\x04\x00\x00binary")
    trace = _trace(tmp_path, [
        {"ts": "2026-03-02T09:00:00+09:00", "tab": "chat", "user": "hi", "assistant": "hello"},
        {"ts": "2026-03-02T09:01:00+09:00", "tab": "chat", "user": "see", "assistant": "ok",
         "attachments": ["notes.zip"]},
        {"ts": "2026-03-02T09:02:00+09:00", "tab": "chat", "user": "and", "assistant": "ok",
         "attachments": ["missing.png"]},
    ])
    with pytest.raises(TraceError) as refused:
        replay(trace, tmp_path / "home", None, librarian=False, meaning=False)
    assert f"{trace}:2:" in str(refused.value) and "notes.zip" in str(refused.value)
    assert not (tmp_path / "home" / "monet.db").exists()


# ----- the whole round: export, backup and restore, forget --day --------------------------
@pytest.mark.heavy
@pytest.mark.sqlite_only  # (a restore replaces a folder's history; a server's, never)
def test_export_backup_restore_and_forget_round_trip_the_bytes(tmp_path: Path) -> None:
    import hashlib

    from monet_app.services.replay import replay
    from tests.helpers import run_monet

    picture, document = png(2200, 1400, (30, 60, 90)), pdf(2)
    (tmp_path / "menu.png").write_bytes(picture)
    (tmp_path / "school.pdf").write_bytes(document)
    trace = _trace(tmp_path, [
        {"ts": "2026-03-02T09:00:00+09:00", "tab": "chat", "user": "this menu and letter",
         "assistant": "Seen.", "attachments": ["menu.png", "school.pdf"]},
        {"ts": "2026-03-03T09:00:00+09:00", "tab": "chat", "user": "good morning",
         "assistant": "Morning!"},
    ])
    home = tmp_path / "home"
    replay(trace, home, None, librarian=False, meaning=False)
    exported = run_monet("export", home=home, check=True).stdout
    listed = [a for line in exported.splitlines() for a in json.loads(line).get("attachments", [])]
    assert [(a["name"], a["media_type"], a["size"]) for a in listed] == [
        ("menu.png", "image/png", len(picture)), ("school.pdf", PDF, len(document))]
    assert [a["sha256"] for a in listed] == [hashlib.sha256(picture).hexdigest(),
                                             hashlib.sha256(document).hexdigest()]
    out = tmp_path / "files"
    run_monet("export", "--attachments", out, home=home, check=True)
    assert sorted(hashlib.sha256(p.read_bytes()).hexdigest() for p in out.iterdir()) == \
        sorted(a["sha256"] for a in listed)
    run_monet("backup", home=home, check=True)  # into the data folder's backups/
    archive = next((home / "backups").glob("*.zip"))
    restored = tmp_path / "restored"
    run_monet("restore", archive, home=restored, check=True)
    for a in listed:
        assert hashlib.sha256((restored / "attachments" / a["sha256"]).read_bytes()
                              ).hexdigest() == a["sha256"]
    assert run_monet("export", home=restored, check=True).stdout == exported
    run_monet("forget", "--day", "2026-03-02", home=home, check=True)
    import zipfile

    for path in home.rglob("*"):
        if not path.is_file():
            continue
        data = path.read_bytes()
        if path.suffix == ".zip":
            with zipfile.ZipFile(path) as opened:
                data = b"".join(opened.read(n) for n in opened.namelist())
        assert picture not in data and document not in data, path


def test_the_timeline_index_line_names_the_files_it_folded(tmp_path: Path) -> None:
    from monet_app.services.replay import replay

    (tmp_path / "menu.png").write_bytes(png(300, 200))
    (tmp_path / "school.pdf").write_bytes(pdf(2))
    trace = _trace(tmp_path, [
        {"ts": "2026-03-02T09:00:00+09:00", "tab": "chat", "user": "what is on this menu?",
         "assistant": "Noodles and rice.", "attachments": ["menu.png", "school.pdf"]},
        {"ts": "2026-03-02T09:03:00+09:00", "tab": "chat", "user": "thanks",
         "assistant": "You're welcome."},
        {"ts": "2026-03-03T09:00:00+09:00", "tab": "chat", "user": "good morning",
         "assistant": "Morning!"},
    ])
    log = tmp_path / "requests.jsonl"
    replay(trace, tmp_path / "home", log, librarian=True, meaning=False)
    bodies = _request_bodies(log)
    system = " ".join(b["text"] for b in bodies[-1]["system"])
    assert "menu.png (picture, " in system and "school.pdf (PDF, 2 pages, " in system
    assert " KB)" in system  # name, kind and size, whichever summarizer wrote the line
    line = next(x for x in system.splitlines() if "menu.png" in x)
    assert "what is on this menu?" in line and line.count("[files:") == 1  # said once


def test_claude_can_look_at_a_past_file_again_and_the_database_keeps_no_bytes(
        core: Core) -> None:
    import base64

    from cms.context.tools import TOOLS, run_tool

    assert "view_attachment" in [t["name"] for t in TOOLS]
    picture = prepare(png(400, 300, (250, 250, 0)), "menu.png")
    core.context.commit_user_message("a menu", "chat", [picture])
    core.context.record_reply("Noodles.", "chat")
    asking = core.context.commit_user_message("what was on that menu again?", "chat")
    with core.db.session() as session:
        missing, error = run_tool(session, "view_attachment", {"name": "receipt.png"},
                                  asking.id)
        assert error and "menu.png" in str(missing)  # says what there is
        output, error = run_tool(session, "view_attachment", {"name": "MENU.png"}, asking.id)
    assert not error and isinstance(output, list)
    call = [{"type": "tool_use", "id": "toolu_1", "name": "view_attachment",
             "input": {"name": "MENU.png"}}]
    result = [{"type": "tool_result", "tool_use_id": "toolu_1", "content": output}]
    core.context.record_tool_round(call, result, "menu.png", "chat")  # type: ignore[arg-type]
    body = core.context.prepare_request().body
    tool_results: list[Mapping[str, Any]] = [b for m in body["messages"] for b in m["content"]
                                             if b.get("type") == "tool_result"]
    shown = tool_results[-1]["content"]
    assert shown[0]["type"] == "image"
    assert base64.b64decode(shown[0]["source"]["data"]) == picture.sent
    with core.db.session() as session:
        stored = session.exec(select(Message).where(Message.role == "tool")).one()
    assert '"data"' not in (stored.content_json or "") and len(stored.content_json or "") < 600


def test_the_persons_search_finds_a_file_by_its_name(core: Core) -> None:
    from monet_app.operations.search import search

    message = core.context.commit_user_message("look", "chat",
                                               [prepare(png(20, 20), "Kyoto-menu.png")])
    core.context.commit_user_message("a menu of another kind", "chat")
    hits = search(core, "kyoto-menu").value
    assert hits and hits[0].id == message.id
    assert search(core, "menu").value[0].id == message.id  # the file's name first


def test_the_claude_summarizer_looks_at_the_files_smaller(tmp_path: Path) -> None:
    """A fold's line is written by a model that saw the day's pictures (at most 768 px),
    a short PDF and a text's start; a long PDF is only named (real SDK, local server)."""
    import base64

    from PIL import Image

    from cms.librarian.runner import Librarian
    from cms.librarian.summarizer import FILES_NOTE, ClaudeSummarizer
    from cms.settings import Settings
    from monet_app.services.gateway import AnthropicModel, make_client
    from monet_app.services.standin_server import StandInServer
    from tests.helpers import World

    w = World(tmp_path / "home", Settings())
    w.at("2026-03-02T09:00:00+09:00")
    w.model.expect("The ramen is 950 yen.")
    w.runner.send("how much is the ramen here?", "chat", attachments=[
        prepare(png(2000, 1000), "menu.png"), prepare(pdf(2), "flyer.pdf"),
        prepare(pdf(9), "manual.pdf"), prepare(b"first line\nsecond", "notes.txt")])
    w.at("2026-03-03T09:00:00+09:00").turn("a new day")
    with StandInServer() as server:
        model = AnthropicModel(make_client("any-key", base_url=server.url, max_retries=0))
        assert Librarian(w.db, ClaudeSummarizer(model, "claude-haiku-4-5"),
                         w.clock).run_pass().written == 1
        model.close()
        sent = server.requests[-1]
    assert FILES_NOTE in sent["system"][0]["text"]
    content = sent["messages"][0]["content"]
    names = [b["text"] for b in content if b["type"] == "text"][:-1]
    assert names == ["[menu.png]", "[flyer.pdf]", "[notes.txt]"]  # manual.pdf: 9 pages
    [image] = [b for b in content if b["type"] == "image"]
    with Image.open(io.BytesIO(base64.b64decode(image["source"]["data"]))) as seen:
        assert seen.size == (768, 384)
    assert "how much is the ramen here?" in content[-1]["text"]
    assert "manual.pdf (PDF, 9 pages" in content[-1]["text"]  # named in the talk


def test_a_summary_the_api_refuses_with_files_is_asked_again_with_words_alone(
        tmp_path: Path) -> None:
    from cms.librarian.runner import Librarian
    from cms.librarian.summarizer import ClaudeSummarizer
    from cms.settings import Settings
    from monet_app.services.gateway import AnthropicModel, make_client
    from monet_app.services.standin_server import StandInServer
    from tests.helpers import World

    w = World(tmp_path / "home", Settings())
    w.at("2026-03-02T09:00:00+09:00")
    w.model.expect("A transparent logo.")
    w.runner.send("our logo", "chat", attachments=[prepare(png(1000, 1000), "logo.png")])
    w.at("2026-03-03T09:00:00+09:00").turn("a new day")
    with StandInServer() as server:
        server.failures.append({"status": 400, "type": "invalid_request_error",
                                "message": "Could not process image"})
        model = AnthropicModel(make_client("any-key", base_url=server.url, max_retries=0))
        report = Librarian(w.db, ClaudeSummarizer(model, "claude-haiku-4-5"),
                           w.clock).run_pass()
        model.close()
        with_files, words = server.requests[-2:]
    assert report.written == 1 and report.failed == 0
    assert [b["type"] for b in with_files["messages"][0]["content"]] == ["text", "image", "text"]
    assert [b["type"] for b in words["messages"][0]["content"]] == ["text"]
