"""The sink's fast paths give exactly what the reference conversions give, errors included.

Differential tests over random schemas and (often invalid) values: the JsonConverter (envelope
prefix cache, generated payload converter) against a plain ``json.loads`` plus the reference
``json_to_connect``; the generated Connect -> Avro and Connect -> Arrow row converters against
``to_avro_value`` and ``to_arrow_value``.
"""

from __future__ import annotations

import json
import random
from decimal import Decimal
from typing import Any

import pytest

from s3connect.connect.json_data import json_to_connect, parse_json_schema
from s3connect.connect.schema import DATE, DECIMAL, TIME, TIMESTAMP, ConnectSchema, Field, Type
from s3connect.convert.avro_data import AvroDataOptions, compile_to_avro, to_avro_value
from s3connect.convert.json import _ENVELOPE_ERROR, JsonConverter, _loads
from s3connect.formats.arrow import compile_to_arrow, to_arrow_value
from tests.unit.convert.random_connect import Names, loosen, random_schema, random_value

_PRIMITIVES = ["int8", "int16", "int32", "int64", "float", "double", "boolean", "string", "bytes"]
_DEFAULTS = {"int32": 7, "string": "dflt", "boolean": True, "double": 1.5}


def _schema(rng: random.Random, depth: int = 0) -> dict[str, Any]:
    r = rng.random()
    s: dict[str, Any]
    if depth > 2 or r < 0.5:
        kind = rng.choice([*_PRIMITIVES, "decimal", "date", "time", "timestamp"])
        logical = {
            "decimal": {"type": "bytes", "name": DECIMAL, "parameters": {"scale": "2"}},
            "date": {"type": "int32", "name": DATE},
            "time": {"type": "int32", "name": TIME},
            "timestamp": {"type": "int64", "name": TIMESTAMP},
        }
        s = logical.get(kind, {"type": kind})
        if kind in _DEFAULTS and rng.random() < 0.2:
            s["default"] = _DEFAULTS[kind]
    elif r < 0.65:
        s = {"type": "array", "items": _schema(rng, depth + 1)}
    elif r < 0.72:
        keys = rng.choice([{"type": "string"}, {"type": "int32"}])
        s = {"type": "map", "keys": keys, "values": _schema(rng, depth + 1)}
    else:
        fields = [{**_schema(rng, depth + 1), "field": f"f{i}"} for i in range(rng.randint(0, 4))]
        s = {"type": "struct", "fields": fields}
    s["optional"] = rng.random() < 0.3
    return s


def _value(rng: random.Random, s: dict[str, Any]) -> Any:
    if rng.random() < 0.06:
        return rng.choice([None, "str", 1, 1.5, True, [], {}, 2**70, -1])
    if s.get("optional") and rng.random() < 0.1:
        return None
    t, name = s["type"], s.get("name")
    if name == DECIMAL:
        return rng.choice([Decimal("1.5"), 12, "AAE=", Decimal("-0.25")])
    if name in (DATE, TIME, TIMESTAMP):  # edges of Python's dates and of the inlined ranges
        edges = [-1, 86_399_999, 86_400_000, -(7 * 10**5) - 1, 10**6, 10**14, -(10**13) - 1]
        return rng.choice([rng.randint(0, 86_399_999), rng.randint(-(10**5), 10**5), *edges])
    if t.startswith("int"):
        return rng.choice([0, 1, -5, 127, 128, 2**31, -(2**63), 2**63])
    if t in ("float", "double"):
        return rng.choice([0, 1, Decimal("0.1"), Decimal("1e400"), Decimal("-2.5E-3"), 10**30])
    if t == "boolean":
        return rng.choice([True, False])
    if t == "string":
        return rng.choice(["", "a", "é\u2603", "x" * 50])
    if t == "bytes":
        return rng.choice(["", "AAE=", "!!"])
    if t == "array":
        return [_value(rng, s["items"]) for _ in range(rng.randint(0, 3))]
    if t == "map":
        if s["keys"]["type"] == "string":
            keys = rng.sample(["k0", "zz", "Aa", "BB", "b", "a", "key10"], rng.randint(0, 4))
            return {k: _value(rng, s["values"]) for k in keys}  # HashMap order differs
        return [[i, _value(rng, s["values"])] for i in range(rng.randint(0, 2))]
    out = {f["field"]: _value(rng, f) for f in s["fields"] if rng.random() < 0.95}
    if rng.random() < 0.05:
        out["extra"] = 1
    return out


