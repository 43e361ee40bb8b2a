"""A run folder on disk: what the toolkit wrote there, checked before anything is trusted.

One loader for every command that reads a run (`summary`, `report`, `replay`) and for the
runner's resume:

    open_run(dir, ...)  -> RunFolder: the manifest validated (pydantic), every chunk checked
                           against its record (name, size, SHA-256), the component copy checked
                           against the SHA-256 the run recorded, user strategy files (replay
                           only) matched by hash to files the user names on the command line.

Ownership (a user's files are sacred). The toolkit writes into a folder only when it is new,
empty, or holds a run of this toolkit: a `manifest.json` with `"tool": "balance-toolkit"` and
`"format": 2` (the marker). In such a folder the toolkit's own files are exactly:

  * `manifest.json`;
  * the chunk files the manifest records (`chunks/chunk-<12 digits>.parquet`); while a run is
    not complete, also a file at the name of a chunk it plans but has not recorded yet (a
    write cut short by an interruption) and its own temporary files (`chunk-...parquet.tmp`);
  * the copies `components.toml` and `variants.toml`, while their bytes still have the SHA-256
    the manifest recorded (an edited copy is the user's now);
  * the report files listed in `report/report.json` whose bytes are unchanged (REPORT_RECORD).

Everything else (notes, a `chunks/README.txt`, a duplicated `chunk-...(1).parquet`, a chunk at
a name the run does not record) is the user's: never deleted, never overwritten, and named
when it is in the way.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
from dataclasses import dataclass, field
from typing import Any, Literal, Optional

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from sim import limits
from sim.folder_lock import LOCK_NAME
from sim.game_api import ToolkitError

TOOL = "balance-toolkit"
FORMAT = 2
MANIFEST = "manifest.json"
CHUNK_DIR = "chunks"
COMPONENTS_COPY = "components.toml"
VARIANTS_COPY = "variants.toml"
REPORT_DIR = "report"
REPORT_RECORD = "report.json"        # what a report folder's writer wrote (reports/output.py)
CHUNK_RE = re.compile(r"^chunk-(\d{12})\.parquet$")
CHUNK_TMP_RE = re.compile(r"^chunk-\d{12}\.parquet\.tmp$")
_SHA = r"^[0-9a-f]{64}$"


# --- hashing -------------------------------------------------------------------------------------
def sha256_bytes(data) -> str:
    return hashlib.sha256(data).hexdigest()


def sha256_file(path: str) -> str | None:
    """SHA-256 of a file's bytes, read in 4 MB blocks; None when it cannot be read."""
    h = hashlib.sha256()
    try:
        with open(path, "rb") as fh:
            for block in iter(lambda: fh.read(1 << 22), b""):
                h.update(block)
    except OSError:
        return None
    return h.hexdigest()


def chunk_name(first: int) -> str:
    return f"chunk-{first:012d}.parquet"


def read_chunk(path: str, columns: list | None = None):
    """One chunk file as an Arrow table (only `columns`, when given). pyarrow's ParquetFile of
    the one file, not `read_table` (which builds a dataset around it): the same table, read in
    about half the time (32 chunks of a 200,000-game run: 0.06 s against 0.11 s)."""
    import pyarrow.parquet as pq
    return pq.ParquetFile(path).read(columns=columns)


def chunk_ranges(n_games: int, chunk_size: int) -> list[tuple[int, int]]:
    """[(first game index, number of games)] covering 0..n_games-1."""
    return [(first, min(chunk_size, n_games - first)) for first in range(0, n_games, chunk_size)]


def record_of_file(path: str, first: int, games: int) -> dict:
    """The manifest record of a chunk file already on disk (for tools and tests that write a
    run folder themselves; the runner records the bytes it writes)."""
    import pyarrow.parquet as pq
    return {"file": os.path.basename(path), "first": int(first), "games": int(games),
            "rows": int(pq.ParquetFile(path).metadata.num_rows),
            "bytes": os.path.getsize(path), "sha256": sha256_file(path)}


