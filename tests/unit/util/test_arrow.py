"""keep_where: values where a mask holds, null elsewhere, on arrays sliced out of larger ones."""

from __future__ import annotations

import pyarrow as pa
import pytest

from s3connect.util.arrow import keep_where


@pytest.mark.parametrize("start", [0, 1, 50])
@pytest.mark.parametrize("kind", [pa.binary(), pa.large_binary(), pa.string()])
def test_keep_where_on_sliced_arrays(start: int, kind: pa.DataType) -> None:
    whole = pa.array([b"x" * 10, None, b"abc"] * 40, pa.binary()).cast(kind)
    values = whole.slice(start, 60)
    for mask in ([True] * 60, [i % 3 != 2 for i in range(60)], [False] * 60):
        kept = keep_where(pa.array(mask), values)
        kept.validate(full=True)
        expected = [v if m else None for v, m in zip(values.to_pylist(), mask, strict=True)]
        assert kept.to_pylist() == expected
        assert kept.type == kind


def test_a_null_in_the_mask_gives_null() -> None:
    kept = keep_where(pa.array([True, None, False]), pa.array([b"a", b"b", b"c"]))
    assert kept.to_pylist() == [b"a", None, None]
