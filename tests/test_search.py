"""Search across all days, for Japanese too, and Claude's history tools."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from sqlmodel import select

from cms.context.tools import find, read_day, run_tool
from cms.settings import Settings
from storage import fts
from storage.models import Message
from storage.talk import day_thread_id
from tests.helpers import World, run_monet


def seeded(tmp_path: Path) -> World:
    w = World(tmp_path / "home", Settings())
    w.at("2026-03-01T10:00:00+09:00").turn("京都の嵐山で竹林を歩きました", tab="social")
    w.at("2026-03-02T10:00:00+09:00").turn("Biscuit the dog loves the beach", tab="chat")
    w.at("2026-03-03T10:00:00+09:00").turn("来週は京都旅行の予定です", tab="work", reply="楽しみですね")
    return w


def texts(found: list[fts.SearchHit]) -> list[str]:
    return [m.text for m in found]


def test_japanese_substrings_and_short_words_are_found(tmp_path: Path) -> None:
    w = seeded(tmp_path)
    with w.db.session() as session:
        assert texts(find(session, "京都旅行", 50)) == ["来週は京都旅行の予定です"]
        assert texts(find(session, "京都", 50)) == [  # two characters: a plain scan
            "来週は京都旅行の予定です", "京都の嵐山で竹林を歩きました"]
        assert texts(find(session, "嵐山 竹林", 50)) == ["京都の嵐山で竹林を歩きました"]
        assert texts(find(session, "biscuit", 50)) == ["Biscuit the dog loves the beach"]
        assert find(session, "存在しない言葉", 50) == []
        assert find(session, '"; DROP TABLE message; --', 50) == []


def test_a_deleted_message_leaves_the_index(tmp_path: Path) -> None:
    w = seeded(tmp_path)
    with w.db.session() as session:
        target = session.exec(select(Message).where(Message.text == "京都の嵐山で竹林を歩きました")).one()
        session.delete(target)
    with w.db.session() as session:
        assert find(session, "嵐山で竹林", 50) == []


def test_search_history_and_read_day_quote_the_database(tmp_path: Path) -> None:
    w = seeded(tmp_path)
    with w.db.session() as session:
        out, error = run_tool(session, "search_history", {"query": "京都旅行はいつ？"}, None)
        assert not error and isinstance(out, str)
        hits = json.loads(out)["results"]
        assert hits[0]["text"] == "来週は京都旅行の予定です" and hits[0]["day"] == "2026-03-03"
        day = read_day(session, "2026-03-01")
        assert [m["text"] for m in day["messages"]] == ["京都の嵐山で竹林を歩きました", "ok"]
        out, error = run_tool(session, "read_day", {"day": "March"}, None)
        assert error
        out, _ = run_tool(session, "read_day", {"day": "2020-01-01"}, None)
        assert isinstance(out, str) and json.loads(out)["note"]


def test_read_day_as_a_tool_turn_folds_with_the_day(tmp_path: Path) -> None:
    from cms.model.protocol import Completed, TextDelta, ToolCall, Usage

    class AsksForADay:
        usage_source = "standin"

        def __init__(self) -> None:
            self.calls = 0

        def close(self) -> None:
            pass

        def stream(self, body):
            self.calls += 1
            if self.calls == 1:
                call = ToolCall("toolu_1", "read_day", {"day": "2026-03-01"})
                yield call
                yield Completed("tool_use", Usage(), [
                    {"type": "tool_use", "id": "toolu_1", "name": "read_day", "input": call.input}])
            else:
                yield TextDelta("三月一日は嵐山でした。")
                yield Completed("end_turn", Usage(), [{"type": "text", "text": "三月一日は嵐山でした。"}])

    w = seeded(tmp_path)
    w.runner.model = AsksForADay()
    w.at("2026-03-03T11:00:00+09:00")
    result = w.runner.send("三月一日は何をした？", "chat")
    assert result.requests == 2 and result.reply.text == "三月一日は嵐山でした。"  # type: ignore[union-attr]
    w.runner.model = w.model
    body = w.at("2026-03-04T09:00:00+09:00").turn("翌日")  # sunset: the tool turn folds away
    assert "tool_result" not in json.dumps(body["messages"])


@pytest.mark.slow
def test_monet_search_command(tmp_path: Path) -> None:
    seeded(tmp_path).close()
    done = run_monet("search", "京都旅行", "--json", home=tmp_path / "home", timeout=120)
    assert done.returncode == 0, done.stderr
    rows = json.loads(done.stdout)
    assert rows[0]["text"] == "来週は京都旅行の予定です" and rows[0]["day"] == "2026-03-03"


def test_ctrl_f_finds_and_opens_the_message_even_offline(qtbot, tmp_path: Path) -> None:
    from cms.model.errors import MissingKeyError
    from monet_app.window.app import AppController

    seeded(tmp_path).close()

    def no_model(settings: Settings):
        raise MissingKeyError("No Anthropic API key.")

    c = AppController(tmp_path / "home", model_factory=no_model)
    qtbot.addWidget(c.window)
    c.window.show()
    try:
        c.window.activateWindow()
        qtbot.waitUntil(lambda: c.window.compose.field.hasFocus(), timeout=3000)
        qtbot.keyClick(c.window.compose.field, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
        qtbot.waitUntil(lambda: c.window.recall.search_box.hasFocus(), timeout=3000)
        c.window.recall.search_box.setText("嵐山")
        qtbot.keyClick(c.window.recall.search_box, Qt.Key.Key_Return)
        qtbot.waitUntil(lambda: c.window.recall.search_results.count() > 0, timeout=5000)
        item = c.window.recall.search_results.item(0)
        assert "嵐山" in item.text() and "2026-03-01" in item.text()
        c.window.recall.search_results.itemClicked.emit(item)
        assert c.nav.view_day == "2026-03-01" and c.nav.tab == "social"
        current = c.window.transcript.model.rows[c.window.transcript.view.currentIndex().row()]
        assert current.text == "京都の嵐山で竹林を歩きました"
        c.window.recall.search_box.clear()
        assert c.window.recall.timeline_list.isVisible()
    finally:
        c.close()


def test_short_non_ascii_terms_keep_their_case(tmp_path: Path) -> None:
    w = World(tmp_path / "home", Settings())
    w.at("2026-03-01T10:00:00+09:00").turn("Émile est venu")
    with w.db.session() as session:
        assert texts(find(session, "Ém", 50)) == ["Émile est venu"]
        assert texts(find(session, "émile est", 50)) == ["Émile est venu"]  # trigram folds case
        assert texts(find(session, "EST", 50)) == ["Émile est venu"]  # ASCII: any case


def test_the_trigram_index_folds_every_letter_and_counts_overlaps(tmp_path: Path) -> None:
    """FTS5's trigram index folds É, Σ as Python's lower does (on PostgreSQL too: ICU's
    fold, whatever the database's locale), and counts overlapping occurrences ("aaa" twice
    in "aaaa"), which rank the message with more of them first."""
    w = World(tmp_path / "home", Settings())
    w.at("2026-03-01T10:00:00+09:00").turn("L'ÉCOLE de ΣΟΦΊΑ", reply="ok")
    w.later(60).turn("aaaa then nothing", reply="ok")
    w.later(60).turn("aaa once, and other words to make it longer", reply="ok")
    with w.db.session() as session:
        assert texts(find(session, "école", 50)) == ["L'ÉCOLE de ΣΟΦΊΑ"]
        assert texts(find(session, "σοφία", 50)) == ["L'ÉCOLE de ΣΟΦΊΑ"]
        assert texts(fts.search_any(session, ["aaa"], 5)) == [
            "aaaa then nothing", "aaa once, and other words to make it longer"]


def test_search_history_ranks_by_bm25_not_by_recency(tmp_path: Path) -> None:
    """"How many bikes do I own?": the message about bikes ranks above newer messages that
    only share a common word; a plural in the question finds the singular too."""
    from cms.context.tools import search_history

    w = World(tmp_path / "home", Settings())
    w.at("2026-03-01T10:00:00+09:00").turn("I bought a road bike and a mountain bike, plus my old commuter bike")
    for i in range(8):
        w.later(60).turn(f"Do you own a copy of that book number {i}? I own many books")
    with w.db.session() as session:
        hits = search_history(session, "How many bikes do I own?", 5)["results"]
    assert hits[0]["text"].startswith("I bought a road bike")


def test_short_terms_are_found_by_the_scan_when_the_index_cannot(tmp_path: Path) -> None:
    from cms.context.tools import search_history

    w = seeded(tmp_path)
    w.at("2026-03-04T10:00:00+09:00").turn("新しい車を買いました")
    with w.db.session() as session:
        hits = search_history(session, "車", 5)["results"]
        assert [h["text"] for h in hits] == ["新しい車を買いました"]
        assert search_history(session, "存在しない言葉", 5)["results"] == []


def test_the_recall_benchmark_runs_on_a_longmemeval_shaped_history() -> None:
    import importlib.util

    from tests.conftest import REPO

    spec = importlib.util.spec_from_file_location("recall", REPO / "benchmarks" / "recall.py")
    assert spec and spec.loader
    bench = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = bench  # (its dataclasses look their module up)
    spec.loader.exec_module(bench)
    history = {
        "question": "How many bikes do I own?", "question_type": "multi-session",
        "answer_session_ids": ["s2"], "haystack_session_ids": ["s1", "s2"],
        "haystack_dates": ["2023/05/01 (Mon) 10:00", "2023/05/03 (Wed) 18:30"],
        "haystack_sessions": [
            [{"role": "user", "content": f"Do you own cookbook number {i}? I own several."}
             for i in range(6)] + [{"role": "assistant", "content": "I do not own books."}],
            [{"role": "user", "content": "I now have three bikes: road, gravel and city.",
              "has_answer": True},
             {"role": "assistant", "content": "Three bikes, nice."}],
        ],
    }
    result = bench.run_history(history, 2)
    assert result["monet_turn"] and result["monet_session"] and result["has_turn_evidence"]


def test_a_long_message_is_quoted_around_the_match(tmp_path: Path) -> None:
    from cms.context.tools import search_history

    w = World(tmp_path / "home", Settings())
    long_text = "filler words here. " * 80 + "My bike lock has GPS tracking." + " more filler." * 80
    w.at("2026-03-01T10:00:00+09:00").turn(long_text)
    with w.db.session() as session:
        hit = search_history(session, "Which bike lock did I buy?", 5)["results"][0]
    assert "GPS tracking" in hit["text"] and hit["text"].startswith("…")
    assert len(hit["text"]) <= 602 and hit["role"] == "user" and hit["day"] == "2026-03-01"


def test_the_likely_speakers_words_come_first(tmp_path: Path) -> None:
    """"How many bikes do I own?" is answered by what the person said, even when Claude's
    replies use the same words more often; "what did you recommend" by Claude's."""
    from cms.context.tools import query_terms, recall, speaker_of
    from storage.models import MessageRole

    w = World(tmp_path / "home", Settings())
    for n in range(1, 31):  # other talk, so that the words' rarity means something
        w.at(f"2026-02-01T10:{n:02d}:00+09:00").turn(f"Let us plan dinner {n} with pasta",
                                                      reply="Sounds tasty, add some basil.")
    w.at("2026-03-01T10:00:00+09:00").turn(
        "I own three bikes and ride the road bike most weekends, bikes are my thing.",
        reply="Nice! Three bikes is a good collection.")
    for day in range(2, 8):
        w.at(f"2026-03-0{day}T10:00:00+09:00").turn(
            f"Any tips for day {day}?",
            reply="For the bikes you own: check bike tyres, oil the bike chain.")
    assert speaker_of("How many bikes do I own?") == MessageRole.USER
    assert speaker_of("Can you remind me which bike shop you recommended?") == MessageRole.ASSISTANT
    assert speaker_of("bike tyres") is None
    with w.db.session() as session:
        plain = fts.search_any(session, query_terms("How many bikes do I own?"), 1)
        assert plain[0].role == MessageRole.ASSISTANT  # without a preferred speaker
        [first] = recall(session, "How many bikes do I own?", 1)
        assert first.role == MessageRole.USER and "three bikes" in first.text
        [first] = recall(session, "what did you say about the bike chain?", 1)
        assert first.role == MessageRole.ASSISTANT