# --- the manifest's shape --------------------------------------------------------------------------
class _Open(BaseModel):
    model_config = ConfigDict(extra="allow")


class ChunkRecord(BaseModel):
    model_config = ConfigDict(extra="forbid")
    file: str = Field(pattern=CHUNK_RE.pattern)
    first: int = Field(ge=0, le=limits.MAX_GAMES)
    games: int = Field(ge=1, le=limits.MAX_GAMES)
    rows: int = Field(ge=0, le=limits.MAX_GAMES * limits.MAX_SEATS)
    bytes: int = Field(ge=0, le=2**62)
    sha256: str = Field(pattern=_SHA)


class ComponentsRecord(_Open):
    path: str
    sha256: str
    copy_file: str = Field(alias="copy")
    copy_sha256: str = Field(pattern=_SHA)       # of the copy: the effective file as played
    overrides: list[str] = []
    copy_overrides_applied: bool = False         # the copy has the overrides written in
    overrides_resolved: list[str] = []   # the same with card names turned into indices


class VariantsRecord(_Open):
    path: str
    copy_file: str = Field(alias="copy")
    copy_sha256: str = Field(pattern=_SHA)


class UserStrategyRecord(_Open):
    path: str
    function: str
    sha256: str = Field(pattern=_SHA)


class ManifestModel(_Open):
    # the numbers within the limits a run is given (sim/limits.py): a manifest edited or
    # damaged to hold others is refused before a plan is built from it
    tool: Literal["balance-toolkit"]
    format: Literal[2]
    status: Literal["running", "complete"]
    run_id: str
    game: str
    players: int = Field(ge=1, le=limits.MAX_SEATS)
    seed: int = Field(ge=0, le=limits.MAX_SEED)
    games: int = Field(ge=1, le=limits.MAX_GAMES)
    chunk_size: int = Field(ge=1, le=limits.MAX_GAMES)
    n_chunks: int = Field(ge=1, le=limits.MAX_CHUNKS)
    strategy_names: list[str]
    strategies: list[dict[str, Any]]
    user_strategies: list[UserStrategyRecord] = []
    components: ComponentsRecord
    variants_file: Optional[VariantsRecord] = None
    chunks: list[ChunkRecord]
    config: dict[str, Any]


def _first_error(exc: ValidationError) -> str:
    errs = exc.errors()
    e = errs[0]
    where = ".".join(str(x) for x in e.get("loc", ())) or "(top level)"
    more = f" (and {len(errs) - 1} more problems)" if len(errs) > 1 else ""
    return f"field '{where}': {e.get('msg', 'invalid')}{more}"


def load_manifest_file(run_dir: str) -> tuple[dict | None, str | None]:
    """(manifest, None) for a valid manifest of this toolkit, else (None, why not).
    A missing manifest gives (None, None)."""
    path = os.path.join(run_dir, MANIFEST)
    if not os.path.isfile(path):
        return None, None
    try:
        with open(path, encoding="utf-8") as fh:
            data = json.load(fh)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        return None, f"{MANIFEST} cannot be read ({exc})"
    if not isinstance(data, dict) or data.get("tool") != TOOL:
        return None, (f"{MANIFEST} was not written by this toolkit (no \"tool\": \"{TOOL}\" "
                      f"marker; runs of toolkit versions before format {FORMAT} have none)")
    if data.get("format") != FORMAT:
        return None, (f"{MANIFEST} has format {data.get('format')!r}; this toolkit reads "
                      f"format {FORMAT}")
    try:
        ManifestModel.model_validate(data)
    except ValidationError as exc:
        return None, f"{MANIFEST} is not a valid run manifest: {_first_error(exc)}"
    try:
        limits.check_plan(data["games"], data["chunk_size"], "chunk_size")
    except ToolkitError as exc:
        return None, f"{MANIFEST} is not a valid run manifest: {exc.lines[0]}"
    chunks = data["chunks"]
    if len({c["file"] for c in chunks}) != len(chunks):
        return None, f"{MANIFEST} is not a valid run manifest: a chunk is recorded twice"
    return data, None


