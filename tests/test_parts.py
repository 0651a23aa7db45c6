"""Small parts: layering, offline tokens, the offline summarizer, days."""

from __future__ import annotations

import subprocess
import sys
from datetime import time
from pathlib import Path

from cms.clock import day_of, parse_ts
from cms.context.tools import query_terms
from cms.summaries import OfflineSummarizer, Turn
from cms.tokens import CharEstimator


def test_cms_and_storage_do_not_load_qt() -> None:
    code = (
        "import importlib, pkgutil, sys, cms, storage, monet_app.services.replay, monet_app.cli.main, "
        "monet_app.services.wiring; "
        "[importlib.import_module(m.name) for pkg in (cms, storage) "
        "for m in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + '.') "
        "if '.migrations' not in m.name]; "
        "bad = [m for m in sys.modules if m.startswith(('PySide6', 'PyQt'))]; "
        "assert not bad, bad"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_token_estimator_works_with_no_network(tmp_path: Path) -> None:
    code = (
        "import socket\n"
        "def refuse(*a, **k):\n"
        "    raise OSError('network is off in this test')\n"
        "socket.socket.connect = refuse\n"
        "socket.create_connection = refuse\n"
        "from cms.tokens import TiktokenEstimator\n"
        "e = TiktokenEstimator()\n"
        "assert 5 < e.count('今日はいい天気ですね。Hello, world!') < 40\n"
    )
    env = {"TIKTOKEN_CACHE_DIR": str(tmp_path / "empty"), "PATH": "/usr/bin:/bin"}
    subprocess.run([sys.executable, "-c", code], check=True, env=env)


def test_token_counts_are_remembered_within_a_bound() -> None:
    from cms.tokens import TiktokenEstimator

    fresh = TiktokenEstimator(memo_chars=400)
    texts = [f"行 {i}: 今日の話の要約です。" * 3 for i in range(40)]
    first = [fresh.count(t) for t in texts]
    again = [fresh.count(t) for t in texts]  # remembered (or counted again) the same
    assert first == again == [TiktokenEstimator(memo_chars=0).count(t) for t in texts]
    assert fresh._memo_size <= 400 and len(fresh._memo) < len(texts)  # oldest went out
    assert texts[-1] in fresh._memo and texts[0] not in fresh._memo
    scaled = TiktokenEstimator(ratio=1.5)
    assert scaled.count(texts[0]) == scaled.count(texts[0]) == -(-first[0] * 3 // 2)


def test_a_text_counted_by_its_lines_counts_as_a_whole() -> None:
    """``count_by_lines`` sums the remembered counts of a text's lines (the TI's tail at a
    rebuild); the sum must be the whole text's count, or a head decision would change."""
    import random

    from cms.tokens import TiktokenEstimator, count_by_lines

    whole = TiktokenEstimator(memo_chars=0)
    by_lines = TiktokenEstimator()
    alphabet = list("ab xyz AB。、！？「」…—–-:;.,!?'\"()[]（）〜\t\n\n\n\r0123456789"
                    "日本語のテキストですカタカナ漢字🙂👍🏽é\u3000\u200b ")
    rng = random.Random(7)
    texts = ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 60)))
             for _ in range(3000)]
    texts += ["\n2026-05-01 09:00–09:40 [chat] ラーメンの話。\n2026-05-02 [work] Q3 plan.\n",
              "a.\n\nb", "x \n y\n\n\nz!\n", "'s\n's\n", "1234\n5678"]
    wrong = [t for t in texts if count_by_lines(by_lines, t) != whole.count(t)]
    assert wrong == []
    assert any("\n" in piece for piece in by_lines._memo)  # lines were remembered
    assert count_by_lines(CharEstimator(), "ab\ncd\n\n e") == len("ab\ncd\n\n e")


