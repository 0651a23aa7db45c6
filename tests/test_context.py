"""The context manager's promises, each as a person (or the cache) would notice it."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import NoReturn

import pytest
from sqlmodel import select

from cms.context.prompt import extends
from cms.context.timeline import PENDING_MARKER
from cms.settings import Settings
from storage import fts
from storage.errors import SettingsError
from storage.models import Message, TimelineEntry
from storage.settings import put_setting
from storage.talk import _REVS_OF_DAY, TalkReader, day_thread_id, insert_message
from storage.timeline import LineReader, pending_entries, top_level_entries, top_level_lines
from tests.helpers import CountingSummarizer, World, ti_text, turn_texts, write_between_reads


def settings(**kw: object) -> Settings:
    return Settings().with_overrides(**kw)


def test_pinned_block_identical_over_40_turns_with_folds(home: Path) -> None:
    s = settings(ceiling_tokens=600, keep_exchanges=2, low_water_fraction=0.5)
    w = World(home, s)
    for i in range(40):
        w.later(3).turn(f"メッセージ {i}: " + "あいうえお" * 12, reply=f"返事 {i} " + "x" * 60)
        if i % 7 == 6:
            w.librarian.run_once()
    events = w.events()
    assert events.count("ceiling_fold") >= 3
    pinned = [b["system"][0] for b in w.bodies]
    assert len(pinned) == 40
    assert all(p == pinned[0] for p in pinned)
    assert pinned[0]["text"] == s.core_prompt
    # folding never touches it: it is not in any segment, summary or TI line
    with w.db.session() as session:
        for entry in session.exec(select(TimelineEntry)).all():
            assert s.core_prompt[:40] not in (entry.summary or "")
    assert all(s.core_prompt[:40] not in ti_text(b) for b in w.bodies)
    w.close()


def _exchange_world(home: Path, ceiling: int) -> tuple[World, list[dict[str, object]]]:
    w = World(home, settings(ceiling_tokens=ceiling, keep_exchanges=2, low_water_fraction=0.5))
    bodies = []
    for i in range(4):
        bodies.append(w.later(1).turn(f"U{i}" + "a" * 48, reply=f"A{i}" + "b" * 28))
    return w, bodies


def test_exactly_at_ceiling_does_not_fold_one_over_folds_once(tmp_path: Path) -> None:
    # Every user turn is 13 (label) + 50 chars, every reply 30: the 4th request holds
    # three exchanges and the new message: 3 * 93 + 63 = 342 tokens.
    at, _ = _exchange_world(tmp_path / "at", 342)
    assert "ceiling_fold" not in at.events()
    at.close()

    over, bodies = _exchange_world(tmp_path / "over", 341)
    assert over.events().count("ceiling_fold") == 1
    last = turn_texts(bodies[-1])
    assert not any(t.endswith(("U0" + "a" * 48, "U1" + "a" * 48)) for t in last)
    assert any(t.endswith("U2" + "a" * 48) for t in last)  # newest exchanges kept raw
    assert any(t.endswith("U3" + "a" * 48) for t in last)
    log = [json.loads(x) for x in over.log_path.read_text("utf-8").splitlines()]
    fold = next(r for r in log if r.get("name") == "ceiling_fold")
    assert fold["detail"]["tokens_before"] == 342
    assert fold["detail"]["tokens_after"] <= 341
    over.close()


def test_summary_from_first_fold_survives_second_fold(home: Path) -> None:
    w = World(home, settings(ceiling_tokens=200, keep_exchanges=1, low_water_fraction=0.5))
    w.later().turn("最初の話題は北海道旅行の計画です。" + "。" * 40, tab="chat")
    w.later().turn("二つ目の話題。" + "x" * 60)
    w.later().turn("三つ目の話題。" + "y" * 60)
    assert w.events().count("ceiling_fold") == 1
    w.librarian.run_once()
    with w.db.session() as session:
        first_summary = session.exec(select(TimelineEntry)).first().summary  # type: ignore[union-attr]
    assert first_summary and "北海道旅行" in first_summary
    for i in range(6):
        w.later().turn(f"続きの話 {i}。" + "z" * 80)
    assert w.events().count("ceiling_fold") >= 2
    assert first_summary in ti_text(w.bodies[-1])
    w.close()


def test_exchange_pushed_out_is_in_next_requests_ti(home: Path) -> None:
    w = World(home, settings(ceiling_tokens=200, keep_exchanges=1, low_water_fraction=0.4))
    w.at("2026-03-02T09:00:00+09:00").turn("朝ごはんはパンでした。" + "a" * 60, tab="chat")
    w.at("2026-03-02T09:05:00+09:00").turn("お昼の予定。" + "b" * 60, tab="work")
    body = w.at("2026-03-02T09:10:00+09:00").turn("夕方の予定。" + "c" * 60, tab="chat")
    assert "ceiling_fold" in w.events()
    assert not any("朝ごはん" in t for t in turn_texts(body))
    ti = ti_text(body)
    assert f"2026-03-02 09:00–09:00 [chat] {PENDING_MARKER}" in ti
    w.librarian.run_once()
    body = w.at("2026-03-02T09:15:00+09:00").turn("もう一つ。")
    assert "朝ごはんはパンでした" in ti_text(body)
    w.close()


@pytest.mark.parametrize(
    "overrides, words",
    [
        ({"ceiling_tokens": 0}, "ceiling"),
        ({"keep_exchanges": 0}, "exchange"),
        ({"low_water_fraction": 1.0}, "low-water"),
        ({"low_water_fraction": 1.5}, "low-water"),
        ({"day_start": "25:00"}, "day boundary"),
    ],
)
def test_invalid_settings_are_refused(overrides: dict[str, object], words: str) -> None:
    with pytest.raises(SettingsError) as info:
        Settings().with_overrides(**overrides)
    assert words in str(info.value)


def test_stored_settings_are_converted_to_their_types(tmp_path: Path) -> None:
    """What the setting table holds is JSON (issue 42: it was taken as it came): a number
    stored as text becomes the number, lists become the tuples the code compares."""
    from cms.settings import load_settings
    from storage import Database

    db = Database(tmp_path / "home")
    with db.session() as session:
        put_setting(session, "ceiling_tokens", json.dumps("30000"))
        put_setting(session, "tabs", json.dumps([["chat", "Chat"], ["work", "Work"]]))
        put_setting(session, "incognito_days", json.dumps(["2026-12-01"]))
    with db.session() as session:
        loaded = load_settings(session)
    db.close()
    assert loaded.ceiling_tokens == 30000
    assert loaded.tabs == (("chat", "Chat"), ("work", "Work"))
    assert loaded.incognito_days == ("2026-12-01",)


def test_a_stored_setting_of_the_wrong_type_is_refused_in_words(tmp_path: Path) -> None:
    from cms.settings import load_settings
    from storage import Database

    db = Database(tmp_path / "home")
    with db.session() as session:
        put_setting(session, "ceiling_tokens", json.dumps("lots"))
        put_setting(session, "sunset_model", json.dumps([1]))
    with pytest.raises(SettingsError) as info, db.session() as session:
        load_settings(session)
    db.close()
    said = str(info.value)
    assert "the token ceiling must be above 0 (got lots)" in said
    assert "sunset_model cannot be [1] (it must be true or false)" in said


def test_empty_day_never_folds_or_summarizes(home: Path) -> None:
    summarizer = CountingSummarizer()
    w = World(home, settings(), summarizer=summarizer)
    w.cm.switch_tab("work")
    w.cm.open_day("2026-03-01")
    w.at("2026-03-03T10:00:00+09:00").turn("久しぶり。")
    w.librarian.run_once()
    assert "sunset_fold" not in w.events() and "ceiling_fold" not in w.events()
    assert summarizer.calls == 0
    # a day whose talk was all folded already leaves nothing to summarize at sunset
    w.at("2026-03-04T10:00:00+09:00").turn("次の日。")
    w.librarian.run_once()
    assert summarizer.calls == 1  # only the one segment of 03-03
    w.close()


def test_tab_switch_and_open_day_change_nothing(home: Path) -> None:
    w = World(home, settings())
    first = w.later().turn("仕事の話です。", tab="work")
    w.cm.switch_tab("social")
    w.cm.open_day("2026-02-01")
    w.cm.switch_tab("research")
    second = w.later().turn("リサーチの話です。", tab="research")
    assert extends(first, second)
    assert first["system"] == second["system"]
    w.close()


def test_librarian_mid_day_changes_nothing_until_one_rerender(home: Path) -> None:
    w = World(home, settings(ceiling_tokens=300, keep_exchanges=1, low_water_fraction=0.3))
    w.later().turn("仕事A。" + "a" * 80, tab="work")
    w.later().turn("雑談B。" + "b" * 80, tab="chat")
    w.later().turn("仕事C。" + "c" * 80, tab="work")
    body = w.later().turn("雑談D。" + "d" * 80, tab="chat")
    assert w.events().count("ceiling_fold") == 1
    with w.db.session() as session:
        pending = [e.id for e in pending_entries(session) if e.id is not None]
    assert len(pending) >= 2
    assert w.librarian.summarize_entry(pending[0])  # one summary in; the fold still waits
    after_one = w.later().turn("E。")
    assert extends(body, after_one)
    for entry_id in pending[1:]:
        w.librarian.summarize_entry(entry_id)
    resolved = w.later().turn("F。")
    assert w.events().count("pending_resolved") == 1
    assert PENDING_MARKER not in ti_text(resolved)
    assert not extends(after_one, resolved)
    again = w.later().turn("G。")
    assert extends(resolved, again)
    assert w.events().count("pending_resolved") == 1
    w.close()


def test_sunset_at_first_message_after_boundary_app_running(home: Path) -> None:
    w = World(home, settings(), start="2026-03-02T23:50:00+09:00")
    w.turn("夜の話。")
    w.at("2026-03-03T03:59:00+09:00").turn("まだ同じ日。")
    assert "sunset_fold" not in w.events()
    body = w.at("2026-03-03T04:01:00+09:00").turn("新しい朝。")
    events = w.events()
    assert events.count("sunset_fold") == 1 and events.count("day_started") == 2
    assert [t.split("\n", 1)[1] for t in turn_texts(body)] == ["新しい朝。"]
    assert "夜の話" in ti_text(body) or PENDING_MARKER in ti_text(body)
    w.close()


def test_clock_going_back_loses_nothing_and_opens_no_past_day(home: Path) -> None:
    w = World(home, settings(), start="2026-03-03T10:00:00+09:00")
    w.turn("十時の話。")
    w.at("2026-03-02T22:00:00+09:00").turn("時計が戻った。")
    w.at("2026-03-01T08:00:00+09:00").turn("もっと戻った。")
    events = w.events()
    assert events.count("day_started") == 1 and "sunset_fold" not in events
    with w.db.session() as session:
        rows = session.exec(select(Message).where(Message.role == "user")).all()
    assert [m.text for m in rows] == ["十時の話。", "時計が戻った。", "もっと戻った。"]
    assert {m.day for m in rows} == {"2026-03-03"}
    w.close()


def test_restart_mid_day_rebuilds_the_same_body(home: Path) -> None:
    first = World(home, settings(ceiling_tokens=400, keep_exchanges=1))
    for i in range(6):
        first.later(2).turn(f"話 {i}。" + "a" * 60, tab=["chat", "work"][i % 2])
    first.librarian.run_once()
    first.later(2).turn("要約が届いた後。")
    assert first.events().count("ceiling_fold") == 1
    assert first.events().count("pending_resolved") == 1
    last_before = first.later(2).turn("再起動の前。")
    first.close()
    second = World(home, settings(ceiling_tokens=400, keep_exchanges=1), start=first.clock.now().isoformat())
    after = second.later(2).turn("再起動の後。")
    assert second.events()[-1] == "app_started"  # no rebuild point between the two
    assert extends(last_before, after)
    second.close()


def test_empty_and_blank_messages_are_refused(home: Path) -> None:
    from storage.errors import EmptyMessageError

    w = World(home, settings())
    for text in ["", "   ", "\n\t", "\u200b\u3000"]:
        with pytest.raises(EmptyMessageError):
            w.cm.commit_user_message(text, "chat")
    w.close()


def test_odd_unicode_is_stored_and_sent(home: Path) -> None:
    w = World(home, settings())
    text = "絵文字👩‍👩‍👧 結合文字が\u0301 制御\x07 孤立サロゲート\ud800 終わり"
    body = w.turn(text)
    json.dumps(body, ensure_ascii=False).encode("utf-8")  # sendable
    with w.db.session() as session:
        stored = session.exec(select(Message).where(Message.role == "user")).one().text
    assert stored == "絵文字👩‍👩‍👧 結合文字が\u0301 制御\x07 孤立サロゲート\ufffd 終わり"  # one U+FFFD
    w.close()


def test_huge_paste_over_the_window_is_kept_and_refused_clearly(home: Path) -> None:
    from storage.errors import PromptTooLargeError

    w = World(home, settings(context_window_tokens=5000, max_tokens=500))
    w.turn("普通の話。")
    with pytest.raises(PromptTooLargeError) as info:
        w.turn("x" * 10_000)
    assert "saved" in str(info.value)
    with w.db.session() as session:
        texts = [m.text for m in session.exec(select(Message)).all()]
    assert "x" * 10_000 in texts
    # the next ordinary message still goes through: the paste folds away
    w.turn("短い話。")
    assert "emergency_fold" in w.events()
    w.close()


def test_thread_model_huge_paste_folds_away_in_the_same_request(home: Path) -> None:
    """The thread model's emergency fold moves the thread's raw window and the same
    request is built from the moved window (read again from the database)."""
    from storage.errors import PromptTooLargeError

    w = World(home, settings(sunset_model=False, context_window_tokens=5000, max_tokens=500))
    w.turn("普通の話。")
    with pytest.raises(PromptTooLargeError):
        w.turn("x" * 10_000)
    body = w.turn("短い話。")
    assert "emergency_fold" in w.events()
    assert not any("x" * 100 in t for t in turn_texts(body))
    w.close()


def test_thread_model_folds_a_thread_when_it_is_left(home: Path) -> None:
    w = World(home, settings(sunset_model=False))
    work = w.cm.thread_named("work")
    chat = w.cm.thread_named("chat")
    w.cm.switch_thread(work)
    w.later().turn("仕事スレッドの話。", tab="work")
    w.cm.switch_thread(chat)
    body = w.later().turn("雑談スレッドの話。", tab="chat")
    assert "thread_switch_fold" in w.events()
    assert not any("仕事スレッド" in t for t in turn_texts(body))
    assert f"[work] {PENDING_MARKER}" in ti_text(body)
    w.librarian.run_once()
    w.cm.switch_thread(work)
    back = w.later().turn("仕事に戻った。", tab="work")
    texts = turn_texts(back)
    assert any("仕事スレッドの話。" in t for t in texts)  # its own turns are raw again
    assert f"[chat] {PENDING_MARKER}" in ti_text(back)  # the thread just left
    assert "[work]" not in ti_text(back)
    w.librarian.run_once()
    later = w.later().turn("続き。", tab="work")
    assert "雑談スレッドの話" in ti_text(later)  # the other thread is remembered
    w.close()


def test_switching_the_flag_loses_nothing(home: Path) -> None:
    w = World(home, settings())
    w.later().turn("日没モデルでの話。")
    w.close()
    off = World(home, settings(sunset_model=False), start=w.clock.now().isoformat())
    off.cm.switch_thread(off.cm.thread_named("chat"))
    off.later().turn("スレッドモデルでの話。")
    assert "settings_changed" in off.events()
    off.close()
    on = World(home, settings(), start=off.clock.now().isoformat())
    body = on.later().turn("また日没モデル。")
    with on.db.session() as session:
        texts = [m.text for m in session.exec(select(Message).where(Message.role == "user")).all()]
    assert texts == ["日没モデルでの話。", "スレッドモデルでの話。", "また日没モデル。"]
    assert any("日没モデルでの話。" in t for t in turn_texts(body))
    on.close()


def test_prompt_too_long_folds_and_retries_once_never_loops(home: Path) -> None:
    from cms.model.errors import PromptTooLongError

    w = World(home, settings())
    for i in range(4):
        w.later().turn(f"話 {i}。")
    calls = {"n": 0}
    original = w.model.stream

    def too_long(body: object) -> object:
        calls["n"] += 1
        raise PromptTooLongError("prompt is too long: 1200000 tokens > 1000000 maximum")

    w.model.stream = too_long  # type: ignore[assignment]
    with pytest.raises(PromptTooLongError):
        w.runner.send("長すぎる？", "chat")
    assert calls["n"] == 2  # the first try, one fold, one retry: never a loop
    assert w.events().count("emergency_fold") == 1
    w.model.stream = original  # type: ignore[method-assign]
    with w.db.session() as session:
        assert any(m.text == "長すぎる？" for m in session.exec(select(Message)).all())
    w.close()


@pytest.mark.heavy
def test_timeline_stays_within_budget_on_a_very_long_day(home: Path) -> None:
    from cms.tokens import TiktokenEstimator

    estimator = TiktokenEstimator()
    w = World(home, settings(ceiling_tokens=400, keep_exchanges=1, ti_budget_tokens=300,
                             low_water_fraction=0.5),
              estimator=estimator)
    for i in range(60):
        w.later(4).turn(f"話題 {i}: " + "今日は色々なことがありました。" * 3, tab=["chat", "work"][i % 3 == 0])
        if i % 5 == 4:
            w.librarian.run_once()
    sizes = [estimator.count(ti_text(b)) for b in w.bodies]
    assert w.events().count("ceiling_fold") >= 10
    # pending placeholders cannot roll up, so allow the lines of one fold above the budget
    assert max(sizes) <= 300 + 120
    w.close()


def test_a_sunset_keeps_the_timeline_head_and_appends_to_its_tail(home: Path) -> None:
    """The TI is sent as a cached head and a tail: from one sunset to the next the head is
    byte-identical and the tail only grows, until the tail is large enough to be taken in;
    today's date is in the context block, not in the TI."""
    w = World(home, settings(ti_budget_tokens=4000))
    heads, tails = [], []
    for day in range(1, 10):
        body = w.at(f"2026-03-{day:02d}T09:00:00+09:00").turn(f"{day}日目の話。" + "内容 " * 40)
        w.librarian.run_pass()
        texts = [b["text"] for b in body["system"]]
        assert texts[-1].startswith(f"# 今日\n今日は 2026-03-{day:02d}")
        assert "2026-03-" not in texts[1].split("\n")[0]  # no date in the TI's head line
        heads.append(texts[1])
        tails.append(texts[2] if len(texts) == 4 else "")
    changes = sum(1 for a, b in itertools.pairwise(heads) if a != b)
    assert changes <= 3  # the head moved only a few times in eight sunsets
    for i in range(1, len(heads)):
        if heads[i] == heads[i - 1] and tails[i - 1]:
            ready = "\n".join(x for x in tails[i - 1].split("\n") if "要約作成中" not in x)
            assert tails[i].startswith(ready)  # the tail only grew (placeholders filled in)
    w.close()