def test_text_after_a_nul_is_searchable(tmp_path: Path) -> None:
    w = World(tmp_path / "home", Settings())
    w.at("2026-03-01T10:00:00+09:00").turn("before\x00after the nul: zeppelin")
    with w.db.session() as session:
        [hit] = find(session, "zeppelin", 5)
    assert hit.text == "before\ufffdafter the nul: zeppelin"


@pytest.mark.sqlite_only
def test_two_character_terms_through_the_index_find_what_the_scan_finds(tmp_path: Path) -> None:
    """A rare two-character term (盆栽, "AI") goes through the trigram index (migration
    0010) instead of reading every message; it finds the same messages as LIKE, at the
    start, in the middle and at the very end of a text, in any ASCII case."""
    from sqlalchemy import text as sql_text

    w = World(tmp_path / "home", Settings())
    w.at("2026-03-01T10:00:00+09:00").turn("盆栽を始めました", tab="chat")
    w.later(60).turn("趣味は盆栽", tab="chat")  # at the very end: no trigram starts with it
    w.later(60).turn("An AI model, they said", tab="research")
    w.later(60).turn("ends with ai", tab="research")
    w.later(60).turn("nothing here", tab="chat")
    with w.db.session() as session:
        for term in ("盆栽", "AI", "ai", "栽"):
            through_index = set(fts._short_term_ids(session, term, {}, "", True))
            like = {row[0] for row in session.connection().execute(
                sql_text("SELECT id FROM message WHERE text LIKE :t ESCAPE '\\'"),
                {"t": fts._like(term)})}
            assert through_index == like and like, term
        assert texts(find(session, "盆栽", 50)) == ["趣味は盆栽", "盆栽を始めました"]