def test_line_pieces_cut_as_the_lookaround_split_and_count_all_sums_counts() -> None:
    """``line_pieces`` cuts where ``re.split`` on ``(?<=\\n)(?=\\S)`` cut (white space
    that ``str.isspace`` and ``\\s`` both know included), and ``count_all`` is the sum of
    the single counts, remembered or not, with a ratio rounding each text."""
    import random
    import re

    from cms.tokens import CharEstimator, TiktokenEstimator, count_all, line_pieces

    rng = random.Random(11)
    alphabet = list("ab日 \n\n\t\r\u3000\x85\xa0\x1c\u2028\u200b")
    texts = ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 14)))
             for _ in range(20_000)]
    starts = re.compile(r"(?<=\n)(?=\S)")
    assert [t for t in texts if line_pieces(t) != starts.split(t)] == []
    one, many = TiktokenEstimator(ratio=1.3), TiktokenEstimator(ratio=1.3)
    lines = ["", "a", "2026-05-01 [chat] ラーメン", "Q3 plan.", "a", "🙂👍🏽", *texts[:300]]
    many.count(lines[2])  # one remembered before, the rest not
    assert count_all(many, lines) == sum(one.count(t) for t in lines)
    assert count_all(many, lines) == sum(one.count(t) for t in lines)  # all remembered now
    assert count_all(CharEstimator(), lines) == sum(len(t) for t in lines)


def test_summary_terms_are_cjk_pairs_but_hiragana_only_ones_and_latin_words() -> None:
    from cms.summaries import _terms

    terms = _terms.__wrapped__("私は東京に行きました。Visited the Tokyo Tower々〆ー")
    assert terms == ("visited", "tokyo", "tower", "私は", "は東", "東京", "京に", "に行", "行き",
                     "々〆", "〆ー")  # not きま, まし, した (hiragana only)


def test_summary_sentences_are_cut_as_the_lookbehind_split_cuts_them() -> None:
    """The sentence scan gives what ``re.split`` on the lookbehinds gave (each piece's
    white space made one space, pieces under two characters dropped), on random texts of
    the characters that matter: marks, "." and ";" before and not before a space, line
    breaks, and white space ``str.split`` and ``\\s`` both know (ideographic, NEL, NBSP,
    the separators)."""
    import random
    import re

    from cms.summaries import _LABEL, _sentences

    old_end, spaces = re.compile(r"(?<=[。！？!?])|\n+|(?<=[.;])\s+"), re.compile(r"\s+")

    def by_split(text: str) -> tuple[str, ...]:
        text = _LABEL.sub("", text.strip())
        parts = (spaces.sub(" ", p).strip() for p in old_end.split(text))
        return tuple(p for p in parts if len(p) >= 2)

    rng = random.Random(5)
    alphabet = list("ab日本 。！？!?.;\n\r\t\u3000\x85\xa0\x1c\u2028[]")
    texts = ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 16)))
             for _ in range(20_000)]
    texts += ["[work] 予算は3万円。Then we agreed; fine.\nOK!? end", "Dr. Smith;x. y"]
    wrong = [t for t in texts if _sentences.__wrapped__(t) != by_split(t)]
    assert wrong == []


def test_memory_sentences_are_cut_as_the_lookbehind_split_cuts_them() -> None:
    """The offline memory proposer's sentence scan gives what ``re.split`` on its
    lookbehinds gave (pieces stripped, empty ones dropped), on random texts of the
    characters that matter: the marks, "." and ";" before and not before a space, closing
    quotes after a mark, line breaks and the white space ``\\s`` and ``str.strip`` know."""
    import random
    import re

    from cms.memory.rules import _sentences

    old = re.compile(r"(?<=[。！？!?])|\n+|(?<=[.;])\s+|(?<=[.!?][\"”'])\s+")

    def by_split(text: str) -> list[str]:
        return [piece.strip() for piece in old.split(text) if piece and piece.strip()]

    rng = random.Random(11)
    alphabet = list("ab日 。！？!?.;\"”'\n\t\u3000\x85\xa0\u2028")
    texts = ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 16)))
             for _ in range(20_000)]
    texts += ['He said "stop!" then left. OK; fine.\nDone', "Dr.Smith;x. y", "東京に行った。"]
    assert [t for t in texts if _sentences(t) != by_split(t)] == []


def test_a_request_to_remember_is_found_in_any_case() -> None:
    """The proposer searches a message for a request to remember only when it holds one
    of the words such a request needs, in any case."""
    from cms.memory.rules import _may_ask_to_remember, propose
    from storage.models import MemoryKind, MessageRole, MessageStatus
    from storage.queries import Talk

    def talk(text: str) -> Talk:
        return Talk(id=1, thread_id=1, day="2026-03-02", tab="chat", tab_label="chat",
                    role=MessageRole.USER, text=text, content_json=None,
                    ts="2026-03-02T09:00:00+09:00", token_estimate=3,
                    status=MessageStatus.COMPLETE, segment_id=None, hidden=False)

    for text in ("PLEASE REMEMBER THAT my sister is Aiko.", "Don't Forget: my sister is Aiko.",
                 "妹の名前はアイコです。覚えておいてね"):
        assert _may_ask_to_remember(text)
        assert [c.kind for c in propose(talk(text))] == [MemoryKind.ASKED_TO_REMEMBER], text
    assert not _may_ask_to_remember("My sister's name is Aiko.")