def test_weeks_of_one_month_rolled_up_at_different_times_make_one_month_line(tmp_path: Path) -> None:
    """Found on a year-size home: weeks of April rolled up on two occasions made two April
    lines. A later roll-up joins the period's existing line."""
    from cms.context import timeline
    from cms.summaries import OfflineSummarizer
    from storage import Database
    from storage.models import TimelineEntry, TimelineLevel

    db = Database(tmp_path / "home")

    def week(day_from: str, day_to: str, first: int, text: str) -> TimelineEntry:
        return TimelineEntry(level=TimelineLevel.WEEK, day_from=day_from, day_to=day_to,
                             start_ts=f"{day_from}T09:00:00+09:00",
                             end_ts=f"{day_to}T21:00:00+09:00", tabs="chat",
                             first_message_id=first, summary=text, summary_source="rollup")

    with db.session() as session:
        session.add(week("2026-04-06", "2026-04-12", 10, "April week two: a bike bought"))
        session.add(week("2026-04-13", "2026-04-19", 20, "April week three: a trip to Kyoto"))
        session.flush()
        visible = list(top_level_entries(session))
        assert timeline._roll_up_once(session, visible, "2026-05-20", OfflineSummarizer(),
                                      "2026-05-20T10:00:00+09:00")
        session.add(week("2026-04-20", "2026-04-26", 30, "April week four: a new job"))
        session.flush()
        visible = list(top_level_entries(session))
        assert timeline._roll_up_once(session, visible, "2026-05-27", OfflineSummarizer(),
                                      "2026-05-27T10:00:00+09:00")
        top = list(top_level_entries(session))
    db.close()
    months = [e for e in top if e.level == TimelineLevel.MONTH]
    assert len(months) == 1 and len(top) == 1
    assert months[0].day_from == "2026-04-06" and months[0].day_to == "2026-04-26"
    assert "new job" in (months[0].summary or "") or "Kyoto" in (months[0].summary or "")