@pytest.mark.parametrize("slack", [100, 0])
@pytest.mark.sqlite_only
def test_the_index_ranks_alone_and_the_filter_keeps_the_same_best(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, slack: int) -> None:
    """The index ranks its matches by itself and only those are checked against the
    filter (speaker, forgotten, paging). The best ones are the joined query's, also when
    the filter leaves out the index's best (tool rows, forgotten messages) and the scan
    must give way to the joined query (``slack`` 0)."""
    from storage.models import MessageRole

    monkeypatch.setattr(fts, "SCAN_SLACK", slack)
    w = World(tmp_path / "home", Settings())
    w.at("2026-03-01T10:00:00+09:00")
    with w.db.session() as session:
        thread = day_thread_id(session, "2026-03-01", "2026-03-01T10:00:00+09:00")
        for i in range(60):
            words = " ".join(["ラーメン"] * (1 + i % 7)) + f" 店 {i}" + " 話" * (i % 5)
            role = [MessageRole.USER, MessageRole.ASSISTANT, MessageRole.TOOL][i % 3]
            session.add(Message(thread_id=thread, day="2026-03-01", tab="chat", tab_label="chat",
                                role=role, text=words, ts=f"2026-03-01T10:{i:02d}:00+09:00",
                                token_estimate=len(words), hidden=i % 4 == 0))
    with w.db.session() as session:
        conn = session.connection()
        for include_hidden, before in ((False, None), (True, None), (False, 40)):
            hidden = "" if include_hidden else "AND m.hidden = 0"
            paged = "" if before is None else f"AND m.id < {before}"
            expected = [row[0] for row in conn.exec_driver_sql(
                "SELECT m.id FROM message m JOIN message_fts ON message_fts.rowid = m.id "
                "AND message_fts MATCH '\"ラーメン\"' WHERE m.role IN ('user', 'assistant') "
                f"{hidden} {paged} ORDER BY bm25(message_fts), m.id DESC LIMIT 10")]
            found = fts.search_any(session, ["ラーメン"], 10, before_id=before,
                                   include_hidden=include_hidden)
            assert [m.id for m in found] == expected and len(expected) == 10
    w.close()