def test_day_boundary() -> None:
    four = time(4, 0)
    assert day_of(parse_ts("2026-03-03T01:30:00+09:00"), four) == "2026-03-02"
    assert day_of(parse_ts("2026-03-03T04:00:00+09:00"), four) == "2026-03-03"
    assert day_of(parse_ts("2026-03-03T03:59:59-05:00"), four) == "2026-03-02"
    assert day_of(parse_ts("2026-03-03T00:00:00+00:00"), time(0, 0)) == "2026-03-03"


JA_TURNS = [
    Turn("user", "来週の京都旅行の計画を立てたいです。嵐山と伏見稲荷に行きたいと思っています。"),
    Turn("assistant", "いいですね！嵐山は朝早く行くと竹林が空いています。伏見稲荷は夕方もきれいです。"),
    Turn("user", "京都旅行では、嵐山の竹林を朝一番に歩く予定にします。"),
    Turn("assistant", "それが良いと思います。"),
]


def test_offline_summary_is_one_short_deterministic_line_in_japanese() -> None:
    s = OfflineSummarizer(max_chars=80)
    line = s.summarize(JA_TURNS)
    assert line == s.summarize(JA_TURNS)
    assert "\n" not in line and 0 < len(line) <= 80
    assert "京都旅行" in line and "嵐山" in line


def test_offline_summary_in_english_and_empty() -> None:
    s = OfflineSummarizer(max_chars=120)
    line = s.summarize(
        [
            Turn("user", "I adopted a rescue dog named Biscuit last month. Biscuit loves the beach."),
            Turn("assistant", "Congratulations on adopting Biscuit!"),
        ]
    )
    assert "Biscuit" in line and len(line) <= 120
    assert s.summarize([]) == "（内容なし）"
    assert s.condense(["a / b", "  "], 50)


def test_search_terms_for_japanese_and_english() -> None:
    assert "京都旅" in query_terms("京都旅行はいつ?") and "京都" in query_terms("京都は?")
    terms = [t.lower() for t in query_terms("How many MCU films did I watch?")]
    # "films" is looked for by its stem: the substring search then finds film and films
    assert "mcu" in terms and "film" in terms and "how" not in terms


def test_ui_reads_no_database_and_builds_no_prompt() -> None:
    """ui/ imports neither cms, storage nor monet_app: it shows what it is given."""
    import ast

    from tests.conftest import REPO

    for path in (REPO / "ui").rglob("*.py"):
        tree = ast.parse(path.read_text("utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module:
                assert node.module.split(".")[0] not in ("cms", "storage", "monet_app"), path
            if isinstance(node, ast.Import):
                for alias in node.names:
                    assert alias.name.split(".")[0] not in ("cms", "storage", "monet_app"), path


def test_the_app_uses_the_windows_methods_not_its_children() -> None:
    """Every ``window.X`` used in monet_app is a method, signal or property of MainWindow,
    never one of its child widgets (those are instance attributes)."""
    import ast

    from ui.main_window import MainWindow

    offered = {name for klass in MainWindow.__mro__[:1] for name in vars(klass)}
    inherited_ok = {"show", "close", "tr", "statusBar"}
    from tests.conftest import REPO

    for path in (REPO / "monet_app").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Attribute)
                    and node.value.attr == "window"):
                assert node.attr in offered | inherited_ok, f"{path}: window.{node.attr}"


def test_offline_summaries_keep_the_specifics_people_ask_about() -> None:
    turns = [
        Turn("user", "I have been thinking about cycling and cycling gear and cycling routes a lot. "
                     "I now own three bikes: a Trek road bike, a gravel bike and a city bike."),
        Turn("assistant", "Cycling is great. Cycling gear matters for cycling routes."),
    ]
    line = OfflineSummarizer().summarize(turns)
    assert "three bikes" in line and "Trek" in line
