"""The import rules of docs/ARCHITECTURE.md, checked on the source of every module.

Every `import` is read with `ast`, lazy imports inside functions included:
* `engine` imports nothing of `bot`, `cogs`, `data` or `discord`;
* `data` imports nothing of `bot`, `cogs` or `discord`;
* the table layer (`cogs.tables`) and `cogs.words` import neither `discord` nor a cog nor `bot`;
* the pictures (`cogs.pictures`) import only `engine` (no `discord`, `data`, cog or `bot`);
* the words' helpers are Discord-free too: `cogs.glossary` (the game's vocabulary) and
  `cogs.callouts` (the table's shouts) import only the engine, `cogs.glossary` and `cogs.i18n`,
  and `cogs.i18n` (catalogues, languages) nothing of ours;
* `cogs.guard` (the edge every interaction passes) imports nothing of ours but `cogs.i18n`, so
  its refusals are in the catalogues like every other sentence;
* no two modules import each other, directly or around a circle. Imports under
  `if TYPE_CHECKING:` never run, so they count for the layer rules but not for circles.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "data", "cogs", "bot")

# (modules the rule applies to, prefixes they must not import, exceptions to those prefixes)
RULES: tuple[tuple[str, tuple[str, ...], tuple[str, ...]], ...] = (
    ("engine", ("bot", "cogs", "data", "discord"), ()),
    ("data", ("bot", "cogs", "discord"), ()),
    ("cogs.tables", ("bot", "cogs", "discord"), ("cogs.tables",)),
    ("cogs.pictures", ("bot", "cogs", "data", "discord"), ("cogs.pictures",)),
    ("cogs.words", ("bot", "cogs", "discord"),
     ("cogs.tables", "cogs.words", "cogs.glossary", "cogs.i18n")),
    ("cogs.glossary", ("bot", "cogs", "data", "discord"), ("cogs.glossary", "cogs.i18n")),
    ("cogs.callouts", ("bot", "cogs", "data", "discord"),
     ("cogs.callouts", "cogs.glossary", "cogs.i18n")),
    ("cogs.i18n", ("bot", "cogs", "data", "discord", "engine"), ("cogs.i18n",)),
    ("cogs.guard", ("bot", "cogs", "data", "engine"), ("cogs.guard", "cogs.i18n")),
)


@dataclass(frozen=True)
class Import:
    target: str
    line: int
    type_only: bool


def _within(name: str, prefix: str) -> bool:
    return name == prefix or name.startswith(prefix + ".")


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def imports_of(source: str, module: str, *, is_package: bool,
               known: Iterable[str] = ()) -> list[Import]:
    """Every module `module` imports (relative imports resolved; `from p import m` names the
    submodule `p.m` when it is one of the `known` modules)."""
    modules = set(known)
    tree = ast.parse(source)
    type_only_nodes: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            for child in node.body:
                type_only_nodes.update(id(n) for n in ast.walk(child))
    found: list[Import] = []
    for node in ast.walk(tree):
        type_only = id(node) in type_only_nodes
        if isinstance(node, ast.Import):
            found += [Import(alias.name, node.lineno, type_only) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = module.split(".")
                keep = len(parts) - node.level + (1 if is_package else 0)
                base = ".".join(parts[:keep])
                name = f"{base}.{node.module}" if node.module else base
            else:
                name = node.module or ""
            for alias in node.names:
                sub = f"{name}.{alias.name}"
                found.append(Import(sub if sub in modules else name, node.lineno, type_only))
    return found


def layer_violations(graph: Mapping[str, list[Import]]) -> list[str]:
    out = []
    for module, imports in graph.items():
        for scope, forbidden, allowed in RULES:
            if not _within(module, scope):
                continue
            for imp in imports:
                if any(_within(imp.target, bad) for bad in forbidden) and not any(
                    _within(imp.target, ok) for ok in allowed
                ):
                    out.append(f"{module}:{imp.line} imports {imp.target}")
    return sorted(out)


def cycles(graph: Mapping[str, list[Import]]) -> list[list[str]]:
    """Circles of run-time imports between modules of the graph (strongly connected parts)."""
    edges = {
        m: sorted({i.target for i in imports if i.target in graph and not i.type_only} - {m})
        for m, imports in graph.items()
    }
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                part.append(w)
                if w == v:
                    break
            if len(part) > 1:
                found.append(sorted(part))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def project_graph(root: Path = ROOT) -> dict[str, list[Import]]:
    files: dict[str, tuple[Path, bool]] = {}
    for package in PACKAGES:
        for path in (root / package).rglob("*.py"):
            parts = list(path.relative_to(root).with_suffix("").parts)
            is_package = parts[-1] == "__init__"
            if is_package:
                parts.pop()
            files[".".join(parts)] = (path, is_package)
    return {
        name: imports_of(path.read_text(encoding="utf-8"), name, is_package=is_package,
                         known=files)
        for name, (path, is_package) in files.items()
    }


def test_the_project_keeps_its_layers() -> None:
    graph = project_graph()
    assert {"engine.game", "data", "cogs.tables.service", "cogs.tienlen._cog", "bot.app"} <= set(
        graph)
    assert layer_violations(graph) == []


def test_no_two_modules_import_each_other() -> None:
    assert cycles(project_graph()) == []


def test_the_table_layer_reaches_the_engine_and_the_store() -> None:
    """The checker sees real imports (relative and lazy ones included)."""
    graph = project_graph()
    service = {i.target for i in graph["cogs.tables.service"]}
    assert {"data", "engine", "cogs.tables.errors", "cogs.tables.live"} <= service
    scheduling = {i.target for i in graph["cogs.tables.scheduling"]}
    assert "engine" in scheduling


# ---------------------------------------------------------------------- the checker itself
def _graph(sources: Mapping[str, str]) -> dict[str, list[Import]]:
    return {name: imports_of(src, name, is_package=False, known=sources)
            for name, src in sources.items()}


@pytest.mark.parametrize(
    ("module", "source"),
    [
        ("engine.game", "import discord\n"),
        ("engine.game", "def later():\n    from cogs.tables import service\n"),  # lazy
        ("engine.game", "from data.models import Seat\n"),
        ("data.store", "from bot.app import TienLenBot\n"),
        ("cogs.tables.service", "from discord import ui\n"),
        ("cogs.tables.service", "from cogs.tienlen import _render\n"),
        ("cogs.tables.service", "from ..tienlen import _render\n"),  # relative
        ("cogs.tables.service", "from cogs import selection\n"),  # any cog module
        ("cogs.words", "import discord.ui\n"),
        ("cogs.guard", "from cogs import words\n"),
        ("cogs.guard", "from cogs.tables import TableService\n"),
        ("cogs.guard", "from engine import Rules\n"),
        ("cogs.tables.live", "from typing import TYPE_CHECKING\n"
                             "if TYPE_CHECKING:\n    import discord\n"),
    ],
)
def test_a_forbidden_import_fails_the_check(module: str, source: str) -> None:
    graph = _graph({module: source, "cogs.tienlen._render": ""})
    assert layer_violations(graph), source


def test_allowed_imports_pass_the_check() -> None:
    graph = _graph({
        "engine.game": "from engine.cards import Card\n",
        "data.store": "from engine import Rules\n",
        "cogs.tables.service": "from data import Store\nfrom engine import Game\n",
        "cogs.tienlen._cog": "import discord\nfrom cogs.tables import TableService\n",
        "cogs.guard": "import discord\nfrom cogs.i18n import Words, words\n",
    })
    assert layer_violations(graph) == []
    assert cycles(graph) == []


def test_a_circle_fails_the_check() -> None:
    graph = _graph({
        "cogs.tienlen._cog": "from . import _render\n",
        "cogs.tienlen._render": "from cogs.tienlen._views import Button\n",
        "cogs.tienlen._views": "def cog():\n    from ._cog import TienLenCog\n",  # lazy
        "cogs.tienlen.selection": "",
    })
    assert cycles(graph) == [["cogs.tienlen._cog", "cogs.tienlen._render", "cogs.tienlen._views"]]


def test_a_type_only_import_is_no_circle() -> None:
    graph = _graph({
        "bot.app": "from cogs.tienlen import board\n",
        "cogs.tienlen": "from typing import TYPE_CHECKING\n"
                        "if TYPE_CHECKING:\n    from bot.app import TienLenBot\n",
    })
    assert cycles(graph) == []
    graph["cogs.tienlen"] = imports_of("from bot.app import TienLenBot\n", "cogs.tienlen",
                                       is_package=True, known=graph)
    assert cycles(graph) == [["bot.app", "cogs.tienlen"]]


def test_two_modules_importing_each_other_fail_the_check() -> None:
    graph = _graph({"engine.a": "import engine.b\n", "engine.b": "from engine import a\n"})
    assert cycles(graph) == [["engine.a", "engine.b"]]
