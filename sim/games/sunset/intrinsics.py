"""Two machine operations numba does not offer, for Sunset's hottest code: scratch arrays
in the stack frame of the compiled function that asks for them, and a population count.

numba has no stack arrays: `np.empty` allocates on the heap and reference-counts the array,
and in Sunset's hottest code (every decision of the built-in players, every sale) those
allocations were a tenth of a 4-player greedy game (measured: a decision's two scratch
buffers cost about 160 ns, a planning decision about 1.2 us in all).

`frame_array(n, dtype)` reserves n items in the frame of the function that calls it (an
LLVM `alloca` in its entry block, so a call inside a loop reuses the same memory) and views
them as a 1-d array without a reference count, like `numba.carray` over a pointer. The
array lives until that function returns: pass it down to callees, never return it or keep
it in anything that outlives the call. Its contents are undefined until written, as with
`np.empty`. `n` must be a constant the compiler sees (an int literal or a module-level int).
"""
import numpy as np
from numba import types
from numba.core import cgutils, config, errors
from numba.extending import intrinsic
from numba.np.arrayobj import make_array, populate_array


@intrinsic
def frame_array(typingctx, n, dtype):
    """A 1-d C array of `n` items of `dtype` (np.int64, np.float64...) in the caller's frame."""
    if not isinstance(n, types.IntegerLiteral) or n.literal_value < 1:
        raise errors.TypingError(f"frame_array: the length must be a positive constant the "
                                 f"compiler sees (a module-level int), got {n}")
    count = n.literal_value
    array_type = types.Array(dtype.dtype, 1, "C")

    def codegen(context, builder, sig, args):
        item = context.get_data_type(array_type.dtype)
        itemsize = context.get_abi_sizeof(item)
        data = cgutils.alloca_once(builder, item, size=context.get_constant(types.intp, count))
        out = make_array(array_type)(context, builder)
        populate_array(out, data=data,
                       shape=[context.get_constant(types.intp, count)],
                       strides=[context.get_constant(types.intp, itemsize)],
                       itemsize=context.get_constant(types.intp, itemsize),
                       meminfo=None)   # not memory-managed: the frame holds it
        return out._getvalue()

    return array_type(n, dtype), codegen


@intrinsic
def bit_count(typingctx, x):
    """The number of set bits of the integer x (x >= 0): the processor's population count
    (LLVM ctpop) where a loop over the bits costs one iteration per bit."""
    if not isinstance(x, types.Integer):
        raise errors.TypingError(f"bit_count: an integer is needed, got {x}")

    def codegen(context, builder, sig, args):
        return builder.ctpop(args[0])

    return x(x), codegen


if config.DISABLE_JIT:
    # The JIT off (`make coverage`, the interpreted side of scripts/bench_engine.py): an
    # intrinsic cannot run in Python, so the plain equivalents stand in.
    def frame_array(n, dtype):   # noqa: F811 - the interpreted stand-in of the intrinsic
        return np.empty(n, dtype)

    def bit_count(x):   # noqa: F811
        return bin(int(x)).count("1")