def test_a_past_years_months_roll_up_into_one_year_line_never_this_years(tmp_path: Path) -> None:
    """Month lines alone would outgrow the TI's budget after about two years."""
    from cms.context import timeline
    from cms.summaries import OfflineSummarizer
    from storage import Database
    from storage.models import TimelineEntry, TimelineLevel

    db = Database(tmp_path / "home")

    def month(key: str, first: int) -> TimelineEntry:
        return TimelineEntry(level=TimelineLevel.MONTH, day_from=f"{key}-01", day_to=f"{key}-28",
                             start_ts=f"{key}-01T09:00:00+09:00", end_ts=f"{key}-28T21:00:00+09:00",
                             tabs="chat", first_message_id=first, summary=f"month {key}",
                             summary_source="rollup")

    with db.session() as session:
        for i, key in enumerate(["2025-10", "2025-11", "2025-12", "2026-01", "2026-02"]):
            session.add(month(key, 10 * (i + 1)))
        session.flush()
        while timeline._roll_up_once(session, list(top_level_entries(session)),
                                     "2026-03-15", OfflineSummarizer(), "2026-03-15T10:00:00+09:00"):
            pass
        top = list(top_level_entries(session))
    db.close()
    assert [(e.level, e.day_from[:7]) for e in top] == [
        (TimelineLevel.YEAR, "2025-10"), (TimelineLevel.MONTH, "2026-01"),
        (TimelineLevel.MONTH, "2026-02")]
    assert timeline.entry_line(top[0]).startswith("2025 [chat] ")


