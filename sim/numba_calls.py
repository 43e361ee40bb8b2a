"""How numba compiles the toolkit's calls between compiled functions: no wrapper, no machine
code and one full optimisation for a function only compiled code calls.

Numba compiles every `@njit` function on its own: it gives it a Python wrapper (unboxing
each argument from a Python object) and a C wrapper, optimises its module with two
pipelines and emits its machine code; a caller then links the callee's optimised IR into its
own module and optimises and emits all of it again. A game's play loop is a deep call tree
(Lowlands: 343 libraries, 2,761 function bodies optimised for the 156 of its kernel), so a
cold compile paid for every level. What this changes, for a function first compiled for a
call from compiled code (a "callee"; numba's own @overload implementations are compiled
that way already):

* **No wrappers** (numba's own option for its @overload implementations): for a small
  function they were about 60% of its compile (`trace_nb`: 0.19 s against 0.07 s). If Python
  then calls it with those argument types (a test calling a rule directly), that signature
  is compiled again with its wrappers first: no Python call ever reaches a function without
  one. Numba's disk cache keeps the two kinds apart: a callee is saved under an index key of
  its own (`CalleeCache`), so a Python call in another process never loads one.
* **Linked, never emitted**: a callee's library is only ever linked into its callers as IR,
  so its own machine code (which nothing could call) is not made, and the disk cache keeps
  its optimised IR (bitcode) instead of an object file. Its environment pointer is set once
  the first kernel that links it is emitted.
* **One full optimisation**: a callee's module gets numba's first, cheap pipeline (at
  numba's default NUMBA_OPT that is LLVM's O0 module pipeline, which inlines, plus loop
  rotation, instcombine and jump threading; each function had the O3 function pipeline when
  its IR was added), not the full O3 module pipeline (checked 2026-12-04: Lowlands' kernel's
  cheap pass 0.1 s, its full pass 2 s); the full pipeline runs
  once, in the kernel that is emitted, over everything it links. Play speed is unchanged
  (README, "Compiles", measured side by side).

And a cost of numba's front end: its inliner deep-copies a callee's IR block by block,
each copy with its own copy of the function's whole scope (`_SharedBlockCopies`). Others,
which change nothing compiled (lock timers, compile flags, record type names), are in
sim/numba_frontend.py, installed with this.

The machine code that runs is the kernels' own, typed, lowered and optimised from the same
IR: the fixed runs of all four games give identical logs before and after.

Numba compiles a callee again for every combination of constant values passed to it
(Sunset compiled `trace_nb` 22 times, Lowlands its task stack's `push_nb` 31 times). A
function whose constants are only passed on and stored is marked `plain_constants`: one
compile per argument types. Tried and left out: doing that for every call; it cut Sunset's
compile by another tenth, but the constant folded into the callee is worth more elsewhere:
Sunset's greedy played about 17% slower (2026-12-02, side by side with the code before). Also left out: no module
optimisation at all for a callee (40% slower play: LLVM inlines less of an unoptimised
callee into its caller).

`install()` patches numba's `Dispatcher` (its `get_call_template`, `compile` and
`add_overload`), its CPU code library (`_optimize_final_module`, `_finalize_final_module`,
serialisation), the lowering pass that creates a function's library, the JIT codegen's
`set_env` and the inliner's `copy` (and sim/numba_frontend.py's): the internals of numba 0.68 this
was written and tested against. Any other numba version, or `BALANCE_NUMBA_CALLS=stock` in
the environment, leaves numba as it is: the same results, compiled more slowly. It is
installed by sim/compile_cache.py, which numba imports as soon as any toolkit function with
`cache=True` is decorated, so before anything of the toolkit compiles.
"""
from __future__ import annotations

import contextlib
import os

from sim import compile_claims, numba_frontend

TESTED_NUMBA = ("0.68",)       # major.minor versions whose Dispatcher internals this patches
STOCK_ENV = "BALANCE_NUMBA_CALLS"
CALLEE_OPTIONS = {"no_cpython_wrapper": True, "no_cfunc_wrapper": True}
CALLEE_KEY = "compiled-callers-only-2"   # added to the disk cache's index key of such compiles
LINKED_ONLY_KIND = "balance-linked-only"  # a cached library kept as bitcode (never emitted)

