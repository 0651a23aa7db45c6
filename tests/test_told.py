"""What Claude is told about the past (issue 27): a line that states an older value says
that it changed; each fact said once; lines say what came of the talk."""

from __future__ import annotations

from pathlib import Path

from sqlmodel import select

from cms.context.prompt import system_parts
from cms.settings import Settings
from cms.summaries import OfflineSummarizer, Turn
from storage.models import MessageRole, TimelineEntry
from tests.helpers import World


def _world(tmp_path: Path) -> World:
    w = World(tmp_path / "home", Settings(), summarizer=OfflineSummarizer())
    w.at("2026-03-02T09:00:00+09:00").turn(
        "I've actually watched 4 MCU films in the last 3 months, and I loved them.")
    w.at("2026-03-03T09:00:00+09:00").turn("Good morning, any news today?")  # sunset
    w.librarian.run_pass()
    return w


def test_a_line_with_an_older_value_says_it_changed(tmp_path: Path) -> None:
    """LongMemEval's knowledge updates: the prompt carried "4 MCU films" and not the 5 the
    person said later."""
    w = _world(tmp_path)
    w.at("2026-03-09T20:00:00+09:00").turn(
        "By the way, I've watched 12 films in the last 3 months, including 5 MCU films!")
    w.librarian.run_pass()
    body = w.at("2026-03-10T09:00:00+09:00").turn("What did I watch?")  # the next rebuild
    ti = system_parts(body)[1]
    old = next(line for line in ti.splitlines() if "4 MCU films" in line)
    assert "(later, 2026-03-09: By the way, I've watched 12 films" in old
    assert "5 MCU" in old
    # forgetting the later sentence takes its note away
    from monet_app.operations import memory

    memory.delete_day(w.core, "2026-03-09")
    with w.db.session() as session:
        lines = [e.summary or "" for e in session.exec(select(TimelineEntry)).all()]
    assert any("4 MCU films" in line for line in lines)
    assert not any("(later," in line for line in lines)


def test_a_sentence_in_an_incognito_tab_is_never_quoted_in_a_line(tmp_path: Path) -> None:
    from monet_app.operations import memory

    w = _world(tmp_path)
    memory.set_incognito_today(w.core, "2026-03-09", True)
    w.at("2026-03-09T20:00:00+09:00").turn(
        "By the way, I've watched 12 films in the last 3 months, including 5 MCU films!")
    w.librarian.run_pass()
    with w.db.session() as session:
        lines = [e.summary or "" for e in session.exec(select(TimelineEntry)).all()]
    assert not any("(later," in line for line in lines)


def test_a_different_fact_with_a_number_is_not_a_newer_value(tmp_path: Path) -> None:
    w = _world(tmp_path)
    w.at("2026-03-09T20:00:00+09:00").turn("I bought 2 new pairs of running shoes.")
    w.librarian.run_pass()
    with w.db.session() as session:
        lines = [e.summary or "" for e in session.exec(select(TimelineEntry)).all()]
    assert not any("(later," in line for line in lines)


def test_a_line_says_what_came_of_the_talk() -> None:
    """Lines were the person's sentence only: often the request ("What deli…?") rather than
    the answer (the deli Claude named)."""
    line = OfflineSummarizer().summarize([
        Turn(MessageRole.USER, "I'm going to Rome. What deli near the Vatican has the best "
                               "cured meats?"),
        Turn(MessageRole.ASSISTANT, "Great question! Here are two:\n1. **Roscioli**: a famous "
                                    "deli near the Vatican.\n2. Try Pizzarium for pizza."),
    ])
    assert line.endswith("→ Roscioli: a famous deli near the Vatican.")
    chat = OfflineSummarizer().summarize([
        Turn(MessageRole.USER, "週末は高尾山に登ろうと思ってる"),
        Turn(MessageRole.ASSISTANT, "いいですね！高尾山なら稲荷山コースがおすすめで、山頂まで約90分です。"),
    ])
    assert chat == "週末は高尾山に登ろうと思ってる → 高尾山なら稲荷山コースがおすすめで、山頂まで約90分です。"
    # a reply that brings no name or number adds nothing
    assert "→" not in OfflineSummarizer().summarize([
        Turn(MessageRole.USER, "I feel tired today."),
        Turn(MessageRole.ASSISTANT, "That sounds hard. Rest well.")])
    assert "\n" not in line


