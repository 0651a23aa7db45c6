"""The architecture's rules, each a test that fails when a change breaks it
(docs/ARCHITECTURE.md, "The layers" and "User actions").

Imports are read from the source (``ast``), lazy ones inside functions included, so a
circle or a reach upwards cannot hide in a function body.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import itertools
import re
from collections.abc import Iterator
from pathlib import Path

from tests.conftest import REPO

PACKAGES = ("storage", "cms", "monet_app", "ui")


def _modules() -> dict[str, Path]:
    found: dict[str, Path] = {}
    for package in PACKAGES:
        for path in (REPO / package).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            parts = list(path.relative_to(REPO).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


MODULES = _modules()


def _resolve(name: str) -> str | None:
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def _imports(module: str) -> Iterator[tuple[str, int]]:
    """(imported project module, line) for every import in ``module``, at any depth."""
    path = MODULES[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if (target := _resolve(alias.name)) and target != module:
                    yield target, node.lineno
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parts, base] if base else parts)
            for alias in node.names:
                full = f"{base}.{alias.name}"
                target = full if full in MODULES else _resolve(base)
                if target and target != module:
                    yield target, node.lineno


GRAPH = {module: sorted({t for t, _ in _imports(module)}) for module in MODULES}


def _cycles(graph: dict[str, list[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph.get(v, []):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in graph:
        if v not in index:
            visit(v)
    return found


def test_the_cycle_finder_finds_a_circle() -> None:
    assert _cycles({"a": ["b"], "b": ["c"], "c": ["a"], "d": ["a"]}) == [["a", "b", "c"]]
    assert _cycles({"a": ["b"], "b": []}) == []


def test_no_import_circle_among_the_projects_modules() -> None:
    assert _cycles(GRAPH) == []


#: Lower first: a module may import only from its own rank or below. ``cms``: the shared
#: modules at the top of the package, then model < context < memory < librarian.
#: ``monet_app``: services < operations < mixing < window < demo < cli.
RANKS = [
    ("storage",),
    ("cms.clock", "cms.tokens", "cms.settings", "cms.records", "cms.summaries", "cms"),
    ("cms.model",),
    ("cms.context",),
    ("cms.memory",),
    ("cms.librarian",),
    ("ui",),
    ("monet_app.services", "monet_app"),
    ("monet_app.operations",),
    ("monet_app.mixing",),
    ("monet_app.window",),
    ("monet_app.demo",),
    ("monet_app.cli",),
]


def _rank(module: str) -> int:
    best = (-1, -1)
    for rank, prefixes in enumerate(RANKS):
        for prefix in prefixes:
            if module == prefix or module.startswith(prefix + "."):
                best = max(best, (len(prefix), rank))
    assert best[1] >= 0, module
    return best[1]


def test_every_import_goes_down_the_layers() -> None:
    upward = [f"{m} -> {t}" for m, targets in GRAPH.items() for t in targets
              if _rank(t) > _rank(m)]
    assert upward == []


def test_ui_imports_only_ui() -> None:
    """The widgets show what they are given (``ui/items.py``) and build no prompt."""
    assert [f"{m} -> {t}" for m, targets in GRAPH.items() if m.startswith("ui")
            for t in targets if not t.startswith("ui")] == []


def test_operations_and_services_hold_no_qt() -> None:
    """What the window and the command line share runs without a QApplication: no Qt
    import, and from ``ui`` only its plain dataclasses."""
    for module, path in MODULES.items():
        if not module.startswith(("monet_app.operations", "monet_app.services", "cms",
                                  "storage")):
            continue
        text = path.read_text("utf-8")
        assert "PySide6" not in text, module
        assert all(t == "ui.items" for t in GRAPH[module] if t.startswith("ui")), module


def test_one_error_tree() -> None:
    """Every sentence-error is a ``UserFacingError`` defined in the tree's two modules:
    the root's (``storage/errors.py``) and the model's branch (``cms/model/errors.py``)."""
    from storage.errors import UserFacingError

    homes = {"storage.errors", "cms.model.errors"}
    strays = []
    for module in MODULES:
        if module.endswith("__main__"):
            continue  # (running it is the command)
        loaded = importlib.import_module(module)
        for name, value in vars(loaded).items():
            if (inspect.isclass(value) and issubclass(value, UserFacingError)
                    and value.__module__ == module and module not in homes):
                strays.append(f"{module}.{name}")
    assert strays == []


# ----- one home per user action ---------------------------------------------------------
#: Operations that only read; every other public function of monet_app/operations must
#: enter the gate (``core.gate.hold``) or hand over to one that does.
READ_ONLY = {
    "conversation": {"stop"},
    "versions": {"exchange_ids"},
    "attaching": {"prepare_files", "prepare_pasted", "file_to_open"},
    "sharing": {"generation", "shared_files"},
    "memory": {"memory_rows", "all_items", "item_with_sources"},
    "settings": {"settings_values"},
    "search": {"search", "search_items", "related"},
    "backups": {"backup_due"},
    "keys": {"key_state", "has_key"},
    # reads the history, writes only the new store; joining writes no history, only
    # this device's device.json and the keyring (no core is open to hold a gate)
    "moving": {"migrate_to", "join"},
}
HANDS_OVER = {"versions": {"regenerate"}}
#: Steps of an action that run inside the hold of the operation calling them (a reply's
#: settling, an edit's setting aside within the message's transaction).
WITHIN_A_HOLD = {"versions": {"settle", "set_aside_exchange", "write_held_first"}}


def _public_functions(module: str) -> dict[str, ast.FunctionDef]:
    tree = ast.parse(MODULES[module].read_text("utf-8"))
    return {node.name: node for node in tree.body
            if isinstance(node, ast.FunctionDef) and not node.name.startswith("_")}


def _enters_the_gate(node: ast.FunctionDef) -> bool:
    """A ``with ....hold(...)`` among the function's own top-level statements (not
    inside a branch that may not run)."""
    return any(isinstance(statement, ast.With) and any(
        isinstance(item.context_expr, ast.Call)
        and isinstance(item.context_expr.func, ast.Attribute)
        and item.context_expr.func.attr == "hold" for item in statement.items)
        for statement in node.body)


def test_every_operation_that_writes_enters_the_gate() -> None:
    missing = []
    for module in MODULES:
        if not module.startswith("monet_app.operations.") or module.endswith(".changes"):
            continue
        short = module.rpartition(".")[2]
        for name, node in _public_functions(module).items():
            if name in (READ_ONLY.get(short, set()) | HANDS_OVER.get(short, set())
                        | WITHIN_A_HOLD.get(short, set())):
                continue
            if not _enters_the_gate(node):
                missing.append(f"{module}.{name}")
    assert missing == []


def test_the_gate_check_sees_a_hold_that_may_not_run() -> None:
    sure = ast.parse("def f(core):\n    with core.gate.hold(W):\n        write()\n").body[0]
    maybe = ast.parse("def f(core):\n    if False:\n        with core.gate.hold(W):\n"
                      "            pass\n    write()\n").body[0]
    assert isinstance(sure, ast.FunctionDef) and isinstance(maybe, ast.FunctionDef)
    assert _enters_the_gate(sure) and not _enters_the_gate(maybe)


def test_the_gate_refuses_exactly_what_its_table_says() -> None:
    """Every pair: with ``running`` under way, ``requested`` is refused if and only if
    the table says so, and a refusal changes nothing."""
    import pytest

    from monet_app.services.gate import REFUSED_BY, Gate, Work
    from storage.errors import BusyError

    for running in Work:
        for requested in Work:
            gate = Gate()
            with gate.enter(running):
                if running in REFUSED_BY[requested]:
                    with pytest.raises(BusyError) as refused:
                        gate.enter(requested)
                    assert (refused.value.requested, refused.value.running) == (
                        requested.value, running.value)
                    assert gate.running() == {running}
                else:
                    gate.enter(requested).leave()
            assert gate.running() == frozenset()
    person = (Work.REPLY, Work.FORGET, Work.SETTINGS)
    for a in person:
        for b in person:
            assert a in REFUSED_BY[b], (a, b)  # the person's actions exclude each other
    for work in Work:
        assert Work.RESTORE in REFUSED_BY[work]  # nothing starts behind a restore


def test_a_restore_waits_for_background_work_on_another_thread() -> None:
    import threading

    from monet_app.services.gate import Gate, Work

    gate = Gate()
    librarian = gate.enter(Work.LIBRARIAN)
    restore = gate.enter(Work.RESTORE)
    waited: list[bool] = []
    waiter = threading.Thread(target=lambda: waited.append(gate.wait_for_background(10)))
    waiter.start()
    waiter.join(0.1)
    assert waiter.is_alive()  # still waiting for the pass
    librarian.leave()
    librarian.leave()  # (a second leave changes nothing)
    waiter.join(10)
    assert waited == [True]
    restore.leave()
    assert gate.running() == frozenset()


#: What the window and the command line may not call below the operations: the actions'
#: own work (deleting, forgetting, searching, backups, storing the key, a pass, a commit).
BELOW = {"cms.memory.forget", "cms.memory.rules", "storage.fts", "cms.context.tools"}
BELOW_NAMES = {
    "cms.context.core_prompt": {"promote"},
    "monet_app.services.backup": {"make_backup", "restore", "rotate"},
    "monet_app.services.keys": {"store_api_key", "delete_api_key"},
}


def test_the_window_and_the_command_line_act_through_operations() -> None:
    """One home per user action: neither entry point does an operation's work itself."""
    offenders = []
    for module, path in MODULES.items():
        if not module.startswith(("monet_app.window", "monet_app.cli")):
            continue
        if any(t in BELOW for t in GRAPH[module]):
            offenders.append(f"{module} imports {sorted(set(GRAPH[module]) & BELOW)}")
        tree = ast.parse(path.read_text("utf-8"))
        backup_names = {alias.asname or alias.name for node in ast.walk(tree)
                        if isinstance(node, ast.ImportFrom) and node.module == "monet_app.services"
                        for alias in node.names if alias.name == "backup"}
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module in BELOW_NAMES:
                bad = {a.name for a in node.names} & BELOW_NAMES[node.module]
                if bad:
                    offenders.append(f"{module} imports {sorted(bad)} from {node.module}")
            if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                    and node.value.id in backup_names
                    and node.attr in BELOW_NAMES["monet_app.services.backup"]):
                offenders.append(f"{module} calls backup.{node.attr}")
            if isinstance(node, ast.Attribute) and node.attr in (
                    "commit_user_message", "librarian_pass", "librarian_report", "run_pass",
                    "use_settings"):
                offenders.append(f"{module} calls .{node.attr}")
    assert offenders == []


