"""Confluent's Connect Variant (``io.confluent.connect.schema.ConnectVariant``): a struct named
``org.apache.kafka.connect.data.Variant`` of two required BYTES fields, ``metadata`` and
``value``, in the Parquet Variant binary encoding, built from a JSON value as schema-registry's
``VariantUtils.fromJsonNode`` and ``VariantBuilder`` do (unsorted key dictionary in first-seen
order; object fields sorted by key, as Java's ``String.compareTo``; each integer as INT32 or
INT64, each decimal number as DECIMAL4/8/16 keeping its scale)."""

from __future__ import annotations

import struct
from decimal import Decimal
from typing import Any

from s3connect.connect.schema import ConnectSchema, Field, Type

__all__ = ["VARIANT", "VARIANT_SCHEMA", "variant_from_json"]

VARIANT = "org.apache.kafka.connect.data.Variant"
VARIANT_SCHEMA = ConnectSchema(
    Type.STRUCT,
    name=VARIANT,
    fields=(
        Field("metadata", ConnectSchema(Type.BYTES)),
        Field("value", ConnectSchema(Type.BYTES)),
    ),
)
"""``ConnectVariant.builder().build()``."""

_INT32 = (-(1 << 31), (1 << 31) - 1)
_INT64 = (-(1 << 63), (1 << 63) - 1)


def _primitive(type_id: int) -> bytes:
    return bytes([type_id << 2])


def _le(value: int, size: int) -> bytes:
    return (value & ((1 << (8 * size)) - 1)).to_bytes(size, "little")


def _min_size(value: int) -> int:
    """VariantBuilder.getMinIntegerSize."""
    return 1 if value <= 0xFF else 2 if value <= 0xFFFF else 3 if value <= 0xFFFFFF else 4


class _Builder:
    def __init__(self) -> None:
        self.ids: dict[str, int] = {}
        self.keys: list[bytes] = []

    def key_id(self, key: str) -> int:
        found = self.ids.get(key)
        if found is None:
            found = self.ids[key] = len(self.keys)
            self.keys.append(key.encode("utf-8", "replace"))
        return found

    def value(self, node: Any) -> bytes:
        if node is None:
            return _primitive(0)
        if node is True or node is False:
            return _primitive(1 if node else 2)
        if isinstance(node, str):
            data = node.encode("utf-8", "replace")
            if len(data) <= 0b111111:
                return bytes([len(data) << 2 | 1]) + data
            return _primitive(16) + _le(len(data), 4) + data
        if isinstance(node, int):
            if _INT32[0] <= node <= _INT32[1]:
                return _primitive(5) + _le(node, 4)
            if _INT64[0] <= node <= _INT64[1]:
                return _primitive(6) + _le(node, 8)
            return _decimal(Decimal(node))
        if isinstance(node, Decimal):
            return _decimal(node)
        if isinstance(node, float):
            return _primitive(7) + struct.pack("<d", node)
        if isinstance(node, list):
            return self.array(node)
        if isinstance(node, dict):
            return self.object(node)
        raise ValueError(f"Unsupported JSON node type: {type(node).__name__}")

    def array(self, items: list[Any]) -> bytes:
        values = [self.value(item) for item in items]
        offsets, size = [], 0
        for v in values:
            offsets.append(size)
            size += len(v)
        large = len(values) > 0xFF
        offset_size = _min_size(size)
        header = (int(large) << 4) | ((offset_size - 1) << 2) | 3
        out = bytes([header]) + _le(len(values), 4 if large else 1)
        out += b"".join(_le(o, offset_size) for o in [*offsets, size])
        return out + b"".join(values)

    def object(self, node: dict[str, Any]) -> bytes:
        fields = [(key, self.key_id(key), self.value(v)) for key, v in node.items()]
        fields.sort(key=lambda f: f[0].encode("utf-16-be", "surrogatepass"))
        size = sum(len(v) for _, _, v in fields)
        large = len(fields) > 0xFF
        id_size = _min_size(max((i for _, i, _ in fields), default=0))
        offset_size = _min_size(size)
        header = (int(large) << 6) | ((id_size - 1) << 4) | ((offset_size - 1) << 2) | 2
        out = bytes([header]) + _le(len(fields), 4 if large else 1)
        out += b"".join(_le(i, id_size) for _, i, _ in fields)
        offset = 0
        for _, _, v in fields:
            out += _le(offset, offset_size)
            offset += len(v)
        out += _le(size, offset_size)
        return out + b"".join(v for _, _, v in fields)

    def metadata(self) -> bytes:
        total = sum(len(k) for k in self.keys)
        offset_size = _min_size(max(total, len(self.keys)))
        out = bytes([1 | ((offset_size - 1) << 6)]) + _le(len(self.keys), offset_size)
        offset = 0
        for key in self.keys:
            out += _le(offset, offset_size)
            offset += len(key)
        return out + _le(offset, offset_size) + b"".join(self.keys)


def _decimal(number: Decimal) -> bytes:
    """VariantBuilder.appendDecimal: DECIMAL4, 8 or 16 by the precision, the scale kept."""
    sign, digits, exponent = number.as_tuple()
    assert isinstance(exponent, int)
    unscaled = int("".join(map(str, digits)) or "0") * (-1 if sign else 1)
    precision, scale = len(str(abs(unscaled))), -exponent
    if precision <= 9:
        return _primitive(8) + _le(scale, 1) + _le(unscaled, 4)
    if precision <= 18:
        return _primitive(9) + _le(scale, 1) + _le(unscaled, 8)
    if precision > 38 or scale > 38:
        raise ValueError(f"Variant decimals hold 38 digits at most: {number}")
    return _primitive(10) + _le(scale, 1) + _le(unscaled, 16)


def variant_from_json(node: Any) -> dict[str, bytes]:
    """``ConnectVariant.toLogical``: the Variant struct of a parsed JSON value (decimal
    numbers as ``Decimal``, as Jackson's BigDecimals).

    Raises:
        ValueError: a decimal beyond 38 digits.
    """
    builder = _Builder()
    value = builder.value(node)
    return {"metadata": builder.metadata(), "value": value}
