"""``pext`` (parallel bit extract): the solver's table key, one instruction where the CPU has BMI2.

Code built for another CPU (``NUMBA_CPU_NAME``/``NUMBA_CPU_FEATURES``) never
assumes the instruction; ``pext_soft`` is its plain twin, tested to agree.
"""
import os

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic


@intrinsic
def _pext_bmi2(typingctx, x, m):
    """BMI2 ``pext``: the bits of x where m is set, packed down (one instruction)."""
    sig = types.int64(types.int64, types.int64)

    def codegen(context, builder, signature, args):
        i64 = ir.IntType(64)
        fn = builder.module.declare_intrinsic("llvm.x86.bmi.pext.64",
                                              fnty=ir.FunctionType(i64, [i64, i64]))
        return builder.call(fn, args)

    return sig, codegen


@njit(cache=True, _nrt=False, inline='always')
def pext_soft(x, m):
    """``pext`` for CPUs without BMI2: one step per set bit of m."""
    r = np.int64(0)
    bit = np.int64(1)
    while m != 0:
        low = m & -m
        if x & low:
            r |= bit
        bit <<= 1
        m ^= low
    return r


def _host_has_bmi2():
    if os.environ.get("NUMBA_CPU_NAME") or os.environ.get("NUMBA_CPU_FEATURES"):
        return False          # code built for another CPU: do not assume the instruction
    try:
        import llvmlite.binding as llvm
        return "+bmi2" in llvm.get_host_cpu_features().flatten().split(",")
    except (ImportError, AttributeError, RuntimeError):   # pragma: no cover - llvmlite without the query
        return False


HAS_BMI2 = _host_has_bmi2()
pext = _pext_bmi2 if HAS_BMI2 else pext_soft
