"""The fast path of schemaless JSON (orjson's parse and text, then checks) against the exact path
(Python's decoder with Kafka's leniencies, then the Jackson writer): the same Connect values in
the same key order, the same lines, or the exact path taken."""

from __future__ import annotations

import math
import random
from decimal import Decimal
from typing import Any

import pytest

from s3connect.connect.json_data import dumps_json, schemaless_to_connect
from s3connect.convert.json import JsonConverter, _loads
from s3connect.util.jackson import Float32, dumps_fast
from tests.reference.random_json import generated

CONVERTER = JsonConverter(schemas_enable=False)


def exact(value: bytes) -> bytes | str:
    try:
        return dumps_json(schemaless_to_connect(_loads(value))).encode()
    except ValueError as exc:
        return str(exc)


def through_converter(value: bytes) -> bytes | str:
    try:
        return dumps_json(CONVERTER.to_connect("t", value)[0]).encode()
    except ValueError as exc:
        return str(exc)


@pytest.mark.parametrize("seed", range(6))
def test_the_converter_reads_what_the_exact_path_reads(seed: int) -> None:
    values = [v for v in generated(seed, 600) if v is not None]
    for value in values:
        assert through_converter(value) == exact(value), value


@pytest.mark.parametrize("seed", range(6))
def test_fast_lines_are_the_exact_lines_or_none(seed: int) -> None:
    fast = 0
    for value in generated(seed, 600):
        if value is None or isinstance(exact(value), str):
            continue
        connect = CONVERTER.to_connect("t", value)[0]
        line = dumps_fast(connect)
        if line is not None:
            fast += 1
            assert line == dumps_json(connect).encode(), value
    assert fast > 200, fast  # most generated documents take the fast path


def _tree(rng: random.Random, depth: int = 0) -> Any:
    roll = rng.randrange(12 if depth < 3 else 8)
    if roll == 0:
        return rng.choice([0.0, -0.0, 1e-3, 9.99e-4, 1e7, 9999999.5, 1e16, 5e-324, 1.5, -2.25])
    if roll == 1:
        return rng.choice([math.nan, math.inf, -math.inf, Float32(0.1), Decimal("1.50")])
    if roll == 2:
        return rng.choice([0, -1, 2**63 - 1, -(2**63), 2**63, 2**64, True, False, None])
    if roll == 3:
        return rng.uniform(-1e9, 1e9) * 10 ** rng.randint(-12, 12)
    if roll < 8:
        return rng.choice(["", "a\x01b", "é", "😀", "\ud800", "\\u0041", "x:1e5", "\u2028", "\x7f"])
    if roll < 10:
        return [_tree(rng, depth + 1) for _ in range(rng.randrange(4))]
    keys = rng.sample(["a", "b", "Aa", "BB", "😀", "\x1f", "é"], rng.randrange(1, 5))
    return {k: _tree(rng, depth + 1) for k in keys}


@pytest.mark.parametrize("seed", range(4))
def test_any_tree_is_written_as_jackson_writes_it_or_left_to_the_exact_writer(seed: int) -> None:
    rng, fast, exact_only = random.Random(seed), 0, 0
    for _ in range(3000):
        tree = _tree(rng)
        line = dumps_fast(tree)
        if line is None:
            exact_only += 1
            continue
        fast += 1
        assert line == dumps_json(tree).encode(), tree
    assert fast > 500 and exact_only > 500, (fast, exact_only)


@pytest.mark.parametrize(
    ("tree", "line"),
    [
        ({"a": 1.5, "b": [None, True]}, b'{"a":1.5,"b":[null,true]}'),
        ({"x": "😀"}, b'{"x":"\\uD83D\\uDE00"}'),  # Jackson escapes the surrogate pair
        ({"x": math.nan}, None),  # orjson would write null; Jackson writes "NaN"
        ({"x": 1e7, "y": [2.5e-7, 0.5]}, b'{"x":1.0E7,"y":[2.5E-7,0.5]}'),  # orjson: 10000000.0
        ({"x": 0.0005}, b'{"x":5.0E-4}'),  # orjson: 0.0005
        ({"x": "\x1f"}, None),  # orjson writes \u001f, Jackson \u001F
        (12, b"12"),
        (1e22, b"1.0E22"),  # orjson: 1e+22
        ({"x": Decimal("1.0")}, None),
    ],
)
def test_dumps_fast_examples(tree: Any, line: bytes | None) -> None:
    assert dumps_fast(tree) == line
    if line is not None:
        assert dumps_json(tree).encode() == line