def test_the_map_names_every_module() -> None:
    """docs/ARCHITECTURE.md names every module of cms, storage, monet_app and ui (22 had
    drifted out of it, issue 42): by its path, or by its file name in a row of its
    folder."""
    doc = (REPO / "docs" / "ARCHITECTURE.md").read_text("utf-8")
    rows = doc.splitlines()
    missing = []
    for package in ("cms", "storage", "monet_app", "ui"):
        for path in sorted((REPO / package).rglob("*.py")):
            relative = path.relative_to(REPO).as_posix()
            if "/migrations/" in relative or path.name == "__init__.py" or relative in doc:
                continue
            folder = path.parent.relative_to(REPO).as_posix() + "/"
            if not any(f"`{path.name}`" in row and folder in row for row in rows):
                missing.append(relative)
    assert missing == []


def test_every_subcommand_has_one_entry_in_the_command_table() -> None:
    """``monet`` dispatches through a table (issue 42: it was an if-chain): every
    subcommand the parser offers is in ``COMMANDS`` or is one of the three answered before
    a data folder is opened, and the table names no command the parser lacks."""
    import argparse

    from monet_app.cli.main import COMMANDS, build_parser

    parser = build_parser()
    [sub] = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    offered = set(sub.choices)
    assert offered - set(COMMANDS) == {"install-desktop", "server-password", "check-server"}
    assert set(COMMANDS) <= offered


