"""Numba's front end without its bookkeeping costs: the same compiles, less Python per compile.

A profile of one process compiling Lowlands cold (2026-12-03, cProfile, everything in one
process) found about a seventh of the CPU outside the compiler's real work, in three places
this module makes cheap; none of them changes what is compiled (sim/numba_calls.py does that,
and is installed first):

* **Lock timers** (`numba.core.event`): every compile installs two timers, for the compiler
  lock and for LLVM's lock, and every LLVM call and every compiler pass fires an event to
  each timer installed: a kernel's compile nests the compiles of its callees, so an event
  reached about ten timers (Lowlands: 136,000 events, 1.3 million notifications). One clock
  per lock, registered once, now takes each event; a compile's timer is the clock's advance
  between its start and end, which is what its own timer measured (`LockClock`).
* **Compile flags** (`TargetConfig.values`, behind their hash and ==): numba's typing cache
  hashes and compares the flags at every lookup (200,000 times), each time reading some
  thirty options through their properties. The same dict, built from the defaults with the
  options set laid over them, and two flags with the same options set are equal at once.
* **Record type names**: numba formats every pass's argument types for its event, and a
  record type's name lists every field (a game's state record has dozens): 14,000 such
  names. A record type never changes, so its name is formatted once.
* **The cyclic garbage collector's full passes**: a compile allocates millions of objects
  (IR, types, LLVM values), so Python's collector ran a full pass over the whole heap about
  twenty times in one cold Lowlands compile: 2.8 of its 3.5 s of collection (2026-12-04,
  `gc.callbacks`). While the compiler lock is held (outermost), the collector makes only its
  young-generation passes, which find the compile's short-lived cycles (0.7 s in all); the
  thresholds the process had come back when the lock is released. Peak memory of that
  compile: 532 -> 659 MB. The garbage the full passes would have found is then found by
  the first full pass after the compile (0.85 s for Lowlands' compile): the command line and
  the split compile's helper, processes that end soon after, make no full pass at all
  (`young_collections_only()`, called by scripts/cli.py and sim/split_helper.py).

`install()` is called by sim/numba_calls.py's, for the numba versions it patches.
"""
from __future__ import annotations

import gc
from time import perf_counter

LOCK_KINDS = ("numba:compiler_lock", "numba:llvm_lock")   # the timers every compile installs

_installed = False
stock: dict = {}    # numba's own functions this replaces, by name (the tests compare with them)


def install() -> None:
    global _installed
    if _installed:
        return
    _install_lock_clocks()
    _install_flag_values()
    _install_record_names()
    _installed = True


def _install_lock_clocks() -> None:
    import contextlib

    from numba.core import event

    class LockClock(event.Listener):
        """How long a lock has been held, outermost holds added up, readable mid-hold."""

        def __init__(self):
            self.depth = 0
            self.held = 0.0      # seconds of finished outermost holds
            self.since = 0.0     # start of the current outermost hold
            self.events = 0

        def on_start(self, ev):
            self.events += 1
            if self.depth == 0:
                self.since = perf_counter()
            self.depth += 1

        def on_end(self, ev):
            self.events += 1
            self.depth -= 1
            if self.depth == 0:
                self.held += perf_counter() - self.since

        def reading(self) -> float:
            return self.held + (perf_counter() - self.since if self.depth > 0 else 0.0)

    clocks = {}
    for kind in LOCK_KINDS:
        clocks[kind] = LockClock()
        event.register(kind, clocks[kind])
    stock_install_timer = event.install_timer

    @contextlib.contextmanager
    def install_timer(kind, callback):
        """numba's timer of `kind` for the block: `callback(seconds)` once it ends, if any
        event of that kind fired within it (numba's condition)."""
        clock = clocks.get(kind)
        if clock is None:
            with stock_install_timer(kind, callback) as timer:
                yield timer
            return
        start, events = clock.reading(), clock.events
        yield clock
        if clock.events != events:
            callback(clock.reading() - start)

    event.install_timer = install_timer
    _events_to_clocks(clocks)