def test_question_words_do_not_outrank_what_is_asked_about(tmp_path: Path) -> None:
    """'interesting', 'recently' and 'ideas' matched more messages than 'high school' did;
    two content words side by side weigh as a phrase; a word in kana alone is looked for."""
    from cms.context.tools import recall

    w = World(tmp_path / "home", Settings())
    w.at("2026-03-02T09:00:00+09:00")
    for n in range(6):
        w.later().turn(f"Recently I read an interesting article, idea number {n}, good stuff.")
    w.later().turn("My high school reunion is in June, at the old gym.")
    w.later().turn("The school bus was late; high winds all day.")
    w.later().turn("Interesting ideas lately: a school of fish, a high tide.")
    w.later().turn("夏はいつもそうめんを食べてた")
    with w.db.session() as session:
        found = recall(session, "Any interesting ideas about my high school lately?", 3)
        assert found[0].text.startswith("My high school reunion")
        assert [h.text for h in recall(session, "夏 そうめん", 1)] == ["夏はいつもそうめんを食べてた"]


@pytest.mark.sqlite_only
def test_a_two_character_word_weighs_in_the_ranking(tmp_path: Path) -> None:
    """Most Japanese words are two characters (温泉, 解消), which the trigram index cannot
    hold: they only filled the places left after the ranked matches. They now rank, through
    the index's trigrams that start with them."""
    from cms.context.tools import recall

    w = World(tmp_path / "home", Settings())
    w.at("2026-03-02T09:00:00+09:00")
    for n in range(8):
        w.later().turn(f"ストレスの多い一週間だった、その{n}")
    w.later().turn("週末は箱根で温泉に行ってきた")
    with w.db.session() as session:
        found = recall(session, "ストレス発散の温泉ってどこだっけ", 1)
    assert [h.text for h in found] == ["週末は箱根で温泉に行ってきた"]
    with w.db.transaction() as tx:  # a database without the pair index: the trigrams
        raw = tx.connection()
        raw.exec_driver_sql("DROP TRIGGER message_grams_ai")
        raw.exec_driver_sql("DROP TABLE message_grams")
    with w.db.session() as session:
        assert not fts.has_grams(session)
        found = recall(session, "ストレス発散の温泉ってどこだっけ", 1)
    assert [h.text for h in found] == ["週末は箱根で温泉に行ってきた"]