_DDL = re.compile(r"\b(CREATE\s+(UNIQUE\s+)?(TABLE|INDEX|TRIGGER|VIRTUAL\s+TABLE|FUNCTION|"
                  r"EXTENSION|VIEW)|ALTER\s+TABLE|DROP\s+(TABLE|INDEX|TRIGGER|FUNCTION))\b")


def _ddl_outside_migrations() -> list[str]:
    found = []
    for module, path in MODULES.items():
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                    and _DDL.search(node.value) and not _is_docstring(node, path):
                found.append(f"{module}:{node.lineno}")
    return found


def _is_docstring(node: ast.Constant, path: Path) -> bool:
    return any(isinstance(owner, ast.Module | ast.ClassDef | ast.FunctionDef)
               and owner.body and isinstance(owner.body[0], ast.Expr)
               and owner.body[0].value is node
               for owner in ast.walk(ast.parse(path.read_text("utf-8"))))


def test_schema_changes_only_in_the_migrations() -> None:
    """One chain of schema changes (issue 42): no statement that makes or changes the
    schema is written outside storage/migrations/ (PostgreSQL had its own schema and
    upgrades beside the migrations). ``storage/schema.sql`` is generated from the chain
    and checked equal to it (tests/test_storage.py)."""
    assert _ddl_outside_migrations() == []


#: The database's libraries: only storage/ imports them (issue 42, one way in).
_DRIVERS = ("sqlalchemy", "sqlmodel", "sqlite3", "psycopg", "alembic")
_SQL = re.compile(r"^\s*(SELECT\s.*\bFROM\s|SELECT\s+\w+\(|INSERT\s+INTO\s|UPDATE\s+\w+\s+SET\s|"
                  r"DELETE\s+FROM\s|PRAGMA\s|VACUUM\b)", re.S)


