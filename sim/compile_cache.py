"""A compile cache folder per game and per user strategy file (numba's on-disk cache).

Numba keys a cached function on its own source file only: a kernel that calls into another
file would load stale machine code after an edit of that other file. So every cached
function is stored in a folder named after a label and a hash of the sources it may compile
in:

* a game's functions (files under `sim/games/<game>/`, `strategies/<game>*.py`) and the
  harness's kernels of that game: the folder `<game>-<hash>`, the hash over the game's own
  files, the harness and the search players, and every toolkit file they import at module
  level (rng, records, events, ...). Editing one game's nb.py recompiles that game only.
* the kernels around a user's strategy file: `<game>+<file stem>-<hash>`, the hash adding the
  user's file and the files next to it or in the toolkit that it imports: the second run of
  the same file loads its play loop from here.
* any other cached function (sim/rng.py, a test's toy game, a user's own @njit helper):
  `<module>-<hash>` over its file and what it imports.

Imports are read from the source (module level, `ast`), not executed, once per version of
each file (IMPORTS_FILE in the toolkit's cache folder); files of installed packages (numpy,
numba) are not hashed, as numba does not either.

numba finds these folders through `FolderPerGameLocator`, which sim/__init__.py names in
NUMBA_CACHE_LOCATOR_CLASSES. Under the toolkit's own folder (~/.cache/balance-toolkit/kernels)
each folder this module creates holds a marker file (MARKER); when a new folder of a label is
created there, the oldest folders of the same label beyond KEEP_PER_LABEL are removed, and
only folders holding the marker (written by this module): a folder the toolkit did not write
is never deleted. Under a NUMBA_CACHE_DIR the user chose, nothing is marked or removed.
"""
from __future__ import annotations

import ast
import functools
import hashlib
import json
import os
import shutil
import sys
import types
from pathlib import Path

from numba.core import config
from numba.core.caching import UserProvidedCacheLocator

from sim import numba_calls, numba_startup

# numba imports this module as soon as a toolkit function with cache=True is decorated:
# before anything compiles, a function only compiled code calls gets no wrapper, no machine
# code of its own and one full optimisation, in its kernel (sim/numba_calls.py), and numba's
# first compile or load imports no scipy (sim/numba_startup.py)
if numba_calls.install():
    numba_startup.install()

ROOT = Path(__file__).resolve().parent.parent
GAMES_DIR = ROOT / "sim" / "games"
PLATFORM_KERNEL_FILES = (ROOT / "sim" / "harness.py", ROOT / "strategies" / "search.py")
# a game's files with compiled code that no play kernel imports (the per-round snapshot, read
# by sim/snapshots.py only): left out of the game's key, so adding or editing one recompiles
# none of the game's kernels; numba's own stamp of each file (its SHA-256) still keys them
OUTSIDE_PLAY_KERNELS = ("snapshot.py",)
MARKER = ".balance-toolkit-cache"
KEEP_PER_LABEL = 16   # versions kept per label (other checkouts and branches on one machine)
GROUP_ATTRIBUTE = "_compile_group"   # (label, files) set by sim.harness.instantiate
_INSTALLED = tuple(os.path.realpath(p) for p in {sys.prefix, sys.base_prefix, sys.exec_prefix})


def _installed(path: str) -> bool:
    return any(path == p or path.startswith(p + os.sep) for p in _INSTALLED)


@functools.lru_cache(maxsize=None)
def _imports(path: str, mtime: float, size: int) -> tuple:
    """(module name, imported names, level) of each module-level import of `path`: parsed
    once per version of the file (its SHA-256), kept in the toolkit's cache folder."""
    try:
        digest = _file_digest(path, mtime, size).hex()
    except OSError:
        return ()
    stored = _stored_imports().get(path)
    if isinstance(stored, list) and len(stored) == 2 and stored[0] == digest:
        try:
            return tuple((str(m), tuple(map(str, names)), int(level))
                         for m, names, level in stored[1])
        except (TypeError, ValueError):
            pass                   # a damaged entry: parsed again below
    found = _parsed_imports(path)
    _store_imports(path, digest, found)
    return found


