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
    talk = [Turn(U, tap), Turn(A, tap_reply), Turn(U, chess), Turn(A, chess_reply)]
    line = OfflineSummarizer(max_chars=75).summarize(talk)  # room for one message only
    named, joint, outcome = line.partition(OUTCOME_JOINT)
    assert joint, line
    reply_of = {tap[:30]: tap_reply, chess[:30]: chess_reply}
    [asked] = [start for start in reply_of if start in named]
    assert outcome.rstrip("…") in reply_of[asked], line


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
                          end_ts="2022-08-25T00:26:00+09:00", tabs="chat", summary="Lunch breaks")
    assert entry_line(entry).startswith("2022-08-24 24:13–24:26 [chat] Lunch breaks")
    assert clock_in("2022-08-24T23:53:00+09:00", "2022-08-24") == "23:53"