def read_manifest(run_dir: str) -> dict:
    """The validated manifest of a run folder, or one error line."""
    if not os.path.isdir(run_dir):
        raise ToolkitError(f"{run_dir}: no run found here (no such folder)")
    manifest, why = load_manifest_file(run_dir)
    if manifest is None:
        if why is None:
            raise ToolkitError(f"{run_dir}: no run found here ({MANIFEST} missing)")
        raise ToolkitError(f"{run_dir}: {why}")
    return manifest


# --- chunks ------------------------------------------------------------------------------------------
@dataclass
class ChunkCheck:
    """The chunk files of a run folder against its manifest."""
    good: dict = field(default_factory=dict)       # file name -> record, verified
    bad: dict = field(default_factory=dict)        # file name -> why (recorded, file wrong)
    missing: list = field(default_factory=list)    # recorded or (complete run) planned, absent
    unrecorded: list = field(default_factory=list)  # planned, not recorded, file present
    extra: list = field(default_factory=list)      # parquet-like files the run did not write
    tmp: list = field(default_factory=list)        # the toolkit's own temporary files
    other: list = field(default_factory=list)      # anything else in chunks/ (kept, ignored)
    planned: dict = field(default_factory=dict)    # file name -> (first, games)

    def problems(self) -> list[tuple[str, str]]:
        out = [(n, "missing") for n in self.missing]
        out += sorted(self.bad.items())
        out += [(n, "not a chunk this run wrote (an extra or duplicated file); move it out of "
                    "the folder") for n in self.extra]
        return out


_VERIFIED: dict = {}   # (path, size, mtime_ns, sha256) already hashed in this process


def _verify_file(path: str, rec: dict, run_id: str | None = None) -> str | None:
    try:
        st = os.stat(path)
    except OSError:
        return "missing"
    key = (path, st.st_size, st.st_mtime_ns, rec["sha256"])
    if key in _VERIFIED:
        return None
    if st.st_size != rec["bytes"]:
        why = f"damaged or replaced ({st.st_size} bytes, the run wrote {rec['bytes']})"
    elif sha256_file(path) != rec["sha256"]:
        why = "damaged or replaced (its SHA-256 does not match the manifest)"
    else:
        _VERIFIED[key] = True
        return None
    other = _run_id_in(path)
    if other is not None and other != run_id:  # readable, and another run's games
        why = f"holds games of another run (run id {other}), not of this one"
    return why


def _run_id_in(path: str) -> str | None:
    """The run id a chunk file says it belongs to, when it is readable and another run's."""
    try:
        import pyarrow.parquet as pq
        col = pq.read_table(path, columns=["run_id"]).column("run_id").unique()
        ids = [str(x) for x in col.to_pylist()]
        return ids[0] if len(ids) == 1 else None
    except Exception:
        return None


def check_chunks(run_dir: str, manifest: dict) -> ChunkCheck:
    """Compare chunks/ with the manifest: every recorded chunk must be there with its size
    and SHA-256; every parquet-like file there must be a chunk the run recorded (or, while the
    run is not complete, one it plans: an interrupted write, neither counted nor an error)."""
    res = ChunkCheck()
    res.planned = {chunk_name(f): (f, n) for f, n in
                   chunk_ranges(int(manifest["games"]), int(manifest["chunk_size"]))}
    players = int(manifest["players"])
    recorded = {c["file"]: c for c in manifest["chunks"]}
    chunk_dir = os.path.join(run_dir, CHUNK_DIR)
    listing = sorted(os.listdir(chunk_dir)) if os.path.isdir(chunk_dir) else []
    for name in listing:
        if name in recorded:
            continue
        if CHUNK_TMP_RE.match(name):
            res.tmp.append(name)
        elif CHUNK_RE.match(name) and name in res.planned and manifest["status"] != "complete":
            res.unrecorded.append(name)
        elif name.endswith(".parquet") or name.startswith("chunk-"):
            res.extra.append(name)
        else:
            res.other.append(name)
    for name, rec in sorted(recorded.items()):
        plan = res.planned.get(name)
        if plan is None or (rec["first"], rec["games"]) != plan or rec["rows"] != rec["games"] * players:
            res.bad[name] = "recorded for other games than the run's chunking gives"
            continue
        why = _verify_file(os.path.join(chunk_dir, name), rec, manifest.get("run_id"))
        if why == "missing":
            res.missing.append(name)
        elif why is not None:
            res.bad[name] = why
        else:
            res.good[name] = rec
    if manifest["status"] == "complete":
        res.missing += [n for n in res.planned if n not in recorded]
    return res


