"""Confluent's Connect Variant of JSON values: the bytes schema-registry's
``VariantUtils.fromJsonNode`` makes (master 794611bd), produced by running it on each
case (Jackson with BigDecimal floats, as the JSON Schema deserializer reads)."""

from __future__ import annotations

import json
from decimal import Decimal

import pytest

from s3connect.connect.variant import variant_from_json

CASES = [
    (
        '{"name":"Alice","age":30}',
        '01020004076e616d65616765',
        '0202010000050b141e00000015416c696365',
    ),
    (
        '"hello"',
        '010000',
        '1568656c6c6f',
    ),
    (
        '42',
        '010000',
        '142a000000',
    ),
    (
        'true',
        '010000',
        '04',
    ),
    (
        'null',
        '010000',
        '00',
    ),
    (
        '[1,2,3]',
        '010000',
        '030300050a0f140100000014020000001403000000',
    ),
    (
        '1.50',
        '010000',
        '200296000000',
    ),
    (
        '1e5',
        '010000',
        '20fb01000000',
    ),
    (
        '-0.0',
        '010000',
        '200100000000',
    ),
    (
        '12345678901234567890',
        '010000',
        '2800d20a1feb8ca954ab0000000000000000',
    ),
    (
        '123456789012.5',
        '010000',
        '2401cd04fb711f010000',
    ),
    (
        '3000000000',
        '010000',
        '18005ed0b200000000',
    ),
    (
        '{"b":{"x":1,"a":[{"z":null}]},"a":2,"é":"ü","B":false}',
        '0106000102030406076278617ac3a942',
        '0204050200040001061c1f08140200000002020201000a0f03010006020103000100140100000009c3bc',
    ),
    (
        (
            '"a very long string that is certainly longer than sixty three bytes in'
            ' utf eight encoding"'
        ),
        '010000',
        (
            '4058000000612076657279206c6f6e6720737472696e672074686174206973206365727461696e6c'
            '79206c6f6e676572207468616e20736978747920746872656520627974657320696e207574662065'
            '6967687420656e636f64696e67'
        ),
    ),
    (
        '[]',
        '010000',
        '030000',
    ),
    (
        '{}',
        '010000',
        '020000',
    ),
    (
        '-7',
        '010000',
        '14f9ffffff',
    ),
    (
        '-2.5E-3',
        '010000',
        '2004e7ffffff',
    ),
    (
        '99999999999999999999999999999999999999',
        '010000',
        '2800ffffffff3f228a097ac4865aa84c3b4b',
    ),
]  # fmt: skip


@pytest.mark.parametrize(("text", "metadata", "value"), CASES)
def test_variant_bytes_are_confluents(text: str, metadata: str, value: str) -> None:
    out = variant_from_json(json.loads(text, parse_float=Decimal))
    assert (out["metadata"].hex(), out["value"].hex()) == (metadata, value)


def test_variant_decimal_beyond_38_digits_is_refused() -> None:
    with pytest.raises(ValueError, match="38 digits"):
        variant_from_json(Decimal("1" * 39))
