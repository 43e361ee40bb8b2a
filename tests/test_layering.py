"""The layers of docs/architecture.md hold: no import points up.

    engine   sim/ (but sim/api)                  the games, the runner, run folders
    players  strategies/                         built-in and search players, strategy names
    analysis analysis/                           statistics of logs
    reports  reports/                            documents, figures, terminal text
    facade   sim/api/                            the library API (`from sim import run ...`)
    scripts  scripts/                            the command line: parse, call, print

A module may import its own layer and the layers below it: the players are built on the engine's
rules and loop, and the engine is handed them by each game's contract (module names, checked at
registration: sim/game_contract.py), never by an import. There is no exception: the
statistics (sim/stats.py) and the one number format (sim/formatting.py) sit in the engine
layer because the engine uses them (the precision stop of a growing run, the strategy
listing, the Surfers calibration's table), and everything above builds on them. Every import
statement counts, also one inside a function (a lazy import is still a dependency).
No toolkit module imports another that (through any chain) imports it back: the scripts
modules included (scripts/cli.py registers the others).
"""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ORDER = ["engine", "players", "analysis", "reports", "facade", "scripts"]
PACKAGES = ("sim", "strategies", "analysis", "reports", "scripts")


def layer(module: str) -> str | None:
    parts = module.split(".")
    if parts[0] not in PACKAGES:
        return None
    if parts[:2] == ["sim", "api"]:
        return "facade"
    return {"sim": "engine", "strategies": "players", "analysis": "analysis",
            "reports": "reports", "scripts": "scripts"}[parts[0]]


def module_name(path: Path) -> str:
    rel = path.relative_to(ROOT).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def imports(path: Path, me: str | None = None) -> list:
    """(line, imported module) of every import statement in the file."""
    tree = ast.parse(path.read_text(), str(path))
    me = me or module_name(path)
    package = me if path.name == "__init__.py" else me.rpartition(".")[0]
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - (node.level - 1)]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            # `from sim import api` names a module too
            out += [(node.lineno, f"{mod}.{a.name}") if f"{mod}.{a.name}".split(".")[:2] == ["sim", "api"]
                    else (node.lineno, mod) for a in node.names]
    return out


def toolkit_files():
    for pkg in PACKAGES:
        yield from sorted((ROOT / pkg).rglob("*.py"))


def violations(files=None):
    """Upward imports in `files` ([(path, module name)], default: every toolkit module)."""
    bad = []
    for path, me in files or [(p, module_name(p)) for p in toolkit_files()]:
        mine = layer(me)
        for line, target in imports(path, me):
            theirs = layer(target)
            if theirs is None:
                continue
            if ORDER.index(theirs) > ORDER.index(mine):
                bad.append(f"{me} line {line}: {mine} imports {target} ({theirs})")
    return bad


def test_no_import_points_against_the_layers():
    assert violations() == []


def test_the_layering_check_sees_an_upward_import(tmp_path):
    """The check itself can fail: a lazy engine import of reports, an analysis import of the
    facade are found; the statistics leaf from the engine is allowed."""
    probe = tmp_path / "probe.py"
    probe.write_text("import numpy\nfrom sim.stats import z_value\n"
                     "def f():\n    from reports.document import Table\n")
    assert violations([(probe, "sim.probe")]) == [
        "sim.probe line 4: engine imports reports.document (reports)"]
    probe.write_text("def f():\n    from strategies.registry import resolve_strategies\n")
    assert violations([(probe, "sim.probe")]) == [
        "sim.probe line 2: engine imports strategies.registry (players)"]
    assert violations([(probe, "analysis.probe")]) == []
    probe.write_text("from sim import api\n")
    assert violations([(probe, "analysis.probe")]) == [
        "analysis.probe line 1: analysis imports sim.api (facade)"]
    assert violations([(probe, "scripts.probe")]) == []


# what plays games: the analysis layer measures logs handed to it and never plays (issue 25,
# item 6: the report's card check plays in the facade, sim/api/card_check.py)
PLAYING_MODULES = ("sim.harness", "sim.counterfactual", "sim.processes", "sim.rotation",
                   "joblib", "dask")
PLAYING_NAMES = {"run_configs", "run_many", "play_states", "play_chunk", "scan"}


def playing_imports(path: Path, me: str) -> list:
    """The imports of `path` that play games: a playing module (`import joblib`, `from sim
    import counterfactual`), or a playing function imported by name from the engine (`from
    sim.designer import run_configs`)."""
    def playing(target):
        return any(target == m or target.startswith(m + ".") for m in PLAYING_MODULES)
    bad = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            bad += [(node.lineno, a.name) for a in node.names if playing(a.name)]
        elif isinstance(node, ast.ImportFrom) and not node.level:
            mod = node.module or ""
            for a in node.names:
                full = f"{mod}.{a.name}"
                if playing(mod) or playing(full) or (mod.startswith("sim") and
                                                     a.name in PLAYING_NAMES):
                    bad.append((node.lineno, full))
    return [f"{me} line {line}: imports {target}" for line, target in sorted(bad)]


def test_the_analysis_layer_plays_no_games(tmp_path):
    files = sorted((ROOT / "analysis").rglob("*.py"))
    assert [b for p in files for b in playing_imports(p, module_name(p))] == []
    probe = tmp_path / "probe.py"     # the check can fail
    probe.write_text("def f():\n    from sim.designer import run_configs\n"
                     "    from sim import counterfactual\n")
    assert playing_imports(probe, "analysis.probe") == [
        "analysis.probe line 2: imports sim.designer.run_configs",
        "analysis.probe line 3: imports sim.counterfactual"]