def chunk_problem_line(run_dir: str, check: ChunkCheck, fix: str) -> str | None:
    """One line naming the first bad chunk file (and how many more), or None."""
    probs = check.problems()
    if not probs:
        return None
    name, why = probs[0]
    line = f"{run_dir}: {CHUNK_DIR}/{name}: {why}"
    if why == "missing" or not why.startswith("not a chunk"):
        line += f"; {fix}"
    if len(probs) > 1:
        shown = ", ".join(n for n, _ in probs[1:4])
        line += f" (and {len(probs) - 1} more: {shown}{', ...' if len(probs) > 4 else ''})"
    return line


# --- the loader ---------------------------------------------------------------------------------------
class Logs:
    """The logs of one or more checked run folders, handed to the analysis layer, which reads
    no file itself: `columns` (the first chunk's schema), `len()` (chunk files) and
    `tables(columns)`, one pyarrow Table per chunk file in game order with those of `columns`
    the logs have. Streamed a chunk at a time, so memory stays flat however many games."""

    def __init__(self, files: list):
        self.files = list(files)
        self._columns = None

    def __len__(self) -> int:
        return len(self.files)

    def __add__(self, other: "Logs") -> "Logs":
        return Logs(self.files + other.files)

    @property
    def columns(self) -> list:
        if self._columns is None:
            import pyarrow.parquet as pq
            if not self.files:
                raise ToolkitError("the run has no chunk files")
            self._columns = list(pq.read_schema(self.files[0]).names)
        return self._columns

    def tables(self, columns: list):
        read = [c for c in dict.fromkeys(columns) if c in set(self.columns)]
        for path in self.files:
            yield read_chunk(path, read)


@dataclass
class RunFolder:
    path: str
    manifest: dict
    files: list                   # verified chunk paths, in game order
    complete: bool                # every planned chunk recorded and verified
    spec: Any = None              # the game's spec (None: game not registered here)
    components: Any = None        # the run's own component file, loaded from its checked copy
    variants_file: str | None = None   # the checked variants copy
    strategy_files: dict = field(default_factory=dict)  # run's path -> the user's verified file
    notes: list = field(default_factory=list)

    @property
    def logs(self) -> Logs:
        """The verified chunk files as the analysis layer reads them (one Logs per folder)."""
        if getattr(self, "_logs", None) is None or self._logs.files != self.files:
            self._logs = Logs(self.files)
        return self._logs

    def component_texts(self):
        """(the game's shipped component file, the run's checked copy) as text, or None when
        the game is not registered here: what the report compares to say what was changed."""
        if self.spec is None:
            return None
        comp = self.manifest.get("components") or {}
        try:
            with open(os.path.join(self.path, comp.get("copy") or "components.toml"),
                      encoding="utf-8") as fh:
                return self.spec.default_components_text(), fh.read()
        except OSError:
            return None

    def snapshots(self):
        """(rounds, decisions, meta) of the run's per-round snapshots, or None (sim/snapshots.py)."""
        from sim.snapshots import read_snapshots
        return read_snapshots(self.path)

    @property
    def n_games_logged(self) -> int:
        return sum(int(c["games"]) for c in self.manifest["chunks"]
                   if os.path.join(self.path, CHUNK_DIR, c["file"]) in self.files)