def _parsed_imports(path: str) -> tuple:
    try:
        tree = ast.parse(Path(path).read_bytes())
    except (OSError, SyntaxError, ValueError):
        return ()
    found = []

    def visit(body):
        for node in body:
            if isinstance(node, ast.Import):
                found.extend((a.name, (), 0) for a in node.names)
            elif isinstance(node, ast.ImportFrom):
                found.append((node.module or "", tuple(a.name for a in node.names), node.level))
            elif isinstance(node, (ast.If, ast.Try, ast.With)):
                for part in ("body", "orelse", "finalbody"):
                    visit(getattr(node, part, ()))
                for handler in getattr(node, "handlers", ()):
                    visit(handler.body)
    visit(tree.body)
    return tuple(found)


# The imports each source file makes, kept in the toolkit's own cache folder per version of
# the file (its SHA-256, which the folder's hash reads anyway): parsing a game's dozen-odd
# files costs about 0.05 s, which every process that loads a kernel (a run, each worker)
# would pay again. Only under the toolkit's own folder: under a NUMBA_CACHE_DIR the user
# chose, the toolkit writes none of its own files.
IMPORTS_FILE = "compile-imports.json"
_IMPORTS: dict = {}


def _imports_path() -> str | None:
    import sim
    root = getattr(sim, "TOOL_CACHE_ROOT", None)
    return None if root is None else os.path.join(root, IMPORTS_FILE)


def _stored_imports() -> dict:
    if "loaded" not in _IMPORTS:
        _IMPORTS["loaded"] = {}
        path = _imports_path()
        if path is not None:
            try:
                with open(path, encoding="utf-8") as fh:
                    data = json.load(fh)
                _IMPORTS["loaded"] = data if isinstance(data, dict) else {}
            except (OSError, ValueError):
                pass          # none yet or unreadable: the sources are parsed
    return _IMPORTS["loaded"]


def _store_imports(path: str, digest: str, found: tuple) -> None:
    """Adds one file's imports and writes the whole file again (atomically: a concurrent
    process reads the old or the new one; the last writer's entries win, a lost one is only
    parsed again). Files that no longer exist (a test's temporary modules) are left out."""
    stored = _stored_imports()
    stored[path] = [digest, [[m, list(names), level] for m, names, level in found]]
    for gone in [name for name in stored if not os.path.isfile(name)]:
        del stored[gone]
    target = _imports_path()
    if target is None:
        return
    try:
        os.makedirs(os.path.dirname(target), exist_ok=True)
        tmp = f"{target}.{os.getpid()}.tmp"
        with open(tmp, "w", encoding="utf-8") as fh:
            json.dump(stored, fh)
        os.replace(tmp, target)
    except OSError:
        pass                  # a speed-up only: the next process parses again