PLAIN_CONSTANTS = "_balance_plain_constants"   # set by plain_constants()

_installed = False
_compile_callee = None   # install()'s compile of a callee (compile_as_callee)
_callee_claim = None     # install()'s claim of a callee's cache entry (callee_claim)


def plain_constants(dispatcher):
    """Mark a jitted function whose constant arguments gain nothing from being compiled in
    (an event code or a task kind passed on and stored): compiled once per argument types
    for compiled callers, not once per combination of constant values (Sunset compiled
    `trace_nb` 22 times). Returns the dispatcher (a decorator, above @njit)."""
    setattr(dispatcher, PLAIN_CONSTANTS, True)
    return dispatcher


def compile_as_callee(dispatcher, argtypes) -> None:
    """Compile `dispatcher` for the numba types `argtypes` as if compiled code called it:
    without wrappers, linked only, its callees (and their disk cache entries) those of such
    a call. Nothing can run it from Python; with numba left as it is, a plain compile."""
    from numba.core.compiler_lock import global_compiler_lock
    if _compile_callee is None:
        dispatcher.compile(tuple(argtypes))
        return
    with global_compiler_lock:
        _compile_callee(dispatcher, tuple(argtypes))


def callee_claim(dispatcher, argtypes):
    """The context that holds the cross-process claim a compile of `dispatcher` for a
    compiled caller with the numba types `argtypes` takes (sim/compile_claims.py): another
    process compiling it meanwhile waits, then loads it. A no-op with numba left as it is."""
    if _callee_claim is None:
        return contextlib.nullcontext()
    return _callee_claim(dispatcher, tuple(argtypes))


def supported(version: str) -> bool:
    return ".".join(version.split(".")[:2]) in TESTED_NUMBA


def install() -> bool:
    """Patch numba (once per process: the module doc); False when numba is left as it is."""
    global _installed
    if _installed:
        return True
    import numba
    if os.environ.get(STOCK_ENV, "").strip().lower() == "stock" or not supported(
            numba.__version__):
        return False
    from numba.core import caching, dispatcher, sigutils, types, typing
    from numba.core.compiler_lock import global_compiler_lock

    Dispatcher = dispatcher.Dispatcher
    stock_compile = Dispatcher.compile
    stock_add_overload = Dispatcher.add_overload
    stock_get_call_template = Dispatcher.get_call_template

    class CalleeCache(caching.FunctionCache):
        """The disk cache of a function's compiles without wrappers: its own index keys."""

        def _index_key(self, sig, codegen):
            return super()._index_key(sig, codegen) + (CALLEE_KEY,)

    def wrapperless(disp) -> set:
        found = disp.__dict__.get("_balance_wrapperless")
        if found is None:
            found = disp._balance_wrapperless = set()
        return found

    def applies(disp) -> bool:
        # numba's own @overload implementations are compiled without a wrapper already
        return disp._can_compile and not disp.targetoptions.get("no_cpython_wrapper") \
            and not (getattr(disp.py_func, "__module__", None) or "").startswith("numba.")

    def compile_callee(disp, args) -> None:
        """Compile `args` (a tuple of types) without wrappers, unless compiled already."""
        if tuple(args) in disp.overloads:
            return
        options, cache = dict(disp.targetoptions), disp._cache
        disp.targetoptions.update(CALLEE_OPTIONS)
        if not isinstance(cache, caching.NullCache):
            disp._cache = callee_cache_of(disp)
        disp._balance_adding_callee = True
        try:
            with claim_entry(disp._cache, args):   # one process compiles it, others load it
                stock_compile(disp, tuple(args))
        finally:
            disp._balance_adding_callee = False
            disp._cache = cache
            disp.targetoptions.clear()
            disp.targetoptions.update(options)

    def callee_cache_of(disp):
        found = disp.__dict__.get("_balance_callee_cache")
        if found is None:
            found = disp._balance_callee_cache = CalleeCache(disp.py_func)
        return found

    def claim_entry(cache, args):
        """The claim (sim/compile_claims.py) on the entry of `cache` for the types `args`;
        nothing to claim without a disk cache."""
        if isinstance(cache, caching.NullCache):
            return contextlib.nullcontext()
        return compile_claims.claim(cache.cache_path,
                                    f"{cache._cache_file._index_path}|{tuple(args)!r}")

    def get_call_template(self, args, kws):
        """The typing of a call from compiled code: numba's, compiling without wrappers."""
        if not applies(self):
            return stock_get_call_template(self, args, kws)
        pysig, args = self._compiler.fold_argument_types(args, kws)
        if getattr(self, PLAIN_CONSTANTS, False):
            args = tuple(types.unliteral(a) for a in args)
        with global_compiler_lock:
            compile_callee(self, args)
        name = self.py_func.__name__
        template = typing.make_concrete_template(f"CallTemplate({name})", key=name,
                                                 signatures=self.nopython_signatures)
        return template, pysig, args, {}

    def compile(self, sig):
        """A compile asked from Python (or numba's own paths): never hands out a function
        compiled without its Python wrapper."""
        with global_compiler_lock:    # (re-entrant) the flag is only set under it
            if not getattr(self, "_balance_adding_callee", False):
                args, _ = sigutils.normalize_signature(sig)
                args = tuple(args)
                if args in wrapperless(self):
                    wrapperless(self).discard(args)
                    del self.overloads[args]
            return stock_compile(self, sig)

    def add_overload(self, cres):
        if getattr(self, "_balance_adding_callee", False):
            # kept out of the table Python calls are dispatched through
            args = tuple(cres.signature.args)
            self.overloads[args] = cres
            wrapperless(self).add(args)
            return
        stock_add_overload(self, cres)

    Dispatcher.get_call_template = get_call_template
    Dispatcher.compile = compile
    Dispatcher.add_overload = add_overload
    global _compile_callee, _callee_claim

    def callee_claim(disp, args):
        if not applies(disp) or isinstance(disp._cache, caching.NullCache):
            return contextlib.nullcontext()
        return claim_entry(callee_cache_of(disp), args)

    _compile_callee = compile_callee
    _callee_claim = callee_claim
    _install_linked_only()
    _install_inline_copies()
    numba_frontend.install()   # numba's bookkeeping made cheap (same compiles)
    _install_data_names()
    _installed = True
    return True