RERUN = "run the same `balance run` command again to replay it"


def _check_copy(run_dir: str, name: str, want: str, what: str) -> str:
    path = os.path.join(run_dir, name)
    if not os.path.isfile(path):
        raise ToolkitError(f"{run_dir}: {name}, the run's copy of its {what}, is missing; "
                           f"the run cannot be described without it")
    got = sha256_file(path)
    if got != want:
        raise ToolkitError(f"{run_dir}: {name} was changed after the run wrote it (SHA-256 "
                           f"{str(got)[:12]}, the run recorded {want[:12]}); restore it: it "
                           f"must be the {what} the games were played with")
    return path


def open_run(run_dir: str, allow_incomplete: bool = True, load_components: bool = True,
             strategy_files: list | None = None, need_strategies: bool = False) -> RunFolder:
    """Open a run folder and check everything the caller is about to trust; ToolkitError (one
    line) on the first problem.

    allow_incomplete: an incomplete run gives its verified chunks (summary, report --partial).
    load_components: check the component copy's SHA-256 and load it: the effective file, the
    run's `--set` overrides already written in (a folder of an older version: the user's file,
    loaded with the recorded overrides). An unregistered game gives spec None and a note.
    need_strategies: the caller will run the run's strategies (replay): every user strategy
    file of the run must be among `strategy_files` (paths the user typed), matched by SHA-256.
    The toolkit never imports a file because a run folder names it.
    """
    run_dir = str(run_dir)
    if not os.path.isdir(run_dir):
        raise ToolkitError(f"{run_dir}: no such run folder")
    manifest = read_manifest(run_dir)
    check = check_chunks(run_dir, manifest)
    line = chunk_problem_line(run_dir, check, RERUN)
    if line:
        raise ToolkitError(line)
    files = [os.path.join(run_dir, CHUNK_DIR, n)
             for n in sorted(check.good, key=lambda n: check.good[n]["first"])]
    complete = manifest["status"] == "complete" and len(check.good) == len(check.planned)
    if not files and not need_strategies:
        raise ToolkitError(f"{run_dir}: the run has no chunk files yet; run the same "
                           f"`balance run` command again to play it")
    if not complete and not allow_incomplete:
        raise ToolkitError(f"{run_dir}: the run is incomplete ({len(check.good)} of "
                           f"{len(check.planned)} chunks, status {manifest['status']}); run the "
                           f"same `balance run` command again to finish it")
    rf = RunFolder(path=run_dir, manifest=manifest, files=files, complete=complete)
    if check.unrecorded:
        rf.notes.append(f"{len(check.unrecorded)} chunk file(s) of an interrupted session are "
                        f"not counted (not recorded in the manifest)")
    if load_components:
        from sim.registry import get_game
        try:
            rf.spec = get_game(manifest["game"])
        except ToolkitError:
            rf.spec = None  # the caller says what it can do without the game
        comp = manifest["components"]
        copy = _check_copy(run_dir, comp["copy"], comp["copy_sha256"], "component file")
        if rf.spec is not None:
            # the copy is the effective file (overrides written in) since format 2's
            # "copy_overrides_applied"; before, the user's file plus the recorded overrides
            applied = bool(comp.get("copy_overrides_applied"))
            components = rf.spec.load_components(
                copy, () if applied else tuple(comp.get("overrides") or ()))
            if not applied and components.sha256 != comp["sha256"]:
                raise ToolkitError(f"{run_dir}: {comp['copy']} with the run's overrides does "
                                   f"not give the component file the run recorded (sha256 "
                                   f"{components.sha256[:12]} != {comp['sha256'][:12]})")
            rf.components = components
        vf = manifest.get("variants_file")
        if vf:
            rf.variants_file = _check_copy(run_dir, vf["copy"], vf["copy_sha256"],
                                           "variants file")
    if need_strategies:
        rf.strategy_files = match_strategy_files(manifest, strategy_files or [])
    return rf