@pytest.mark.sqlite_only
def test_todays_talk_kept_between_requests_follows_every_change(home: Path) -> None:
    """The reader that keeps today's messages between requests (storage.TalkReader)
    sends what is stored now: a message changed in place by another connection, a reply
    deleted and replaced (SQLite gives its id to the next message), a hidden message."""
    import sqlite3

    w = World(home, settings())
    w.later().turn("最初の質問", reply="最初の返事")
    w.later().turn("二つ目の質問", reply="古い返事")
    assert "古い返事" in turn_texts(w.cm.prepare_request().body)  # now held by the reader
    with sqlite3.connect(w.db.path) as other:  # another process edits and regenerates
        fts.register(other)  # as every MONET process does
        other.execute("UPDATE message SET text = '直した返事' WHERE text = '最初の返事'")
        newest = other.execute("SELECT max(id) FROM message").fetchone()[0]
        other.execute("DELETE FROM message WHERE id = ?", (newest,))
        other.execute(
            "INSERT INTO message (id, thread_id, day, tab, tab_label, role, text, ts, "
            "token_estimate, status, hidden) SELECT ?, thread_id, day, tab, tab_label, "
            "'assistant', '新しい返事', ts, 5, 'complete', 0 FROM message WHERE id = ?",
            (newest, newest - 1))
        other.execute("UPDATE message SET hidden = 1 WHERE text LIKE '%最初の質問%'")
    body = w.later().turn("三つ目", reply="はい")
    texts = turn_texts(body)
    assert "直した返事" in texts and "新しい返事" in texts
    assert "古い返事" not in texts and "最初の返事" not in texts
    assert not any("最初の質問" in t for t in texts)
    w.close()