def _number(d: Decimal) -> Any:
    return int(d) if d == d.to_integral_value() and "E" not in str(d) else float(str(d))


def _reference(data: bytes) -> tuple[Any, Any]:
    """JsonConverter.to_connect as first written: full parse (Kafka's lenient reader), envelope
    check, reference tree."""
    node = _loads(data)
    if not isinstance(node, dict) or len(node) != 2 or not {"schema", "payload"} <= node.keys():
        raise ValueError(_ENVELOPE_ERROR)
    schema = parse_json_schema(node["schema"])
    return json_to_connect(schema, node["payload"], True), schema


def _outcome(f: Any) -> tuple[Any, ...]:
    try:
        return ("ok", repr(f()))
    except Exception as e:
        return ("error", type(e).__name__, str(e))


@pytest.mark.parametrize("seed", range(4))
def test_json_and_avro_fast_paths_match_the_references(seed: int) -> None:
    rng = random.Random(seed)
    converted = 0
    for _ in range(300):
        schema_json = json.dumps(_schema(rng), separators=(",", ":"))
        converter = JsonConverter()
        for _ in range(10):
            payload = json.dumps(_value(rng, json.loads(schema_json)), default=_number)
            tail = rng.choice(["}", "}", "} ", "}\n", "", "}}", ',"payload":1}'])
            data = ('{"schema":' + schema_json + ',"payload":' + payload + tail).encode()
            got = _outcome(lambda c=converter, d=data: c.to_connect("t", d))
            assert got == _outcome(lambda d=data: _reference(d)), data
            if got[0] != "ok":
                continue
            converted += 1
            value, schema = converter.to_connect("t", data)
            if schema is not None:
                fast = _outcome(lambda s=schema, v=value: compile_to_avro(s)(v))
                assert fast == _outcome(lambda s=schema, v=value: to_avro_value(s, v))
                rows = _outcome(lambda s=schema, v=value: compile_to_arrow(s)(v))
                assert rows == _outcome(lambda s=schema, v=value: to_arrow_value(s, v))
    assert converted > 500


@pytest.mark.parametrize("seed", range(3))
def test_avro_and_arrow_fast_paths_match_the_references_on_connect_values(seed: int) -> None:
    """Values as converters other than JSON make them (datetimes, dates, times, bytes, maps with
    any keys, unions, enums, defaults), sometimes replaced by a wrong one, under both settings of
    ``allow.optional.map.keys``."""
    rng, names, checked = random.Random(seed), Names(), 0
    for _ in range(200):
        schema = loosen(rng, random_schema(rng, names))
        options = AvroDataOptions(allow_optional_map_keys=rng.random() < 0.5)
        to_avro, to_arrow = compile_to_avro(schema, options), compile_to_arrow(schema, options)
        for _ in range(8):
            value = random_value(rng, schema)
            if rng.random() < 0.2:
                value = _spoil(rng, value)
            avro = _outcome(lambda s=schema, v=value, o=options: to_avro_value(s, v, o))
            assert _outcome(lambda v=value, f=to_avro: f(v)) == avro, (schema, value)
            arrow = _outcome(lambda s=schema, v=value, o=options: to_arrow_value(s, v, o))
            assert _outcome(lambda v=value, f=to_arrow: f(v)) == arrow, (schema, value)
            checked += avro[0] == "ok" and arrow[0] == "ok"
    assert checked > 400


def test_fixed_bytes_keep_their_size_check_in_the_fast_paths() -> None:
    fixed = ConnectSchema(Type.BYTES, name="f.Fixed", parameters={"connect.fixed.size": "4"})
    schema = ConnectSchema(
        Type.STRUCT, fields=(Field("f", fixed), Field("b", ConnectSchema(Type.BYTES)))
    )
    for value in ({"f": b"abcd", "b": b""}, {"f": b"abc", "b": b"x"}, {"f": b"abcd", "b": 3}):
        avro = _outcome(lambda v=value: to_avro_value(schema, v))
        assert _outcome(lambda v=value: compile_to_avro(schema)(v)) == avro
        arrow = _outcome(lambda v=value: to_arrow_value(schema, v))
        assert _outcome(lambda v=value: compile_to_arrow(schema)(v)) == arrow
    assert (
        avro[0] == "error"
        and "3 bytes for the fixed type f.Fixed"
        in _outcome(lambda: compile_to_arrow(schema)({"f": b"abc", "b": b""}))[2]
    )