def match_strategy_files(manifest: dict, given: list) -> dict:
    """{run's strategy file path: the user's file with the same SHA-256}; one line otherwise."""
    users = manifest.get("user_strategies") or []
    hashes = {}
    for path in given:
        if not os.path.isfile(path):
            raise ToolkitError(f"strategy file {path}: not found")
        hashes[os.path.abspath(path)] = sha256_file(path)
    out = {}
    for u in users:
        found = [p for p, h in hashes.items() if h == u["sha256"]]
        if found:
            out[u["path"]] = found[0]
            continue
        base = os.path.basename(u["path"])
        if not given:
            raise ToolkitError(
                f"the run plays the user strategy {base}:{u['function']}; give its file with "
                f"--strategy-file PATH (the toolkit never runs code because a run folder names it)")
        same_name = [p for p in hashes if os.path.basename(p) == base] or list(hashes)
        raise ToolkitError(
            f"strategy file {same_name[0]}: its SHA-256 ({hashes[same_name[0]][:12]}) is not "
            f"that of {base} the run played ({u['sha256'][:12]}): it was changed since, and a "
            f"replay would not be of the logged game")
    extra = [p for p in hashes if p not in out.values()]
    if extra:
        raise ToolkitError(f"strategy file {extra[0]}: the run plays no strategy from a file "
                           f"with this content")
    return out


# --- what the toolkit owns in a folder -------------------------------------------------------
def report_owned(report_dir: str) -> tuple[list, list, str | None]:
    """(files the report writer wrote there and that are unchanged, files it wrote that were
    changed since, why the folder is not a report folder of this toolkit or None)."""
    rec_path = os.path.join(report_dir, REPORT_RECORD)
    if not os.path.isfile(rec_path):
        return [], [], "it holds no report of this toolkit"
    try:
        with open(rec_path, encoding="utf-8") as fh:
            rec = json.load(fh)
        ok = (isinstance(rec, dict) and rec.get("tool") == TOOL and rec.get("kind") == "report"
              and isinstance(rec.get("files"), dict))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        ok = False
    if not ok:
        return [], [], f"its {REPORT_RECORD} was not written by this toolkit"
    owned, changed = [], []
    # "pending": the files a report writer was about to write when it recorded them (a write
    # cut short leaves either the old or the new bytes: both are the toolkit's)
    pending = rec.get("pending") if isinstance(rec.get("pending"), dict) else {}
    root = os.path.abspath(report_dir)
    for rel in sorted(set(rec["files"]) | set(pending)):
        path = os.path.normpath(os.path.join(root, rel))
        if not path.startswith(root + os.sep):
            continue  # a record never reaches outside its folder
        if not os.path.isfile(path):
            continue
        sha = sha256_file(path)
        (owned if sha in (rec["files"].get(rel), pending.get(rel)) else changed).append(path)
    owned.append(rec_path)
    return owned, changed, None


def list_files(root: str) -> list[str]:
    """Every file under `root`, but the toolkit's folder locks (sim/folder_lock.py)."""
    out = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        for f in sorted(filenames):
            if f != LOCK_NAME:
                out.append(os.path.join(dirpath, f))
    return out


def listing(path: str) -> list[str]:
    """The names in folder `path`, but the toolkit's folder lock (a folder holding only the
    lock of the command writing it is empty)."""
    return [n for n in os.listdir(path) if n != LOCK_NAME]


