"""Small parts: layering, offline tokens, the offline summarizer, days."""

from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Iterator
from datetime import time
from pathlib import Path

from cms.clock import day_of, parse_ts
from cms.context.tools import query_terms
from cms.summaries import OfflineSummarizer, Turn
from cms.tokens import CharEstimator
from storage.models import MessageRole


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
    from storage.talk import Talk

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
    Turn(MessageRole.USER, "来週の京都旅行の計画を立てたいです。嵐山と伏見稲荷に行きたいと思っています。"),
    Turn(MessageRole.ASSISTANT, "いいですね！嵐山は朝早く行くと竹林が空いています。伏見稲荷は夕方もきれいです。"),
    Turn(MessageRole.USER, "京都旅行では、嵐山の竹林を朝一番に歩く予定にします。"),
    Turn(MessageRole.ASSISTANT, "それが良いと思います。"),
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
            Turn(MessageRole.USER, "I adopted a rescue dog named Biscuit last month. Biscuit loves the beach."),
            Turn(MessageRole.ASSISTANT, "Congratulations on adopting Biscuit!"),
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


# ----- the window's own methods, not its children: a guard that follows aliases ----------
_SCOPES = (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


def _names_main_window(annotation: ast.AST | None) -> bool:
    """An annotation that says MainWindow (``MainWindow``, ``ui.MainWindow``,
    ``MainWindow | None``, ``"MainWindow"``)."""
    return annotation is not None and any(
        (isinstance(n, ast.Name) and n.id == "MainWindow")
        or (isinstance(n, ast.Attribute) and n.attr == "MainWindow")
        or (isinstance(n, ast.Constant) and isinstance(n.value, str) and "MainWindow" in n.value)
        for n in ast.walk(annotation))


def _outer_parts(scope: ast.AST) -> list[ast.AST]:
    """The parts of a nested def, lambda or class evaluated in the scope around it."""
    if isinstance(scope, ast.Lambda):
        return [*scope.args.defaults, *(d for d in scope.args.kw_defaults if d)]
    if isinstance(scope, ast.ClassDef):
        return [*scope.decorator_list, *scope.bases, *scope.keywords]
    assert isinstance(scope, ast.FunctionDef | ast.AsyncFunctionDef)
    return [*scope.decorator_list, *scope.args.defaults,
            *(d for d in scope.args.kw_defaults if d)]


def _own_nodes(scope: ast.AST) -> Iterator[ast.AST]:
    """The nodes of ``scope`` itself, the scopes nested in it yielded but not entered."""
    todo: list[ast.AST] = [scope.body] if isinstance(scope, ast.Lambda) else list(
        getattr(scope, "body", []))
    while todo:
        node = todo.pop()
        yield node
        if isinstance(node, _SCOPES):
            todo.extend(_outer_parts(node))
        else:
            todo.extend(ast.iter_child_nodes(node))


def _params(scope: ast.AST) -> list[ast.arg]:
    if not isinstance(scope, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
        return []
    a = scope.args
    return [*a.posonlyargs, *a.args, *a.kwonlyargs, *(x for x in (a.vararg, a.kwarg) if x)]


def _pairs(target: ast.AST, value: ast.AST | None) -> Iterator[tuple[ast.AST, ast.AST | None]]:
    """(target, value) for each name or attribute bound, tuples unpacked pairwise."""
    if isinstance(target, ast.Tuple | ast.List):
        values = value.elts if isinstance(value, ast.Tuple | ast.List) else None
        if values is not None and len(values) == len(target.elts):
            for t, v in zip(target.elts, values, strict=True):
                yield from _pairs(t, v)
        else:
            for t in target.elts:
                yield from _pairs(t, None)
    elif isinstance(target, ast.Starred):
        yield from _pairs(target.value, None)
    else:
        yield target, value


def _bindings(scope: ast.AST) -> Iterator[tuple[ast.AST, ast.AST | None, ast.AST | None]]:
    """(target, value, annotation) for each binding in ``scope`` (parameters included)."""
    for param in _params(scope):
        yield ast.Name(param.arg), None, param.annotation
    for node in _own_nodes(scope):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                for t, v in _pairs(target, node.value):
                    yield t, v, None
        elif isinstance(node, ast.AnnAssign):
            yield node.target, node.value, node.annotation
        elif isinstance(node, ast.NamedExpr):
            yield node.target, node.value, None
        elif isinstance(node, ast.AugAssign | ast.For | ast.AsyncFor | ast.comprehension):
            for t, _ in _pairs(node.target, None):
                yield t, None, None
        elif isinstance(node, ast.withitem) and node.optional_vars is not None:
            for t, _ in _pairs(node.optional_vars, None):
                yield t, None, None
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            yield ast.Name(node.name), None, None
        elif isinstance(node, ast.Import | ast.ImportFrom):
            for alias in node.names:
                yield ast.Name((alias.asname or alias.name).split(".")[0]), None, None
        elif isinstance(node, ast.ExceptHandler) and node.name:
            yield ast.Name(node.name), None, None


class _Scope:
    def __init__(self, node: ast.AST, outer: _Scope | None) -> None:
        self.node, self.outer = node, outer
        self.bound: set[str] = set()
        self.windows: set[str] = set()  # names here that hold the MainWindow


class _WindowGuard:
    """Attribute reads on the MainWindow, by any name it goes by: an expression ending in
    ``.window`` (or in another attribute once assigned the window), ``MainWindow(...)``, a
    call of a function annotated ``-> MainWindow``, and names (parameters, variables,
    closures) annotated ``MainWindow`` or assigned any of these."""

    def __init__(self, offered: set[str], panes: dict[str, set[str]] | None = None) -> None:
        self.offered = offered | set(panes or {})
        self.panes = panes or {}  # a pane's attribute on the window: what the pane offers
        self.attrs = {"window"}  # attributes that hold the window
        self.makers = {"MainWindow"}  # what, called, returns it

    def check(self, sources: dict[str, str]) -> list[str]:
        trees = {name: ast.parse(text) for name, text in sources.items()}
        for tree in trees.values():
            for node in ast.walk(tree):
                if (isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
                        and _names_main_window(node.returns)):
                    self.makers.add(node.name)
        while True:  # until no more attributes are seen to be assigned the window
            known = set(self.attrs)
            found = [f"{name}:{line}" for name, tree in trees.items()
                     for line in self._scope(tree, None)]
            if self.attrs == known:
                return sorted(found, key=lambda f: (f.split(":")[0], int(f.split(":")[1])))

    def _holds(self, node: ast.AST | None, scope: _Scope) -> bool:
        if isinstance(node, ast.Attribute):
            return node.attr in self.attrs
        if isinstance(node, ast.Name):
            at: _Scope | None = scope
            while at is not None:
                if node.id in at.bound:
                    return node.id in at.windows
                at = at.outer
                while at is not None and isinstance(at.node, ast.ClassDef):
                    at = at.outer  # a class body's names are not seen from its methods
            return False
        if isinstance(node, ast.Call):
            f = node.func
            return (isinstance(f, ast.Name) and f.id in self.makers) or (
                isinstance(f, ast.Attribute) and f.attr in self.makers)
        if isinstance(node, ast.NamedExpr):
            return self._holds(node.value, scope)
        if isinstance(node, ast.IfExp):
            return self._holds(node.body, scope) or self._holds(node.orelse, scope)
        if isinstance(node, ast.BoolOp):
            return any(self._holds(v, scope) for v in node.values)
        return False

    def _scope(self, node: ast.AST, outer: _Scope | None) -> Iterator[str]:
        scope = _Scope(node, outer)
        bindings = list(_bindings(node))
        scope.bound = {t.id for t, _, _ in bindings if isinstance(t, ast.Name)}
        while True:  # an alias of an alias
            windows = {t.id for t, v, ann in bindings if isinstance(t, ast.Name)
                       and (_names_main_window(ann) or self._holds(v, scope))}
            if windows <= scope.windows:
                break
            scope.windows |= windows
        for t, v, ann in bindings:
            if isinstance(t, ast.Attribute) and (_names_main_window(ann) or self._holds(v, scope)):
                self.attrs.add(t.attr)  # self.win = self.window
            if (isinstance(node, ast.ClassDef) and isinstance(t, ast.Name)
                    and _names_main_window(ann)):
                self.attrs.add(t.id)  # a class's field: win: MainWindow
        for n in _own_nodes(node):
            if isinstance(n, ast.Attribute) and self._holds(n.value, scope):
                if n.attr not in self.offered:
                    yield f"{n.lineno}: {ast.unparse(n)}"
            elif (isinstance(n, ast.Attribute) and isinstance(n.value, ast.Attribute)
                  and n.value.attr in self.panes and self._holds(n.value.value, scope)
                  and n.attr not in self.panes[n.value.attr]):
                yield f"{n.lineno}: {ast.unparse(n)}"  # a pane's child widget
            elif (isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
                  and n.func.id in ("getattr", "setattr", "hasattr") and len(n.args) >= 2
                  and isinstance(n.args[1], ast.Constant) and self._holds(n.args[0], scope)
                  and n.args[1].value not in self.offered):
                yield f"{n.lineno}: {ast.unparse(n)}"
            if isinstance(n, _SCOPES) and n is not node:
                yield from self._scope(n, scope)


def _window_offers() -> set[str]:
    """What MainWindow offers the app: its own methods, signals and properties (its child
    widgets are instance attributes, not the class's), and a few of QWidget's."""
    from ui.main_window import MainWindow

    return set(vars(MainWindow)) | {"show", "close", "tr", "statusBar"}


def _pane_offers() -> dict[str, set[str]]:
    """What each of the window's panes (``ui.main_window.PANES``) offers: the methods,
    signals and properties of its own class, never its widgets."""
    from ui.main_window import PANES

    return {name: set(vars(cls)) for name, cls in PANES.items()}


def test_the_app_uses_the_windows_methods_not_its_children() -> None:
    """Every attribute monet_app reads on MainWindow, under whatever name (``self.window``,
    an alias, a parameter annotated ``MainWindow``), is a method, signal or property of
    MainWindow or one of its panes, and what it reads on a pane is the pane's own method,
    signal or property: never a child widget of either."""
    from tests.conftest import REPO

    sources = {str(path.relative_to(REPO)): path.read_text("utf-8")
               for path in sorted((REPO / "monet_app").rglob("*.py"))}
    assert _WindowGuard(_window_offers(), _pane_offers()).check(sources) == []


WINDOW_GUARD_SNIPPET = '''
from ui.main_window import MainWindow


class Controller:
    def __init__(self, nav) -> None:
        self.window = MainWindow([])
        self.nav = nav
        self.win = self.window
        w = self.window
        w.tab_changed.connect(self.send)  # a signal: offered
        w.compose.send_requested.connect(self.send)  # a pane's signal: offered
        w.compose.field.clear()  # a pane's child widget
        w.view.scrollToBottom()  # a child, through an alias
        w2 = w
        w2.set_tabs([], "chat")  # offered
        w2.tab_bar.hide()  # a child, through an alias of an alias
        w.promote_requested.connect(lambda: w.key_box.show())  # a child, in a closure
        n = self.nav
        n.view.show()  # not the window
        getattr(w, "banner").hide()  # a child, by name

    def later(self) -> None:
        self.win.edit_bar.hide()  # a child, through an attribute assigned the window
        w = self.nav
        w.model.clear()  # another function's w: not the window
        win, nav = self.window, self.nav
        win.side_list.clear()  # a child, through tuple unpacking
        nav.side_list.clear()  # not the window


def show(window: MainWindow | None, tabs) -> None:
    window.transcript.set_messages([])  # offered
    window.model.clear()  # a child, through a parameter annotated MainWindow


def make() -> MainWindow:
    return MainWindow([])


def run() -> None:
    window = make()
    window.error_label.show()  # a child, of a window a function returned
    other = MainWindow([])
    other.show_memory([], None, None)  # offered
'''


def test_the_window_guard_follows_aliases() -> None:
    """The guard itself: a child reached through an alias, an alias of an alias, a closure,
    an attribute assigned the window, an annotated parameter, ``getattr`` or a returned
    window is flagged; the window's own methods and other objects' attributes are not."""
    found = _WindowGuard(_window_offers(), _pane_offers()).check(
        {"snippet.py": WINDOW_GUARD_SNIPPET})
    assert [f.split(": ", 1)[1] for f in found] == [
        "w.compose.field",
        "w.view",
        "w2.tab_bar",
        "w.key_box",
        "getattr(w, 'banner')",
        "self.win.edit_bar",
        "win.side_list",
        "window.model",
        "window.error_label",
    ], found


def test_offline_summaries_keep_the_specifics_people_ask_about() -> None:
    turns = [
        Turn(MessageRole.USER, "I have been thinking about cycling and cycling gear and cycling routes a lot. "
                              "I now own three bikes: a Trek road bike, a gravel bike and a city bike."),
        Turn(MessageRole.ASSISTANT, "Cycling is great. Cycling gear matters for cycling routes."),
    ]
    line = OfflineSummarizer().summarize(turns)
    assert "three bikes" in line and "Trek" in line