def test_which_later_sentences_restate_a_value() -> None:
    from cms.memory.updates import restates

    assert restates("I've written four so far since I started writing regularly.",
                    "I've been writing regularly for three months now, and I've even managed "
                    "to complete 7 short stories since I started.")
    # the same count of the same thing, even when the new value is elsewhere in the old line
    assert restates("So, we'll have 4 engineers, plus my manager Rachel, making it a total "
                    "of 5 people from our team.",
                    "I now lead a team of five engineers - it has been great.")
    assert not restates("My daughter is 4 years old.", "I spent 3 years in Berlin.")
    assert not restates("I have 2 cats and a dog.", "We adopted 2 cats from the shelter.")
    assert not restates("I run 5 km every morning.", "I bought 2 new pairs of shoes.")
    # someone else, or a year, is not a newer value of the person's fact
    assert not restates("My daughter is 7 years old and loves swimming.",
                        "My son is 10 years old and loves swimming.")
    assert not restates("The person has 2 cats, Miso and Tofu.",
                        "My neighbour has 3 cats too, all named after food.")
    assert not restates("My monthly budget for groceries is 400 dollars.",
                        "In 2024 the grocery budget is 400 dollars per month.")


def test_a_note_cut_at_its_start_goes_when_its_sentence_is_forgotten() -> None:
    """A long later sentence is quoted around its new value, "…" at both ends: forgetting
    it must still find the note; a roll-up never carries a note over."""
    from cms.memory.updates import _quote, without_notes_of
    from cms.summaries import NOTE

    said = ("Quick update on work stuff from this week, since a lot happened with the "
            "reorganisation and the hiring plans: the backend team that I lead now has "
            "five engineers, which is great, and we start on the new project next month.")
    quote = _quote(said, {"5"})
    assert quote.startswith("…") and "five engineers" in quote
    line = "I lead 4 engineers on the backend team." + NOTE.format(day="2026-03-09",
                                                                  said=quote)
    assert without_notes_of(line, [said]) == "I lead 4 engineers on the backend team."
    assert without_notes_of(line, ["something else"]) == line
    rolled = OfflineSummarizer().condense([line, "Planned the team outing."], 400)
    assert "(later," not in rolled and "five engineers" not in rolled


def test_a_change_said_in_words_notes_the_older_line() -> None:
    """Issue 40: the "(later, DAY: …)" note covers changes said in words, not only
    numbers: a home, a job, a name, in English and Japanese."""
    from cms.memory.updates import notes_for
    from storage.models import MessageRole, MessageStatus, TimelineLevel
    from storage.talk import Talk
    from storage.timeline import Line

    def line(n: int, text: str) -> Line:
        return Line(n, TimelineLevel.SEGMENT, n, "2026-03-02", "2026-03-02",
                    "2026-03-02T09:00:00+09:00", "2026-03-02T09:30:00+09:00", "chat", n, text)

    def said(n: int, text: str) -> Talk:
        return Talk(id=100 + n, thread_id=1, day="2026-03-09", tab="chat", tab_label="chat",
                    role=MessageRole.USER, text=text, content_json=None,
                    ts="2026-03-09T10:00:00+09:00", token_estimate=5,
                    status=MessageStatus.COMPLETE, segment_id=None, hidden=False)

    lines = [line(1, "We live in Leeds and I cycle to work. / Any tips for rain gear?"),
             line(2, "名古屋に住んでいて、冬の寒さがつらい。"),
             line(3, "Our dog is called Biscuit and she loves the beach."),
             line(4, "I work at Halden Labs as a data analyst.")]
    english = [line for line in lines if line.id != 2]
    rewrites = {r.line_id: r.summary for r in notes_for(english, [
        said(1, "Big news: we moved to Manchester last weekend!"),
        said(3, "We renamed the dog Pippin, Biscuit never suited her."),
        said(4, "I still work at Halden Labs, busier than ever.")])}
    rewrites |= {r.line_id: r.summary for r in notes_for([lines[1]], [
        said(2, "先月、仙台に引っ越しました。")])}
    assert rewrites[1].endswith("(later, 2026-03-09: Big news: we moved to Manchester last weekend!)")
    assert "(later, 2026-03-09: 先月、仙台に引っ越しました。)" in rewrites[2]
    assert "Pippin" in rewrites[3]
    assert 4 not in rewrites  # the same value said again is no change