def run_owned(run_dir: str, manifest: dict) -> tuple[list, list]:
    """(files of a run folder the toolkit wrote and may remove, files in the way it did not
    write or that were changed: copies a user edited, report files a user edited)."""
    owned, changed = [os.path.join(run_dir, MANIFEST)], []
    check = check_chunks(run_dir, manifest)
    chunk_dir = os.path.join(run_dir, CHUNK_DIR)
    for name in list(check.good) + list(check.bad) + check.unrecorded + check.tmp:
        path = os.path.join(chunk_dir, name)
        if os.path.isfile(path):
            owned.append(path)
    copies = [(manifest["components"]["copy"], manifest["components"]["copy_sha256"])]
    if manifest.get("variants_file"):
        copies.append((manifest["variants_file"]["copy"], manifest["variants_file"]["copy_sha256"]))
    for name, sha in copies:
        path = os.path.join(run_dir, name)
        if os.path.isfile(path):
            (owned if sha256_file(path) == sha else changed).append(path)
    owned += snapshot_files(run_dir, str(manifest.get("run_id", "")))
    rdir = os.path.join(run_dir, REPORT_DIR)
    if os.path.isdir(rdir):
        r_owned, r_changed, _ = report_owned(rdir)
        owned += r_owned
        changed += r_changed
    return owned, changed


SNAPSHOT_DIR = "snapshots"      # sim/snapshots.py: `balance run --snapshots`


def snapshot_files(run_dir: str, run_id: str) -> list:
    """The snapshot files (sim/snapshots.py) written for this run id: their Parquet metadata
    names it. Any other file there is not the toolkit's."""
    import pyarrow.parquet as pq
    folder = os.path.join(run_dir, SNAPSHOT_DIR)
    found = []
    for name in ("rounds.parquet", "decisions.parquet"):
        path = os.path.join(folder, name)
        try:
            meta = pq.read_schema(path).metadata or {}
        except Exception:   # missing, or not a Parquet file: not ours
            continue
        if run_id and meta.get(b"balance.run_id") == run_id.encode():
            found.append(path)
    return found


def remove_owned(paths: list, root: str) -> None:
    """Remove the toolkit's files, then the folders under `root` they leave empty. The files
    that mark a folder as the toolkit's (manifests, plans, report records) go last, so that
    an interruption leaves folders the toolkit still recognises."""
    markers = (MANIFEST, REPORT_RECORD, "designer.json")
    paths = sorted(paths, key=lambda p: os.path.basename(p) in markers)
    dirs = set()
    for p in paths:
        try:
            os.remove(p)
        except FileNotFoundError:
            pass
        dirs.add(os.path.dirname(p))
    root = os.path.abspath(root)
    for d in sorted(dirs, key=len, reverse=True):
        d = os.path.abspath(d)
        while d.startswith(root + os.sep):
            try:
                os.rmdir(d)  # only when empty: a user's file keeps its folder
            except OSError:
                break
            d = os.path.dirname(d)
    for p in paths:
        # a report folder the user added files to stays a report folder of the toolkit (an
        # empty record), so that the next report may go there beside the user's files
        if os.path.basename(p) == REPORT_RECORD and os.path.isdir(os.path.dirname(p)):
            with open(p, "w", encoding="utf-8") as fh:
                json.dump({"tool": TOOL, "kind": "report", "format": 1, "files": {}}, fh)


def describe_kept(paths: list, root: str, limit: int = 6) -> str:
    rel = [os.path.relpath(p, root) for p in paths]
    more = f", ... ({len(rel)} in all)" if len(rel) > limit else ""
    return ", ".join(rel[:limit]) + more


def folder_state(path: str) -> tuple[str, dict | None, str | None]:
    """('new' | 'empty' | 'run' | 'foreign' | 'file', manifest, why foreign)."""
    if not os.path.exists(path):
        return "new", None, None
    if not os.path.isdir(path):
        return "file", None, None
    if not listing(path):
        return "empty", None, None
    manifest, why = load_manifest_file(path)
    if manifest is not None:
        return "run", manifest, None
    return "foreign", None, why or f"it holds files but no {MANIFEST}"


def foreign_folder_error(path: str, why: str, flag: str = "--out") -> ToolkitError:
    return ToolkitError(
        f"{path} is not empty and holds no run of this toolkit ({why}); the toolkit writes only "
        f"into a new or empty folder or one of its own runs, and never deletes files it did "
        f"not write: choose another {flag} folder")