def test_the_pairs_of_a_text() -> None:
    """Japanese runs as overlapping pairs (a title in hiragana only too), ASCII words
    whole, after NFKC and lowering; punctuation and spaces cut runs."""
    assert fts.gram_tokens("ごくせん見た？") == ["ごく", "くせ", "せん", "ん見", "見た"]
    assert fts.gram_tokens("ｉＰｈｏｎｅ１５を買った、猫") == [
        "iphone15", "を買", "買っ", "った", "猫"]
    assert fts.gram_tokens("Ｈｉ! 々ー") == ["hi", "々ー"]
    assert fts.gram_tokens("") == []


def test_a_japanese_question_is_ranked_by_the_pairs_it_shares(tmp_path: Path) -> None:
    """A question in other words than the message's still shares character pairs with it:
    BM25 over pairs ranks the message that shares the rare ones first, a word of one
    character finds the pairs it starts, and the likely speaker's words come first."""
    from cms.context.tools import recall

    w = World(tmp_path / "home", Settings())
    w.at("2026-03-02T09:00:00+09:00")
    for n in range(6):
        w.later().turn(f"今日は仕事が忙しかった、その{n}", reply="お疲れさまです")
    w.later().turn("昔ごくせんの再放送をよく見てた", reply="仲間由紀恵さんのドラマですね")
    w.later().turn("帰省のためにチャイルドシートをレンタルした", reply="準備万端ですね")
    w.later().turn("車 買い替えたい")
    with w.db.session() as session:
        assert recall(session, "ごくせんって何の話だっけ", 1)[0].text == "昔ごくせんの再放送をよく見てた"
        assert recall(session, "子どもの座席、チャイルドシート借りた話", 1)[0].text == (
            "帰省のためにチャイルドシートをレンタルした")
        assert recall(session, "ドラマのこと教えてくれた？", 1)[0].text == "仲間由紀恵さんのドラマですね"
        assert recall(session, "車", 1)[0].text == "車 買い替えたい"
        assert fts.search_grams(session, "？！", 5) == []


def _pair_rows(w: World, pair: str) -> list[int]:
    with w.db.transaction() as tx:
        raw = tx.connection()
        return [row[0] for row in raw.exec_driver_sql(
            "SELECT rowid FROM message_grams WHERE message_grams MATCH ?", (f'"{pair}"',))]