def _spoil(rng: random.Random, value: Any) -> Any:
    """``value`` with one leaf (or itself) replaced by a value of another type or size."""
    if isinstance(value, dict) and value and rng.random() < 0.8:
        key = rng.choice(list(value))
        return {**value, key: _spoil(rng, value[key])}
    if isinstance(value, list) and value and rng.random() < 0.8:
        i = rng.randrange(len(value))
        return [*value[:i], _spoil(rng, value[i]), *value[i + 1 :]]
    return rng.choice([None, "x", 3, 2.5, True, b"\x01", bytearray(b"abcd"), [], {}, {"k": None}])


_NUMBERS = [
    "0", "-0", "0.0", "-0.0", "1e-400", "-1e-400", "1e400", "-1e400", "4.9e-324", "2.5e-324",
    "1.7976931348623157e308", "1.7976931348623159e308", "1E2", "1.0", "007", "-5", "0.1",
    "9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
    "12345678901234567890123", "123456789012345678.5", "NaN", "Infinity", "1_000", "+1",
]  # fmt: skip


def test_payload_numbers_read_with_floats_are_what_the_exact_parse_gives() -> None:
    """The envelope's fast parse (orjson, floats) against the exact one (Decimals) on the edges
    of numbers: zeros' signs, underflow, overflow, 64-bit limits, leniencies."""
    fields = [
        {"field": "d", "type": "double", "optional": True},
        {"field": "f", "type": "float", "optional": True},
        {"field": "l", "type": "int64", "optional": True},
        {"field": "a", "type": "array", "items": {"type": "double"}, "optional": True},
        {"field": "m", "type": "map", "keys": {"type": "string"}, "values": {"type": "double"}},
    ]
    schema = json.dumps({"type": "struct", "fields": fields}, separators=(",", ":"))
    converter, checked = JsonConverter(), 0
    for text in _NUMBERS:
        for payload in (
            f'{{"d":{text},"f":{text},"l":{text},"m":{{}}}}',
            f'{{"l":1,"a":[1.5,{text}],"m":{{"Aa":{text},"BB":-0.0}}}}',
        ):
            data = ('{"schema":' + schema + ',"payload":' + payload + "}").encode()
            got = _outcome(lambda d=data: converter.to_connect("t", d))
            assert got == _outcome(lambda d=data: _reference(d)), data
            checked += got[0] == "ok"
    assert checked > 20


def test_envelope_cache_keeps_schema_identity_and_handles_schema_changes() -> None:
    converter = JsonConverter()
    a = b'{"schema":{"type":"struct","fields":[{"field":"x","type":"int32"}]},"payload":{"x":1}}'
    b = b'{"schema":{"type":"struct","fields":[{"field":"y","type":"string"}]},"payload":{"y":"s"}}'
    va, sa = converter.to_connect("t", a)
    vb, sb = converter.to_connect("t", b)
    assert (va, vb) == ({"x": 1}, {"y": "s"})
    assert converter.to_connect("t", a)[1] is sa
    assert converter.to_connect("t", b)[1] is sb
    # Kafka reads a string for an int32 as Jackson's TextNode.intValue(): 0.
    assert converter.to_connect("t", a.replace(b'"x":1', b'"x":"1"')) == ({"x": 0}, sa)
    with pytest.raises(ValueError, match='null used for required field: "y"'):
        converter.to_connect("t", b.replace(b'"y":"s"', b'"y":1'))
    with pytest.raises(ValueError, match="serialization error"):
        converter.to_connect("t", a[:-1])


def test_field_names_are_data_never_code() -> None:
    """Field names come from records: generated code must hold them as literals only."""
    hostile = ['"); import os #', "a\nb", "__import__('os')", "'", "\\", "x}{y"]
    schema = {
        "type": "struct",
        "fields": [{"field": name, "type": "int32"} for name in hostile],
    }
    payload = {name: i for i, name in enumerate(hostile)}
    value, parsed = JsonConverter(schemas_enable=True).to_connect(
        "t", json.dumps({"schema": schema, "payload": payload}).encode()
    )
    assert value == payload
    assert parsed is not None
    assert compile_to_avro(parsed)(value) == payload