def _install_linked_only() -> None:
    """Machine code only for what can be called, full optimisation once: a library compiled
    without wrappers (a callee above, or one of numba's own @overload implementations) is
    only ever linked into its callers as LLVM IR, which they optimise and emit again with
    their own code. Its own machine code is never executed, so it is not emitted (numba
    emits it at once) and the disk cache keeps its optimised IR (bitcode) instead of an
    object file; its module gets numba's first, cheap pipeline only (the module doc)."""
    import llvmlite.binding as ll
    from numba.core import codegen, typed_passes

    Library = codegen.CPUCodeLibrary
    stock_run_pass = typed_passes.BaseNativeLowering.run_pass
    stock_optimize_final = Library._optimize_final_module
    stock_finalize_final = Library._finalize_final_module
    stock_serialize = Library.serialize_using_object_code
    stock_unserialize = Library._unserialize.__func__
    stock_set_env = codegen.JITCPUCodegen.set_env
    pending_envs: dict = {}     # env global name -> Environment, set once some code defines it

    def run_pass(self, state):
        flags = state.flags
        if state.library is None and flags.no_cpython_wrapper and flags.no_cfunc_wrapper \
                and not flags.no_compile:
            library = state.targetctx.codegen().create_library(state.func_id.func_qualname)
            library.enable_object_caching()     # as numba does (its serialisation asks it)
            library._balance_linked_only = True
            state.library = library
        return stock_run_pass(self, state)

    def finalize_final_module(self):
        if getattr(self, "_balance_linked_only", False):
            # numba's checks, without adding the module to the execution engine
            self._finalize_dynamic_globals()
            self._verify_declare_only_symbols()
            self._finalized = True
            return
        stock_finalize_final(self)
        engine = self._codegen._engine
        for name in [n for n in pending_envs if engine.is_symbol_defined(n)]:
            stock_set_env(self._codegen, name, pending_envs.pop(name))

    def set_env(self, env_name, env):
        # a linked-only function's environment pointer lives in the code of its callers:
        # it is set when the first of them is emitted (above)
        if not self._engine.is_symbol_defined(env_name):
            pending_envs[env_name] = env
            return
        stock_set_env(self, env_name, env)

    def serialize_using_object_code(self):
        if getattr(self, "_balance_linked_only", False):
            self._ensure_finalized()
            return (self.name, LINKED_ONLY_KIND, self._final_module.as_bitcode())
        return stock_serialize(self)

    def unserialize(cls, codegen_, state):
        name, kind, data = state
        if kind != LINKED_ONLY_KIND:
            return stock_unserialize(cls, codegen_, state)
        library = codegen_.create_library(name)
        library._balance_linked_only = True
        library._final_module = ll.parse_bitcode(data)
        library._finalize_final_module()
        return library

    def optimize_final_module(self):
        # numba runs two pipelines over a library with everything it links: a cheap first
        # one (then numba prunes reference counts) and the full O3 one.
        # A linked-only library gets the first: the full one runs once, in the kernel that
        # is emitted, over all the code it links (play speed unchanged, measured: README)
        if not getattr(self, "_balance_linked_only", False):
            return stock_optimize_final(self)
        mpm, mpb = self._codegen._module_pass_manager(
            loop_vectorize=self._codegen._loopvect, slp_vectorize=False,
            opt=self._codegen._opt_level, cost="cheap")
        mpm.run(self._final_module, mpb)
        if not codegen.config.LLVM_REFPRUNE_PASS:
            self._final_module = codegen.remove_redundant_nrt_refct(self._final_module)

    Library._optimize_final_module = optimize_final_module
    typed_passes.BaseNativeLowering.run_pass = run_pass
    Library._finalize_final_module = finalize_final_module
    Library.serialize_using_object_code = serialize_using_object_code
    Library._unserialize = classmethod(unserialize)
    codegen.JITCPUCodegen.set_env = set_env