@pytest.mark.sqlite_only
def test_the_pair_index_follows_edits_deletes_and_damaged_rows(tmp_path: Path) -> None:
    """The index is contentless: its triggers hand it a row's pairs when it is written,
    changed or deleted, so a deleted or changed message leaves no pair behind, and a row
    that is not UTF-8 (a damaged page) is written and deleted without an error."""
    w = seeded(tmp_path)
    [kyoto] = _pair_rows(w, "嵐山")
    with w.db.transaction() as tx:
        raw = tx.connection()
        raw.exec_driver_sql("UPDATE message SET text = '奈良の鹿' WHERE id = ?", (kyoto,))
    assert _pair_rows(w, "嵐山") == [] and _pair_rows(w, "奈良") == [kyoto]
    with w.db.transaction() as tx:
        raw = tx.connection()
        raw.exec_driver_sql(
            "UPDATE message SET text = CAST(X'80FFE4BDA0E5A5BD' AS TEXT) WHERE id = ?", (kyoto,))
    assert _pair_rows(w, "奈良") == [] and _pair_rows(w, "你好") == [kyoto]
    with w.db.transaction() as tx:
        raw = tx.connection()
        raw.exec_driver_sql("DELETE FROM message WHERE id = ?", (kyoto,))
    assert _pair_rows(w, "你好") == []
    with w.db.transaction() as tx:
        raw = tx.connection()
        raw.exec_driver_sql("INSERT INTO message_grams(message_grams) VALUES ('integrity-check')")
    assert len(_pair_rows(w, "京都")) == 1  # the other message


@pytest.mark.sqlite_only
def test_an_older_home_gets_the_pair_index_filled(tmp_path: Path) -> None:
    from alembic import command

    from storage import Database
    from storage.database import alembic_config

    w = seeded(tmp_path)
    w.db.close()
    db = Database(tmp_path / "home", migrate=False)
    with db.engine.begin() as conn:
        command.downgrade(alembic_config(conn), "0015")
    db.close()
    db = Database(tmp_path / "home")  # upgraded: migration 0016 fills the index
    with db.session() as session:
        assert [h.text for h in fts.search_grams(session, "竹林の話", 5)] == [
            "京都の嵐山で竹林を歩きました"]
    db.close()


def test_which_pairs_the_postings_hold_whole() -> None:
    """On PostgreSQL a two-character Japanese term is looked up in the pair postings only
    where every text holding it holds the pair too (``search_pg.pair_indexed``)."""
    from storage.search_pg import pair_indexed

    assert pair_indexed("盆栽") and pair_indexed("京都") and pair_indexed("ラー")
    assert not pair_indexed("いか")  # か + a following ゛ is が under NFKC
    assert not pair_indexed("ab") and not pair_indexed("ＡＢ") and not pair_indexed("京")
    assert not pair_indexed("\uf900京")  # a compatibility ideograph: NFKC changes it


def test_the_servers_bm25_is_fts5s_bit_for_bit() -> None:
    """``search_pg._bm25`` (and the server's SQL, written from it) gives FTS5's ``bm25()``
    to the last bit: the same operations in FTS5's grouping, idf * (num / denom)."""
    import random
    import sqlite3

    from storage.search_pg import _bm25, _idf, _occurrences, fold

    rng = random.Random(3)
    words = ["京都", "ラーメン", "Meeting", "museum", "盆栽", "旅行", "the", "and", "です"]
    docs = [" ".join(rng.choice(words) for _ in range(rng.randint(1, 40))) for _ in range(400)]
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE VIRTUAL TABLE t USING fts5(x, tokenize='trigram')")
    conn.executemany("INSERT INTO t(rowid, x) VALUES (?, ?)", list(enumerate(docs, 1)))
    terms = ["ラーメン", "meeting", "museum", "京都 ", "meeting"]  # (a term twice weighs twice)
    query = " OR ".join(f'"{t}"' for t in terms)
    expected = dict(conn.execute("SELECT rowid, bm25(t) FROM t WHERE t MATCH ?", (query,)))
    lengths = {i: len(d) - 2 for i, d in enumerate(docs, 1)}
    avgdl = sum(lengths.values()) / len(docs)
    freqs = {i: [_occurrences(fold(d), fold(t)) for t in terms] for i, d in enumerate(docs, 1)}
    hits = [sum(1 for f in freqs.values() if f[k]) for k in range(len(terms))]
    idfs = [_idf(len(docs), h) for h in hits]
    found = {i: _bm25(f, idfs, lengths[i], avgdl) for i, f in freqs.items() if any(f)}
    assert found.keys() == expected.keys() and len(found) > 100
    assert all(found[i] == expected[i] for i in found)  # exactly, not approximately
