"""Timeline Index lines that do not mislead (issue 40): a cut falls between words and is
marked; an outcome comes only from Claude's reply to a message the line names; a greeting
or a "continue" does not stand for the talk."""

from __future__ import annotations

import pytest

from cms.summaries import OUTCOME_JOINT, OfflineSummarizer, Turn, clip, said_nothing
from storage.models import MessageRole

U, A = MessageRole.USER, MessageRole.ASSISTANT


@pytest.mark.parametrize("text", [
    "We visited the Museum of Science and Industry in Manchester yesterday afternoon",
    "It was priced at around $1,250 for the whole set of them, delivery included",
    "The temple dates from the 7th century BC and was rebuilt twice since then",
    "Version 3.14159 of the tool fixed the crash on start-up for most people here",
])
def test_a_cut_falls_between_words_and_is_marked(text: str) -> None:
    for width in range(12, len(text)):
        cut = clip(text, width)
        assert len(cut) <= width and cut.endswith("…")
        kept = cut[:-1]
        # what is kept is the start of the text, ending at the end of a word
        assert text.startswith(kept)
        rest = text[len(kept):]
        assert not (kept[-1:].isalnum() and rest[:1].isalnum()), (width, cut)


def test_japanese_is_cut_between_any_two_characters() -> None:
    text = "東京の博物館に行って恐竜の化石を見てきました。とても楽しかったです"
    assert clip(text, 20) == text[:19] + "…"
    assert clip(text, 200) == text


def test_an_outcome_comes_from_the_reply_to_a_message_the_line_names() -> None:
    tap = "My kitchen tap drips all night and the washer looks worn out to me."
    chess = "Which chess opening suits someone who just started playing chess?"
    tap_reply = "A 12 mm Delta washer from Screwfix costs about £2 and stops it."
    chess_reply = "The Italian Game (1.e4 e5 2.Nf3 Nc6 3.Bc4) is the classic first opening."
    for talk in ([Turn(U, tap), Turn(A, tap_reply), Turn(U, chess), Turn(A, chess_reply)],
                 [Turn(U, chess), Turn(A, chess_reply), Turn(U, tap), Turn(A, tap_reply)]):
        for width in (40, 75, 110):
            line = OfflineSummarizer(max_chars=width).summarize(talk)
            named, joint, outcome = line.partition(OUTCOME_JOINT)
            assert joint, line
            # the outcome is what came of the last exchange the line names ("A / B → C")
            last = named.split(" / ")[-1].rstrip("…")
            asked = tap if tap.startswith(last) else chess
            assert asked.startswith(last), line
            reply = tap_reply if asked is tap else chess_reply
            assert outcome.rstrip("…") in reply, line


def test_a_segment_of_unrelated_exchanges_names_each() -> None:
    """A squeaky hinge, then a chess opening two minutes later: one line names both,
    each cut between words; a follow-up does not count as a subject of its own."""
    talk = [
        Turn(U, "The hinge on our bathroom door squeaks every time it opens. How do I fix it?"),
        Turn(A, "Lift the pin out, wipe it and put a drop of WD-40 or petroleum jelly on it."),
        Turn(U, "Thanks, I'll give that a go tonight."),
        Turn(A, "Good luck!"),
        Turn(U, "Unrelated: what's a solid chess opening for someone who just learned the rules?"),
        Turn(A, "The Italian Game is a classic first opening: quick development, clear plans."),
    ]
    line = OfflineSummarizer().summarize(talk)
    assert "hinge" in line and "chess" in line, line
    assert "give that a go" not in line, line
    named = line.partition(OUTCOME_JOINT)[0]
    assert len(named.split(" / ")) == 2, line


def test_japanese_unrelated_exchanges_are_each_named() -> None:
    talk = [
        Turn(U, "ベランダのバジルが枯れかけています。水やりは毎日したほうがいいですか？"),
        Turn(A, "土の表面が乾いてからたっぷり与えるのが基本です。"),
        Turn(U, "来月の京都旅行、嵐山のおすすめの回り方を教えてください"),
        Turn(A, "朝8時台に竹林を歩き、渡月橋から天龍寺へ回ると混雑を避けられます。"),
    ]
    line = OfflineSummarizer().summarize(talk)
    assert "バジル" in line and "嵐山" in line, line


def test_one_subject_told_over_several_messages_stays_one_line_part() -> None:
    from cms.summaries import topics
    talk = [
        Turn(U, "I'm planning a trip to Chicago. Which restaurants near Millennium Park?"),
        Turn(A, "Try Cindy's rooftop or The Gage, both a short walk from Millennium Park."),
        Turn(U, "Are there gyms that open early near the park as well?"),
        Turn(A, "Equinox on Michigan Avenue opens at 5 am, two blocks from the park."),
        Turn(U, "That's great, I'll check them out."),
        Turn(A, "Enjoy Chicago!"),
    ]
    assert topics(talk) == [[0, 2, 4]]


@pytest.mark.parametrize("said", ["Hey", "continue", "thanks!", "ok", "おはよう", "続けて",
                                  "ありがとうございます。"])
def test_a_greeting_or_continue_says_nothing(said: str) -> None:
    assert said_nothing(said)


def test_a_greeting_does_not_stand_for_the_talk() -> None:
    talk = [Turn(U, "Hey"), Turn(A, "Hi! What's up?"),
            Turn(U, "I'm repainting the spare room a pale sage green this weekend."),
            Turn(A, "Sage works well with white trim and warm wood.")]
    line = OfflineSummarizer().summarize(talk)
    assert not line.startswith("Hey") and "sage" in line.lower()


def test_a_line_after_midnight_keeps_its_day_and_reads_in_order() -> None:
    """A segment said at 00:13 that counts in the evening before reads 24:13 on that
    day's line, after the 23:53 one, not 00:13 as if it came first."""
    from cms.clock import clock_in
    from cms.context.timeline import entry_line
    from storage.models import TimelineEntry, TimelineLevel

    entry = TimelineEntry(level=TimelineLevel.SEGMENT, day_from="2022-08-24",
                          day_to="2022-08-24", start_ts="2022-08-25T00:13:00+09:00",
                          end_ts="2022-08-25T00:26:00+09:00", tabs="chat", first_message_id=1,
                          summary="Lunch breaks")
    assert entry_line(entry).startswith("2022-08-24 24:13–24:26 [chat] Lunch breaks")
    assert clock_in("2022-08-24T23:53:00+09:00", "2022-08-24") == "23:53"