def _events_to_clocks(clocks: dict) -> None:
    """The lock events straight to their clock when it is their only listener (as it is
    unless someone installs one of numba's own): every LLVM call fires two, and each event
    otherwise builds an Event object and goes through numba's broadcast."""
    import llvmlite.binding.ffi as ffi

    from numba.core import compiler_lock, event

    registered = event._registered

    def fast(kind):
        clock = clocks[kind]
        listeners = registered[kind]

        def start():
            if len(listeners) == 1 and listeners[0] is clock:
                clock.on_start(None)
            else:
                event.start_event(kind)

        def end():
            if len(listeners) == 1 and listeners[0] is clock:
                clock.on_end(None)
            else:
                event.end_event(kind)
        return start, end

    llvm_start, llvm_end = fast("numba:llvm_lock")
    callbacks = ffi.lib._lock._cblist
    for i, (acquire, release) in enumerate(callbacks):
        if getattr(acquire, "__module__", "") == "numba.core.base" \
                and acquire.__name__ == "enter_fn" and release.__name__ == "exit_fn":
            callbacks[i] = (llvm_start, llvm_end)

    lock_start, lock_end = fast("numba:compiler_lock")
    pause = YoungCollectionsOnly()

    def acquire(self):
        lock_start()
        self._lock.acquire()
        pause.enter()

    def release(self):
        pause.leave()
        self._lock.release()
        lock_end()

    compiler_lock._CompilerLock.acquire = acquire
    compiler_lock._CompilerLock.release = release


FULL_PASS_NEVER = 1 << 30    # a third-generation threshold never reached


def young_collections_only() -> None:
    """For the rest of this process, no full pass of the cyclic collector (its young
    generations are still collected): for short processes, whose heap after a compile is
    millions of objects a full pass would walk (the module doc). Imports nothing."""
    first, second, _ = gc.get_threshold()
    gc.set_threshold(first, second, FULL_PASS_NEVER)


class YoungCollectionsOnly:
    """Within the outermost hold of the compiler lock (enter/leave are called holding it, so
    one thread at a time), no full collection: the third generation's threshold is set out
    of reach and the process's own thresholds come back at the outermost leave."""

    def __init__(self):
        self.depth = 0
        self.saved = None

    def enter(self) -> None:
        if self.depth == 0:
            self.saved = gc.get_threshold()
            young_collections_only()
        self.depth += 1

    def leave(self) -> None:
        self.depth -= 1
        if self.depth == 0:
            gc.set_threshold(*self.saved)


def _install_flag_values() -> None:
    from numba.core import targetconfig

    TargetConfig = targetconfig.TargetConfig
    stock_eq = TargetConfig.__eq__
    stock["values"] = TargetConfig.values
    defaults_of: dict = {}

    def values(self):
        cls = type(self)
        defaults = defaults_of.get(cls)
        if defaults is None:
            defaults = defaults_of[cls] = {name: option.default
                                           for name, option in cls.options.items()}
        found = defaults.copy()
        found.update(self._values)
        if len(found) != len(defaults):       # a value set for no option of this class
            return {name: getattr(self, name) for name in self.options}
        return found

    def eq(self, other):
        if type(self) is type(other) and self._values == other._values:
            return True
        return stock_eq(self, other)

    TargetConfig.values = values
    TargetConfig.__eq__ = eq     # (__hash__ stays numba's: it hashes the option names)


def _install_record_names() -> None:
    from numba.core.types import npytypes

    stock_repr = stock["record_repr"] = npytypes.Record.__repr__
    names: dict = {}    # id(record) -> (record, its repr): records are interned and immutable

    def record_repr(self):
        found = names.get(id(self))
        if found is None or found[0] is not self:
            found = names[id(self)] = (self, stock_repr(self))
        return found[1]

    npytypes.Record.__repr__ = record_repr
