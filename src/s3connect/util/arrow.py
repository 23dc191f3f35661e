"""Arrow compute helpers."""

from __future__ import annotations

import pyarrow as pa

__all__ = ["keep_where"]


def keep_where(mask: pa.Array, values: pa.Array) -> pa.Array:
    """``values`` where ``mask`` is true, null elsewhere (and where ``mask`` is null).

    Not ``if_else(mask, values, <null scalar>)``: pyarrow 22 gives a binary array sliced from a
    larger one back with its offsets unshifted (wrong values, an invalid array) that way
    (apache/arrow#41479, fixed upstream by apache/arrow#49443); an array of nulls in the
    scalar's place gives the right one."""
    import pyarrow.compute as pc  # imports pandas: not at import time (the CLI's status)

    return pc.if_else(mask, values, pa.nulls(len(values), values.type))
