"""A user's strategy, checked before a run writes anything.

`check_user_strategies(spec, prepared)` is called by the runner after the run folder is
planned and before it is created. It checks each user function's signature, then compiles
the play loop around the user's functions and plays the run's first two games in the parent,
exactly as the warm-up does (so no time is lost: the warm-up then finds the loop compiled).
Whatever goes wrong becomes one line naming the file and the function:

* the signature does not take the 10 arguments every strategy takes;
* numba cannot compile the function (the first line of numba's message and the line of the
  user's file it points to);
* the function returns something other than a signed integer (the index of its choice);
* the function raises while playing those games.

numba's full message (and the traceback) is kept in `ToolkitError.detail`: `balance --debug`
prints it. The games run in a thread (`call_interruptibly`) so that a strategy that never
returns can still be stopped with Ctrl-C.
"""
from __future__ import annotations

import inspect
import os
import re
import traceback

from sim.game_api import ToolkitError
from sim.processes import call_interruptibly
from sim.user_strategies import ARGS, as_dispatcher

N_ARGS = len(ARGS.split(","))
PROBE_GAMES = 2
_HEADLINE_CHARS = 200


class UserStrategyError(ToolkitError):
    """A user strategy that cannot be used: one line, and `detail` for --debug."""

    def __init__(self, message: str, detail: str = ""):
        super().__init__(message)
        self.detail = detail


def _label(path: str, name: str) -> str:
    return f"user strategy {path}:{name}"


def signature_problem(fn) -> str | None:
    """Why `fn` cannot be called as fn(sid, params, tables, s, seat, decision, options,
    n_options, ctx, keep), or None."""
    py = getattr(fn, "py_func", fn)
    try:
        sig = inspect.signature(py)
    except (TypeError, ValueError):
        return "is not a function"
    params = list(sig.parameters.values())
    if any(p.kind == p.VAR_POSITIONAL for p in params):
        return None
    positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    required = [p for p in positional if p.default is p.empty]
    kw_required = [p for p in params if p.kind == p.KEYWORD_ONLY and p.default is p.empty]
    if len(required) <= N_ARGS <= len(positional) and not kw_required:
        return None
    names = ", ".join(p.name for p in params) or "no arguments"
    return (f"takes {len(positional)} argument{'s' if len(positional) != 1 else ''} ({names}); "
            f"a strategy takes {N_ARGS}: {ARGS}")


def _headline(exc: BaseException, path: str) -> str:
    """The first informative line of numba's message, and where in the user's file."""
    text = str(exc)
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    head = ""
    for ln in lines:
        if ln.startswith(("Failed in ", "During:", "File ", "<source elided>", "^",
                          "- Of which", "Overload", "With argument")):
            continue
        head = ln
        break
    head = re.sub(r"\s+", " ", head)
    if len(head) > _HEADLINE_CHARS:
        head = head[:_HEADLINE_CHARS - 3] + "..."
    kind = type(exc).__name__
    head = f"{kind}: {head}" if head else kind
    where = ""
    base = os.path.basename(path)
    for m in re.finditer(r'File "([^"]+)", line (\d+)', text):
        if os.path.basename(m.group(1)) == base:
            where = f" ({base} line {m.group(2)})"
            break
    return head + where


def _return_problem(disp) -> str | None:
    from numba.core import types
    for sig in getattr(disp, "nopython_signatures", []) or []:
        ret = sig.return_type
        if not isinstance(ret, types.Integer) or not ret.signed:
            return (f"returns {ret}, not a signed integer: a strategy returns the index "
                    f"(0 to n_options - 1) of the option it chooses")
    return None


def _load_cached_signatures(disp) -> None:
    """A user function whose play loop came from the disk cache was not compiled in this
    process: load its own compiled versions from the cache (numba's index for this
    bytecode), so that its return type can be checked without compiling it again."""
    if getattr(disp, "nopython_signatures", None):
        return
    try:
        cache = disp._cache
        index = cache._cache_file._load_index()
        want = cache._index_key(None, disp.targetctx.codegen())
    except Exception:
        return                          # not cached on disk: nothing to load
    for key in index:
        if key[1:] == want[1:]:
            try:
                disp.compile(key[0])      # a load from the cache, not a compile
            except Exception:
                continue


def _compiled(spec, prepared) -> bool | None:
    """Whether the play loop around the user's functions compiled (None: cannot tell)."""
    kernels = getattr(spec, "_assigned_kernels", None)
    if kernels is None:
        return None
    try:
        play = kernels(prepared)[0]
    except Exception:
        return None
    sigs = getattr(play, "nopython_signatures", None)
    return None if sigs is None else bool(sigs)


def check_user_strategies(spec, prepared, n_games: int = PROBE_GAMES) -> None:
    """Raise UserStrategyError (one line) if a user strategy of `prepared` cannot be used."""
    if not prepared.user_strategies:
        return
    from sim.user_files import load_user_function

    users = []
    for path, name in prepared.user_strategies:
        fn = load_user_function(path, name)
        problem = signature_problem(fn)
        if problem:
            raise UserStrategyError(f"{_label(path, name)}: {problem}")
        users.append((path, name, as_dispatcher(fn)))

    try:
        call_interruptibly(spec.play_chunk, prepared, 0, max(1, min(n_games, PROBE_GAMES)))
    except (ToolkitError, KeyboardInterrupt):
        raise
    except Exception as exc:
        detail = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
        raise _explain(spec, prepared, users, exc, detail) from None
    for path, name, disp in users:
        _load_cached_signatures(disp)
        problem = _return_problem(disp)
        if problem:
            raise UserStrategyError(f"{_label(path, name)}: {problem}")


def _explain(spec, prepared, users, exc, detail) -> UserStrategyError:
    hint = "; run with --debug for numba's full message"
    for path, name, disp in users:  # typed in this order: the first one without code failed
        problem = _return_problem(disp)
        if problem:
            return UserStrategyError(f"{_label(path, name)}: {problem}", detail)
        if not getattr(disp, "nopython_signatures", None):
            return UserStrategyError(f"{_label(path, name)} does not compile: "
                                     f"{_headline(exc, path)}{hint}", detail)
    if _compiled(spec, prepared) is False:  # the user code compiled, the loop around it not
        return UserStrategyError(
            f"{', '.join(_label(p, n) for p, n, _ in users)}: the play loop does not compile "
            f"around it: {_headline(exc, users[0][0])}{hint}", detail)
    names = " or ".join(f"{p}:{n}" for p, n, _ in users)
    first = str(exc).splitlines()[0].strip() if str(exc).strip() else ""
    what = f"{type(exc).__name__}: {first}" if first else type(exc).__name__
    return UserStrategyError(f"user strategy {names} raised {what} while playing the first "
                             f"{PROBE_GAMES} games of the run", detail)


def explain_run_error(prepared, exc: BaseException) -> UserStrategyError | None:
    """An exception out of a chunk of a run with user strategies, as one line (None when the
    run has no user strategy: then it is the toolkit's own bug and keeps its traceback)."""
    if not prepared.user_strategies or isinstance(exc, (ToolkitError, KeyboardInterrupt, OSError)):
        return None
    detail = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    names = " or ".join(f"{p}:{n}" for p, n in prepared.user_strategies)
    first = str(exc).splitlines()[0].strip() if str(exc).strip() else ""
    what = f"{type(exc).__name__}: {first}" if first else type(exc).__name__
    return UserStrategyError(f"user strategy {names} raised {what} during the run; the chunks "
                             f"finished so far are kept", detail)