def _module_file(base: Path, dotted: str) -> Path | None:
    if not dotted:
        return base / "__init__.py" if (base / "__init__.py").is_file() else None
    stem = base.joinpath(*dotted.split("."))
    for candidate in (stem.with_suffix(".py"), stem / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def _resolve(path: Path, module: str, names: tuple, level: int) -> list:
    """The source files an import statement of `path` reads: searched in the toolkit and
    next to the importing file (a user's helper module); relative imports in its package."""
    if level:
        bases = [path.parent.parents[level - 2] if level > 1 else path.parent]
    else:
        bases = [ROOT, path.parent]
    files = []
    for base in bases:
        found = _module_file(base, module)
        if found is None:
            continue
        subs = [_module_file(base, f"{module}.{name}" if module else name) for name in names]
        files += [sub for sub in subs if sub is not None]   # `from package import submodule`
        if not subs or None in subs:    # a name of the module itself (not only submodules)
            files.append(found)
        break
    return files


@functools.lru_cache(maxsize=None)
def _real(path: str) -> str:
    """os.path.realpath, once per path and process: every cached function asks again for
    the files of its module's globals (thousands of calls as a worker starts)."""
    return os.path.realpath(path)


def closure(seeds) -> tuple:
    return _closure(tuple(sorted({_real(os.fspath(s)) for s in seeds})))


@functools.lru_cache(maxsize=None)
def _closure(seeds: tuple) -> tuple:
    """The files `seeds` import at module level, transitively, with the seeds; installed
    packages' files left out. Sorted real paths."""
    todo = list(seeds)
    seen = set()
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        todo.extend(_direct(path))
    return tuple(sorted(p for p in seen if _is_source(p)))


@functools.lru_cache(maxsize=None)
def _is_source(path: str) -> bool:
    return not _installed(path) and os.path.isfile(path)


@functools.lru_cache(maxsize=None)
def _direct(path: str) -> tuple:
    """The real paths of the toolkit's (or the user's) files `path` imports at module level."""
    if not _is_source(path):
        return ()
    st = os.stat(path)
    found = []
    for module, names, level in _imports(path, st.st_mtime, st.st_size):
        found += [os.path.realpath(f) for f in _resolve(Path(path), module, names, level)]
    return tuple(found)


@functools.lru_cache(maxsize=None)
def _file_digest(path: str, mtime: float, size: int) -> bytes:
    with open(path, "rb") as fh:
        return hashlib.sha256(fh.read()).digest()


def sources_hash(files) -> str:
    """A hash of the files' names (relative to the toolkit when inside it) and contents."""
    stamps = []
    for name in sorted(set(files)):
        st = os.stat(name)
        stamps.append((name, st.st_mtime, st.st_size))
    return _stamps_hash(tuple(stamps))


@functools.lru_cache(maxsize=None)
def _stamps_hash(stamps: tuple) -> str:
    """sources_hash of files as they are now ((name, mtime, size) each): every function of a
    game asks for the same files' hash as a worker starts."""
    digest = hashlib.sha256()
    for name, mtime, size in stamps:
        path = Path(name)
        shown = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
        digest.update(str(shown).encode() + b"\0")
        digest.update(_file_digest(name, mtime, size))
    return digest.hexdigest()[:16]


def game_of(path) -> str | None:
    """The game owning a source file: sim/games/<game>/..., strategies/<game>.py or
    strategies/<game>_*.py."""
    return _game_of(_real(os.fspath(path)))


@functools.lru_cache(maxsize=None)
def _game_of(real: str) -> str | None:
    path = Path(real)
    if path.is_relative_to(GAMES_DIR) and len(path.relative_to(GAMES_DIR).parts) > 1:
        return path.relative_to(GAMES_DIR).parts[0]
    if path.parent == ROOT / "strategies":
        stem = path.stem.split("_")[0]
        if (GAMES_DIR / stem).is_dir():
            return stem
    return None


@functools.lru_cache(maxsize=None)
def game_files(game: str) -> tuple:
    """What a game's kernels may compile in: the files of its package and strategies that
    hold compiled code (they import numba), the harness and the search players, and what
    they import (the game's own enums and tables, rng, records, ...). The game's spec,
    components loader and trace formatter hold no kernel: editing them recompiles nothing."""
    seeds = list(GAMES_DIR.joinpath(game).rglob("*.py"))
    seeds += [p for p in (ROOT / "strategies").glob(f"{game}*.py") if game_of(p) == game]
    seeds = [p for p in seeds if _compiles(p) and p.name not in OUTSIDE_PLAY_KERNELS]
    return closure(seeds + [p for p in PLATFORM_KERNEL_FILES if p.is_file()])


def _compiles(path: Path) -> bool:
    st = path.stat()
    return any(module.split(".")[0] == "numba"
               for module, _, _ in _imports(str(path), st.st_mtime, st.st_size))


def module_label(path) -> str:
    path = Path(os.path.realpath(path))
    if path.is_relative_to(ROOT):
        return ".".join(path.relative_to(ROOT).with_suffix("").parts)
    return f"user.{path.stem}"


def _globals_files(py_func) -> list:
    """Source files of the functions and modules a function's globals hold (a template
    kernel re-created on a game's functions: strategies/search.py)."""
    files = []
    for value in list(getattr(py_func, "__globals__", {}).values()):
        value = getattr(value, "py_func", value)
        if isinstance(value, (types.FunctionType, types.ModuleType)):
            name = getattr(value, "__file__", None) if isinstance(value, types.ModuleType) \
                else value.__code__.co_filename
            if name and _is_source(_real(name)):
                files.append(name)
    return files


def group_of(py_func, py_file: str) -> tuple:
    """(label, files) of the folder a cached function goes to (the module doc)."""
    explicit = getattr(py_func, GROUP_ATTRIBUTE, None)
    if explicit is not None:
        return explicit
    files = closure([py_file] + _globals_files(py_func))
    game = game_of(py_file)
    if game is None and module_label(py_file).startswith(("sim.", "strategies.")):
        game = next((g for g in map(game_of, files) if g), None)   # a search player's kernel
    if game is not None:
        whole = game_files(game)
        if set(files) <= set(whole):
            return game, whole
    return module_label(py_file), files


def folder_for(base: str, label: str, files) -> str:
    return os.path.join(base, f"{label}-{sources_hash(files)}")


_PREPARED: set = set()


def prepare_folder(folder: str, prune_root: str | None) -> None:
    """Create `folder`; under the toolkit's own folder (`prune_root`) with its marker
    (refreshed once per process: the newest folders are the ones in use), and on creation
    prune the older folders of its label there."""
    if folder in _PREPARED:
        return
    _PREPARED.add(folder)
    created = not os.path.isdir(folder)
    os.makedirs(folder, exist_ok=True)
    if prune_root is None:     # a folder the user chose: numba's files only, none of ours
        return
    marker = os.path.join(folder, MARKER)
    try:
        with open(marker, "a", encoding="utf-8"):
            pass
        os.utime(marker)
    except OSError:
        return
    if created and prune_root is not None:
        prune_label(prune_root, os.path.basename(folder))


def prune_label(root: str, keep_name: str) -> list:
    """Remove the folders of `keep_name`'s label beyond the KEEP_PER_LABEL newest (by their
    marker's time); only folders holding the marker. Returns the removed paths."""
    label = keep_name.rsplit("-", 1)[0]
    mine = []
    try:
        names = os.listdir(root)
    except OSError:
        return []
    for name in names:
        marker = os.path.join(root, name, MARKER)
        if name != keep_name and name.rsplit("-", 1)[0] == label and os.path.isfile(marker):
            try:
                mine.append((os.path.getmtime(marker), os.path.join(root, name)))
            except OSError:
                continue
    removed = []
    for _, old in sorted(mine, reverse=True)[KEEP_PER_LABEL - 1:]:
        shutil.rmtree(old, ignore_errors=True)   # another process may be pruning too
        removed.append(old)
    return removed


def tool_folder() -> str:
    """The toolkit's own cache folder (sim/__init__.py sets NUMBA_CACHE_DIR to it when the
    user chose none)."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "balance-toolkit", "kernels")


def prune_root() -> str | None:
    """Where pruning is allowed: the toolkit's own cache folder (None when the user chose
    another NUMBA_CACHE_DIR: the toolkit removes nothing there)."""
    chosen = os.environ.get("NUMBA_CACHE_DIR")
    return chosen if chosen and _same_folder(chosen, tool_folder()) else None


@functools.lru_cache(maxsize=None)
def _same_folder(a: str, b: str) -> bool:
    """Once per pair and process: every cached function asks as its module is imported."""
    return os.path.realpath(a) == os.path.realpath(b)


class FolderPerGameLocator(UserProvidedCacheLocator):
    """numba's cache locator: the folder of the function's group under NUMBA_CACHE_DIR."""

    def __init__(self, py_func, py_file):
        super().__init__(py_func, py_file)
        label, files = group_of(py_func, py_file)
        self._cache_path = folder_for(config.CACHE_DIR, label, files)

    def ensure_cache_path(self):
        prepare_folder(self._cache_path, prune_root())
        super().ensure_cache_path()

    def get_source_stamp(self):
        """The file's content, not its time: a fresh clone, a `git checkout` or a copy of the
        same sources loads what was compiled (numba's default stamp is the mtime, which a
        clone changes and an edit within the same second may not)."""
        st = os.stat(self._py_file)
        return ("sha256", _file_digest(os.path.realpath(self._py_file), st.st_mtime,
                                       st.st_size).hex())