@pytest.mark.sqlite_only  # (the core text is the history's on a server)
def test_a_core_file_edit_keeping_its_size_and_time_still_rebuilds(home: Path) -> None:
    """The pinned block's fingerprint is computed again when the core file changes, even
    when a copy keeps its size and modification time (cp -p, rsync -t, a coarse clock)."""
    import os

    from cms.context.core_prompt import core_path

    w = World(home, settings())
    path = core_path(home)
    path.write_text("- likes cats\n", "utf-8")
    w.later().turn("hello")
    stat = path.stat()
    path.write_text("- likes bats\n", "utf-8")
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    body = w.later().turn("again")
    assert "bats" in body["system"][0]["text"]
    assert "settings_changed" in w.events()
    w.close()


@pytest.mark.sqlite_only
def test_a_message_folded_between_the_readers_two_reads_is_left_out(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Today's talk is read in two statements (ids and revisions, then what changed); a
    message another process folds in between is not sent as raw talk."""
    import sqlite3

    from storage.models import MessageRole, MessageStatus

    world = World(home, settings())
    db = world.db
    with db.transaction() as conn:
        thread = day_thread_id(conn, "2026-03-02", "2026-03-02T09:00:00+09:00")
        for i in range(3):
            insert_message(
                conn, thread_id=thread, day="2026-03-02", tab="chat", tab_label="chat",
                role=MessageRole.USER, text=f"m{i}", content_json=None,
                ts="2026-03-02T09:00:00+09:00", token_estimate=3,
                status=MessageStatus.COMPLETE, hidden=False)
    reader = TalkReader()
    other = sqlite3.connect(db.path)

    def fold_m0() -> None:  # another writer folds m0
        other.execute("INSERT INTO fold (kind, day, created_ts, segment_count) "
                      "VALUES ('ceiling', '2026-03-02', 'x', 1)")
        other.execute("INSERT INTO segment (thread_id, fold_id, day, tab, "
                      "first_message_id, last_message_id, start_ts, end_ts, tokens) "
                      "VALUES (1, 1, '2026-03-02', 'chat', 1, 1, 'a', 'b', 3)")
        other.execute("UPDATE message SET segment_id = 1 WHERE id = 1")
        other.commit()

    write_between_reads(monkeypatch, _REVS_OF_DAY, fold_m0)
    with db.transaction() as conn:
        talk = reader.raw_of_day(conn, "2026-03-02")
    other.close()
    assert [m.text for m in talk] == ["m1", "m2"]
    world.close()


def test_a_request_is_in_the_ledger_even_when_storing_its_reply_fails(home: Path) -> None:
    """The ledger line goes in with the reply; when that fails (a locked database), the
    line is written on its own: the request was made and paid for."""
    from storage.errors import DatabaseError
    from storage.models import UsageRecord

    w = World(home, settings())
    w.turn("最初")

    def locked(*_args: object, **_kwargs: object) -> NoReturn:
        raise DatabaseError("The database is locked by another program.")

    w.cm.record_reply = locked  # type: ignore[method-assign]
    with pytest.raises(DatabaseError):
        w.turn("二つ目")
    with w.db.session() as session:
        assert len(session.exec(select(UsageRecord)).all()) == 2
    w.close()


def test_a_rendered_timeline_counts_its_text_exactly(tmp_path: Path) -> None:
    """The TI's tokens are its text's count (line by line, with the breaks), not "each
    line plus one": a line ending in a mark can take its break into the same token, and
    the head's choice counts the tail by the same lines."""
    from cms.context import timeline
    from cms.tokens import TiktokenEstimator
    from storage import Database
    from storage.models import TimelineEntry, TimelineLevel

    db = Database(tmp_path / "home")
    endings = ["ラーメンを食べた。", "Q3 plan agreed.", "京都の話…", "budget: 30,000 yen)", "ok!"]
    with db.session() as session:
        for i, text in enumerate(endings * 4):
            session.add(TimelineEntry(level=TimelineLevel.SEGMENT, day_from="2026-04-06",
                                      day_to="2026-04-06", start_ts="2026-04-06T09:00:00+09:00",
                                      end_ts="2026-04-06T09:30:00+09:00", tabs="chat",
                                      first_message_id=i + 1, summary=text))
        session.flush()
        estimator = TiktokenEstimator()
        rendered = timeline.render_timeline(
            session, rendered_day="2026-04-07", estimator=estimator, budget=100_000,
            visible=lambda _e: True, created_ts="2026-04-07T09:00:00+09:00",
            reader=LineReader())
    db.close()
    whole = TiktokenEstimator(memo_chars=0).count(rendered.text)
    assert rendered.tokens == whole
    lines = rendered.text.split("\n")[2:]  # (after the header's two lines)
    plus_one = estimator.count(timeline.TI_HEADER) + sum(estimator.count(x) + 1 for x in lines)
    assert plus_one != whole  # the old sum differs on these lines


def test_a_roll_up_given_a_session_keeps_its_pending_changes(tmp_path: Path) -> None:
    """Roll-ups write with Core statements; a Session handed to one is flushed first, so an
    edit it held but had not flushed is stored, as when roll-ups went through the ORM."""
    from cms.context import timeline
    from cms.summaries import OfflineSummarizer
    from storage import Database
    from storage.models import Setting, TimelineEntry, TimelineLevel

    db = Database(tmp_path / "home")
    with db.session() as session:
        session.add(Setting(key="probe", value_json='"before"'))
        for day in ("2026-04-06", "2026-04-07"):
            session.add(TimelineEntry(level=TimelineLevel.DAY, day_from=day, day_to=day,
                                      start_ts=f"{day}T09:00:00+09:00",
                                      end_ts=f"{day}T21:00:00+09:00", tabs="chat",
                                      first_message_id=int(day[-1]), summary=f"day {day}"))
    with db.session() as session:
        probe = session.get(Setting, "probe")
        assert probe is not None
        probe.value_json = '"after"'  # changed, not flushed
        visible = list(top_level_lines(session))
        assert timeline._roll_up_once(session, visible, "2026-05-20", OfflineSummarizer(),
                                      "2026-05-20T10:00:00+09:00")
        assert [e.level for e in top_level_entries(session)] == [TimelineLevel.WEEK]
    with db.session() as session:
        stored = session.get(Setting, "probe")
        assert stored is not None and stored.value_json == '"after"'
    db.close()


def test_the_context_block_does_not_repeat_the_timeline_index() -> None:
    """Its recent section was the TI's lines again, word for word (about 650 tokens of
    every request in the LongMemEval prompts)."""
    from cms.context.context_block import not_in_timeline

    timeline = ("# Timeline Index\n2026-03-01 09:00–09:40 [chat] Planned the Kyoto trip: "
                "3 days, budget ¥50,000\n2026-03-02 [work] 週報のテンプレートを作った")
    recent = ["2026-03-01 [chat] Planned the Kyoto trip: 3 days, budget ¥50,000",
              "2026-03-02 [work] 週報のテンプレートを作った",
              "2026-02-10 [chat] Bought a road bike for commuting"]
    assert not_in_timeline(recent, timeline) == ["2026-02-10 [chat] Bought a road bike for commuting"]


def test_the_context_summary_does_not_retell_a_memory() -> None:
    """Issue 40: a memory's sentence is not said again by the summary lines beside it."""
    from cms.context.context_block import Summary, render
    from cms.context.notes import Note
    from cms.tokens import TiktokenEstimator

    note = Note(1, "My daughter Maisie has swimming lessons every Saturday at 9am", "fact",
                "active", "2026-03-08T10:00:00+00:00")
    summary = Summary("2026-03-09", "- 2026-03-08 [chat] Maisie has swimming lessons every "
                                    "Saturday at 9am\n- 2026-03-07 [work] Drafted the bakery bio")
    block = render([note], summary, TiktokenEstimator(), 4000)
    assert block.count("swimming") == 1 and "bakery bio" in block


def test_the_context_summary_does_not_retell_a_day_the_index_holds() -> None:
    """Issue 40: on a long history the summary's 'recent' lines were segments of days the
    TI holds as one rolled-up line. A line headed by a day the TI holds, at any level, is
    left out; a thread across days and a day the TI no longer holds stay."""
    from cms.context.context_block import Summary, render
    from cms.tokens import TiktokenEstimator

    timeline = ("# Timeline Index\n2026-02 [chat] 引っ越しの準備と見積もり\n"
                "2026-03-02〜2026-03-08 [work] 週報と面談の準備\n"
                "2026-03-09 09:00–09:40 [chat] 京都旅行の計画")
    summary = Summary("2026-03-10", "\n".join([
        "- 2026-02-14 [chat] 引っ越し業者の見積もりを三社で比べた",  # in the month's line
        "- 2026-03-04 [work] 面談で話すことを三つに絞った",  # in the week's line
        "- 2026-03-09 [chat] 京都は二泊で、嵐山に行く",  # the day's own line holds it
        "- 2026-01-20 [social] 高校の友人と十年ぶりに会った",  # not held by the TI any more
        "- この人は2月から新居への引っ越しを進めていて、京都旅行も計画している"]))
    block = render([], summary, TiktokenEstimator(), 4000, timeline)
    assert "十年ぶり" in block and "新居" in block
    assert "三社" not in block and "三つに絞" not in block and "嵐山" not in block