def _outside_storage() -> Iterator[tuple[str, ast.AST]]:
    for module, path in MODULES.items():
        if module.split(".")[0] != "storage":
            for node in ast.walk(ast.parse(path.read_text("utf-8"))):
                yield module, node


def test_only_storage_reaches_the_database() -> None:
    """One way into the database (issue 42): no module outside storage/ imports
    SQLAlchemy, SQLModel, a driver or alembic, so none builds a query or runs one; nor does
    it hold a statement as text. What the layers above name is storage's: its
    repositories' functions, the rows of ``storage/models.py`` (their session's unit of
    work: ``get`` by key, ``add``, ``delete``), and the types ``storage.database`` gives
    (``Session``, ``Conflict``)."""
    imports, statements = [], []
    for module, node in _outside_storage():
        names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                 else [node.module or ""] if isinstance(node, ast.ImportFrom) and not node.level
                 else [])
        imports += [f"{module}:{getattr(node, 'lineno', 0)} {n}" for n in names
                    if n.split(".")[0] in _DRIVERS]
        if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                and _SQL.match(node.value):
            statements.append(f"{module}:{node.lineno}")
    assert imports == []
    assert statements == []


def test_the_reach_check_sees_a_query_built_outside() -> None:
    """The check above fails on what it is meant to find."""
    tree = ast.parse("from sqlmodel import select\nrows = 'SELECT id FROM message'\n")
    found = [n for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)
             and (n.module or "").split(".")[0] in _DRIVERS]
    texts = [n for n in ast.walk(tree) if isinstance(n, ast.Constant)
             and isinstance(n.value, str) and _SQL.match(n.value)]
    assert len(found) == 1 and len(texts) == 1


def _fixed_waits_then_absence(tree: ast.AST) -> list[int]:
    """Lines where a fixed wait (``qtbot.wait(N)``, ``time.sleep(N)``) is followed by an
    assertion that something did not happen: on a slow machine it passes having tested
    nothing (issue 42). A wait for the event itself (``waitUntil``, ``waitSignal``, a
    process's exit) says when to look."""
    found = []
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if not isinstance(body, list):
            continue
        for before, after in itertools.pairwise(body):
            call = before.value if isinstance(before, ast.Expr) else None
            fixed = (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
                     and call.func.attr in ("wait", "sleep") and call.args
                     and isinstance(call.args[0], ast.Constant))
            if fixed and isinstance(after, ast.Assert):
                test = ast.unparse(after.test)
                if test.startswith("not ") or any(
                        s in test for s in (" == []", " is None", " == 0", " == ''", ' == ""')):
                    found.append(before.lineno)
    return found


def test_no_test_asserts_an_absence_after_a_fixed_wait() -> None:
    offenders = [f"{path.name}:{line}" for path in sorted((REPO / "tests").glob("*.py"))
                 for line in _fixed_waits_then_absence(ast.parse(path.read_text("utf-8")))]
    assert offenders == []


def test_the_wait_check_sees_an_absence_after_a_fixed_wait() -> None:
    bad = ast.parse("def t(qtbot, box):\n    qtbot.wait(700)\n    assert not box.isVisible()\n")
    good = ast.parse("def t(qtbot, box):\n    qtbot.waitUntil(box.isHidden)\n"
                     "    assert not box.isVisible()\n")
    assert _fixed_waits_then_absence(bad) == [2] and _fixed_waits_then_absence(good) == []


def test_storage_offers_one_session_type() -> None:
    """One session type (issue 42: the layers above named a Session, a Connection, or
    ``Session | Connection``): no public function or method of storage takes, gives or
    yields a Connection; ``storage/rows.py`` alone turns a session into its connection for
    the Core statements inside storage."""
    offenders = []
    for path in sorted((REPO / "storage").rglob("*.py")):
        if "/migrations/" in path.as_posix() or path.name == "rows.py":
            continue
        tree = ast.parse(path.read_text("utf-8"))
        public = [n for n in tree.body if isinstance(n, ast.FunctionDef)]
        for cls in (n for n in tree.body if isinstance(n, ast.ClassDef)):
            if not cls.name.startswith("_"):
                public += [n for n in cls.body if isinstance(n, ast.FunctionDef)]
        for fn in public:
            if fn.name.startswith("_"):
                continue
            annotations = [a.annotation for a in (*fn.args.args, *fn.args.kwonlyargs)]
            for annotation in (*annotations, fn.returns):
                if annotation is not None and "Connection" in ast.unparse(annotation) \
                        and "sqlite3." not in ast.unparse(annotation):
                    offenders.append(f"{path.relative_to(REPO)}:{fn.lineno} {fn.name}")
    assert offenders == []