class _SharedBlockCopies:
    """numba's inliner (`InlineWorker.inline_ir`) deep-copies the callee's IR block by block,
    each with a fresh memo, so the function's one scope (all its variables) is copied once per
    block: for `inline="always"` helpers that was about a tenth of a cold compile, growing
    with the size of the function inlined into. This stands in for the `copy` module inside
    numba.core.inline_closurecall (whose only copy is that loop) and gives the blocks of one
    copy one memo, as a deep copy of the whole IR would: the copy has one scope, as the
    original. The memo starts afresh with every `FunctionIR.copy()`, which begins each such
    copy, so no copy is ever reused across two of them."""

    def __init__(self):
        import copy
        self._copy = copy
        self.memo: dict = {}

    def reset(self) -> None:
        self.memo = {}

    def deepcopy(self, x, memo=None):
        return self._copy.deepcopy(x, self.memo if memo is None else memo)

    def __getattr__(self, name):
        return getattr(self._copy, name)


def _install_inline_copies() -> None:
    from numba.core import ir

    shared = _SharedBlockCopies()
    stock_copy = ir.FunctionIR.copy

    def function_ir_copy(self):
        # the inliner's module is put to use at the first copy (only a compile makes one):
        # importing it costs a warm start 0.13 s that loading cached kernels never needs
        from numba.core import inline_closurecall
        inline_closurecall.copy = shared
        shared.reset()
        return stock_copy(self)

    ir.FunctionIR.copy = function_ir_copy


def _install_data_names() -> None:
    """A cache entry's data file named after its index key, not numbered: numba gives a new
    entry the first number its index does not use, so two processes compiling different
    signatures of one function at once (sim/split_compile.py compiles a game on two cores,
    into one cache folder) could both write `f.1.nbc`, and one index would then name the
    other's machine code. Named after the key, two entries never share a file; an index
    entry lost to a concurrent save only costs a compile later."""
    import hashlib
    import pickle

    from numba.core import caching

    def save(self, key, data):
        overloads = self._load_index()
        data_name = overloads.get(key)
        if data_name is None:
            digest = hashlib.sha256(pickle.dumps(key, protocol=-1)).hexdigest()[:20]
            data_name = self._data_name_pattern.replace("{number:d}", digest)
            overloads[key] = data_name
            self._save_index(overloads)
        self._save_data(data_name, data)

    caching.IndexDataCacheFile.save = save