# what reads files: the analysis layer is handed opened run folders and their logs
# (sim.run_folder.RunFolder / Logs) and never opens a file or a folder itself
READING_MODULES = ("sim.run_folder", "sim.runner", "sim.snapshots", "sim.registry",
                   "pyarrow.parquet", "pyarrow.dataset", "os", "pathlib", "shutil", "glob",
                   "io")
READING_CALLS = {"open", "read_parquet", "read_csv", "read_json", "read_table", "read_text",
                 "read_bytes", "listdir", "scandir", "walk", "read_schema", "ParquetFile"}


def reading_uses(path: Path, me: str) -> list:
    """The imports of a file-reading module and the calls of a reading function in `path`."""
    def reading(target):
        return any(target == m or target.startswith(m + ".") for m in READING_MODULES)
    bad = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            bad += [(node.lineno, f"imports {a.name}") for a in node.names if reading(a.name)]
        elif isinstance(node, ast.ImportFrom) and not node.level and reading(node.module or ""):
            bad.append((node.lineno, f"imports {node.module}"))
        elif isinstance(node, ast.Call):
            f = node.func
            name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) \
                else None
            if name in READING_CALLS:
                bad.append((node.lineno, f"calls {name}()"))
    return [f"{me} line {line}: {what}" for line, what in sorted(bad)]


def test_the_analysis_layer_reads_no_file(tmp_path):
    """analysis/ takes what it is handed (frames, opened run folders, texts) and returns
    findings: no file or folder is opened there (the callers open run folders through
    sim/run_folder.py)."""
    files = sorted((ROOT / "analysis").rglob("*.py"))
    assert [b for p in files for b in reading_uses(p, module_name(p))] == []
    probe = tmp_path / "probe.py"     # the check can fail
    probe.write_text("import os\ndef f(d):\n    from sim.runner import chunk_files\n"
                     "    return open(d).read(), pd.read_parquet(d)\n")
    assert reading_uses(probe, "analysis.probe") == [
        "analysis.probe line 1: imports os", "analysis.probe line 3: imports sim.runner",
        "analysis.probe line 4: calls open()", "analysis.probe line 4: calls read_parquet()"]


def test_scripts_modules_import_one_another_without_a_cycle():
    graph = {}
    for path in sorted((ROOT / "scripts").glob("*.py")):
        me = module_name(path)
        graph[me] = {t for _, t in imports(path) if t.startswith("scripts.") and t != me}
    state = {}

    def visit(n, stack):
        state[n] = "open"
        for m in graph.get(n, ()):
            if state.get(m) == "open":
                raise AssertionError(f"import cycle: {' -> '.join(stack + [n, m])}")
            if m not in state:
                visit(m, stack + [n])
        state[n] = "done"
    for n in graph:
        if n not in state:
            visit(n, [])


def module_imports(path: Path, me: str, known: set) -> set:
    """The toolkit modules a file imports: `from pkg import name` counts as pkg.name when
    that is a module (a package's __init__ is not the module it re-exports)."""
    tree = ast.parse(path.read_text(), str(path))
    package = me if path.name == "__init__.py" else me.rpartition(".")[0]
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[:len(parts) - (node.level - 1)] +
                                ([node.module] if node.module else []))
            out |= {f"{base}.{a.name}" if f"{base}.{a.name}" in known else base
                    for a in node.names}
    return {m for m in out if m in known and m != me}


def import_cycle(graph: dict) -> list | None:
    """One import cycle of `graph` (module -> modules it imports) as a path, or None."""
    state = {}

    def visit(n, stack):
        state[n] = "open"
        for m in sorted(graph.get(n, ())):
            if state.get(m) == "open":
                return stack + [n, m]
            if m not in state:
                found = visit(m, stack + [n])
                if found:
                    return found
        state[n] = "done"
        return None
    for n in sorted(graph):
        if n not in state:
            found = visit(n, [])
            if found:
                return found[found.index(found[-1]):]
    return None


def toolkit_import_graph() -> dict:
    files = {module_name(p): p for p in toolkit_files()}
    return {me: module_imports(path, me, set(files)) for me, path in files.items()}


def test_no_import_cycle_between_toolkit_modules():
    """Every import statement counts, lazy ones too: a circle (sim.designer -> sim.runner ->
    sim.rotation -> sim.designer was one) means neither module can be read or loaded first."""
    cycle = import_cycle(toolkit_import_graph())
    assert cycle is None, f"import cycle: {' -> '.join(cycle)}"


def test_the_cycle_check_finds_a_cycle():
    assert import_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == ["a", "b", "c", "a"]
    assert import_cycle({"a": {"b"}, "b": set()}) is None


def test_import_sim_stays_light():
    """`import sim` loads neither numba, pandas nor matplotlib: the API names are lazy."""
    import subprocess
    import sys
    code = ("import sys, sim; heavy = [m for m in ('numba', 'pandas', 'matplotlib', 'scipy') "
            "if m in sys.modules]; assert not heavy, heavy; assert callable(sim.run); "
            "from sim import run, open_run, compare, sweep, tune, ladder")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)
