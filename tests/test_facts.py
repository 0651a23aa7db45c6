"""Facts that change (issue 40): a newer statement about the same subject's property
supersedes the older one, which stays as its history; a change that names what it
replaced ends it; a diet ends the likes it leaves out; requests to remember keep their
statement in English and Japanese; a request about the task at hand is no memory."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlmodel import select

from cms import facts
from cms.context.prompt import system_parts
from cms.settings import Settings
from storage.models import MemoryItem
from tests.helpers import World


def remembered(w: World) -> dict[str, str]:
    """fact -> status, every memory item."""
    with w.db.session() as session:
        return {i.fact: i.status.value for i in session.exec(select(MemoryItem)).all()}


def active(w: World) -> list[str]:
    return [fact for fact, status in remembered(w).items() if status == "active"]


def told(w: World, ts: str) -> str:
    """The context block of the first request of a later day (a rebuild point)."""
    return system_parts(w.at(ts).turn("hi"))[2]


@pytest.mark.parametrize(("older", "newer", "old_word", "new_word"), [
    ("I live in Bristol with two flatmates.", "We moved to Cardiff last weekend.",
     "Bristol", "Cardiff"),
    ("I'm a nurse at St Anne's.", "Big day: the trust has made me a ward manager!",
     "nurse", "ward manager"),
    ("I work at Halberd Systems.", "Tomorrow is my first day at Orrin Labs.",
     "Halberd", "Orrin"),
    ("My son Theo is 4 and loves trains.", "Theo turned 5 on Sunday.", "is 4", "turned 5"),
    ("I've got 3 guitars.", "Bought another one, so I'm up to 4 guitars.", "3 guitars",
     "4 guitars"),
    ("大阪に住んでいます。", "先月、神戸に引っ越しました。", "大阪", "神戸"),
    ("娘は3歳です。", "娘が昨日4歳になりました。", "3歳", "4歳"),
    ("職場では主任をやっています。", "四月から課長になりました。", "主任", "課長"),
    ("今日から仙台市民です。", "今日から札幌市民になりました。", "仙台", "札幌"),
    # a named relation said again by its name alone; a business of one's own; a count told
    # with a comma; a name "decided" rather than "changed"
    ("娘の美桜は今5歳です。", "美桜が先週6歳になりました！", "5歳", "6歳"),
    ("妻の真理、市役所で働いてるんだけど忙しそう。", "真理が独立して、自分の花屋を開くことになった。",
     "市役所", "花屋"),
    ("今年走った大会が2回になりました。", "今年走った大会、4回になった！", "2回", "4回"),
    ("作ってる日記アプリ、『こもれび』って名前にしてる。", "日記アプリの名前、『ともしび』にした。",
     "こもれび", "ともしび"),
    ("I'm a junior analyst at Pell & Daw.", "Got promoted to analytics lead at Pell & Daw!",
     "junior analyst", "analytics lead"),
    ("I'm an analyst at Quillon Freight.",
     "I accepted the offer at Marrow Health! Today's my last day at Quillon.", "Quillon",
     "Marrow"),
    ("I'm doing keto right now.", "I've quit keto, too hard. Doing Mediterranean now - any "
     "dinner ideas?", "keto", "Mediterranean"),
])
@pytest.mark.heavy
def test_a_newer_value_supersedes_the_older_and_keeps_it_as_history(
        tmp_path: Path, older: str, newer: str, old_word: str, new_word: str) -> None:
    w = World(tmp_path / "home", Settings())
    w.at("2026-05-01T09:00:00+09:00").turn(older)
    w.librarian.run_pass()
    w.at("2026-05-04T09:00:00+09:00").turn(newer)
    w.librarian.run_pass()
    now = active(w)
    assert any(new_word in fact for fact in now), remembered(w)
    assert not any(old_word in fact and new_word not in fact for fact in now), remembered(w)
    with w.db.session() as session:
        newest = next(i for i in session.exec(select(MemoryItem)).all() if new_word in i.fact)
        assert newest.supersedes_id is not None
        previous = session.get(MemoryItem, newest.supersedes_id)
        assert previous is not None and old_word in previous.fact
    ctx = told(w, "2026-05-05T09:00:00+09:00")
    # Claude is told the newest value, and that it changed (what it was before)
    assert new_word in ctx and "それ以前" in ctx


@pytest.mark.parametrize(("older", "newer", "old_word"), [
    ("I love my Mazda.", "Sold the Mazda and got an e-bike instead.", "Mazda"),
    ("I really like learning French.",
     "I'm dropping French and have picked up Korean.", "French"),
    ("テニスが大好きです。", "テニスはやめて、今は卓球をやってます。", "テニス"),
    # a like that ended, in words that do not say "stopped"
    ("激辛ラーメンが大好きです。", "最近激辛ラーメンがすっかり辛くて食べられなくなりました。",
     "激辛ラーメン"),
    ("I love true crime podcasts.", "I've gone off true crime podcasts lately.", "true crime"),
    ("うちの犬の名前はポチです。", "犬の名前、ポチから「ハナ」に変えました。", "ポチ"),
])
def test_a_change_that_names_the_older_value_ends_it(
        tmp_path: Path, older: str, newer: str, old_word: str) -> None:
    w = World(tmp_path / "home", Settings())
    w.at("2026-05-01T09:00:00+09:00").turn(older)
    w.librarian.run_pass()
    assert any(old_word in fact for fact in active(w)), remembered(w)
    w.at("2026-05-04T09:00:00+09:00").turn(newer)
    w.librarian.run_pass()
    # (only the newer statement, which names what it gave up, still says the word)
    assert [f for f in active(w) if old_word in f and not facts.dropped(f)] == [], remembered(w)


@pytest.mark.parametrize(("liked", "diet"), [
    ("I love a good steak on Fridays.", "I'm vegetarian now."),
    ("焼き鳥が大好きです。", "最近ベジタリアンになりました。"),
    ("I love sashimi.", "I've given up fish completely."),
    ("お寿司が大好き！", "もう魚は食べていません。"),
])
def test_a_diet_ends_the_likes_it_leaves_out(tmp_path: Path, liked: str, diet: str) -> None:
    w = World(tmp_path / "home", Settings())
    w.at("2026-05-01T09:00:00+09:00").turn(liked)
    w.librarian.run_pass()
    w.at("2026-05-03T09:00:00+09:00").turn(diet)
    w.librarian.run_pass()
    state = remembered(w)
    [like] = [fact for fact in state if fact.rstrip("。！!.") == liked.rstrip("。！!.")]
    assert state[like] == "superseded", state


@pytest.mark.parametrize(("said", "kept"), [
    ("私はえびアレルギーなので覚えておいてね。", "えびアレルギー"),
    ("夫の誕生日は7月9日です。覚えておいてください。", "7月9日"),
    ("母は猫アレルギーなの、忘れないでね。", "猫アレルギー"),
    ("娘の学校は北小学校。メモしておいて！", "北小学校"),
    ("I'm allergic to sesame, please remember that.", "sesame"),
    ("Don't forget that my wife's name is Ines.", "Ines"),
    ("Keep in mind that I work night shifts on Mondays.", "night shifts"),
    # a request before its statement, and one whose own sentence is only its reason
    ("今後のために言っておくと、私は右耳が少し聞こえにくいんだ。", "右耳"),
    ("念のため伝えておきますね。夫はナッツアレルギーです。", "ナッツ"),
    ("For future reference, my sister's name is Odile.", "Odile"),
    ("父の誕生日は3月14日です。いつもプレゼントに迷うので、忘れないでね。", "3月14日"),
    ("My dad's birthday is March 14. I always leave gifts too late, so don't forget.",
     "March 14"),
    ("I'm allergic to latex, please remember that if you ever suggest gloves.", "latex"),
    ("one more thing - I'm allergic to aspirin, please remember that, in case I ask about "
     "meds", "aspirin"),
    # a statement followed, in its sentence, by what it asks of the assistant
    ("I'm allergic to kiwi, so please leave it out of recipes. Remember that.", "kiwi"),
    ("息子は小麦アレルギーがあるので、レシピは米粉でお願いします。メモしておいてください。",
     "小麦アレルギー"),
])
@pytest.mark.heavy
def test_a_request_to_remember_keeps_its_statement(tmp_path: Path, said: str, kept: str) -> None:
    w = World(tmp_path / "home", Settings())
    w.at("2026-05-01T09:00:00+09:00").turn(said)
    w.librarian.run_pass()
    assert any(kept in fact for fact in active(w)), remembered(w)
    assert not any(fact.endswith(("ね", "ください", "ね。", "ください。")) for fact in active(w))


@pytest.mark.parametrize("said", [
    "Remember this is for my landlord, so keep it formal: write a note about the boiler.",
    "Draft a toast for the wedding. Remember I'm the one giving it, so first person.",
    "Remember the readers are ten years old, so use simple words.",
    "子ども向けの文章だってことを覚えておいて、やさしい言葉で書いてね。",
    "取引先に送るものだから、丁寧にってことを覚えておいてください。",
    "この企画書はA3一枚にまとめるってこと覚えておいて。",
    "今回の案内状は年配の方にも届くってことを忘れないでください。",
])
@pytest.mark.heavy
def test_a_request_about_the_task_at_hand_is_no_lasting_memory(tmp_path: Path,
                                                                 said: str) -> None:
    w = World(tmp_path / "home", Settings())
    w.at("2026-05-01T09:00:00+09:00").turn(said)
    w.librarian.run_pass()
    with w.db.session() as session:
        kinds = [i.kind.value for i in session.exec(select(MemoryItem)).all()]
    assert "asked_to_remember" not in kinds


def test_a_statement_is_kept_as_its_clause_not_the_request_around_it() -> None:
    [home] = [s for s in facts.statements(
        "I live in Leeds and my boss wants the slides by Thursday.") if s.prop == "home"]
    assert home.clause == "I live in Leeds"
    [ja] = facts.statements("名古屋に住んでるんですが、今朝めっちゃ寒くて…。")
    assert ja.clause == "名古屋に住んでる"


def test_an_intolerance_is_not_ended_by_a_diet(tmp_path: Path) -> None:
    w = World(tmp_path / "home", Settings())
    w.at("2026-05-01T09:00:00+09:00").turn("Remember that I'm lactose intolerant.")
    w.librarian.run_pass()
    w.at("2026-05-03T09:00:00+09:00").turn("I've gone vegan.")
    w.librarian.run_pass()
    assert {"I'm lactose intolerant", "I've gone vegan"} <= {
        f.rstrip(".") for f in active(w)}, remembered(w)


def test_search_ranks_the_newer_of_two_statements_first_and_marks_the_older(
        tmp_path: Path) -> None:
    """Issue 40: "how old is Theo?" finds both ages; the newer ranks first and the
    older says a newer message restates it."""
    from cms.context.tools import search_history

    w = World(tmp_path / "home", Settings())
    w.at("2026-05-01T09:00:00+09:00").turn("My son Theo is 4 and Theo loves trains, Theo says.")
    w.at("2026-05-02T09:00:00+09:00").turn("Lunch ideas please")
    w.at("2026-06-03T09:00:00+09:00").turn("Theo turned 5 today.")
    with w.db.session() as session:
        results = search_history(session, "Theo age trains", 5)["results"]
    texts = [r["text"] for r in results]
    newer = next(i for i, t in enumerate(texts) if "turned 5" in t)
    older = next(i for i, t in enumerate(texts) if "is 4" in t)
    assert newer < older
    assert results[older].get("newer_on") == "2026-06-03" and "newer_on" not in results[newer]


@pytest.mark.parametrize(("said", "what"), [
    ("Help me name my shop - pottery has totally taken over my weekends.", "pottery"),
    ("I'm properly hooked on bouldering these days.", "bouldering"),
])
def test_a_pastime_that_took_hold_is_remembered(tmp_path: Path, said: str, what: str) -> None:
    w = World(tmp_path / "home", Settings())
    w.at("2026-05-01T09:00:00+09:00").turn(said)
    w.librarian.run_pass()
    assert any(what in fact for fact in active(w)), remembered(w)
    assert not any(fact.startswith("Help me") for fact in active(w)), remembered(w)
