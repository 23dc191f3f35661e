"""Kafka Connect's ``Values`` (``connect-api`` 4.1.1, in ``.deps/connect-libs``) beside ours on
texts: ``parseString`` (schema, values and their ``convertToString``) and the ``convertTo*`` of a
text, with the same results or the same error messages.

Not compared: Java 17's float texts that Java 19+ prints otherwise (JDK-4511638; we print what
current Java prints), Kafka's ``NullPointerException`` on the text ``null`` (ours is a
``DataException``), and dates Kafka's lenient parser puts outside Python's years 1-9999.
"""

from __future__ import annotations

import base64
import random
import re
from collections.abc import Callable
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from s3connect.connect.schema import ConnectSchema, Type
from s3connect.transforms import value_convert as vc
from s3connect.transforms.jvm import decimal_text, double_text, to_float32
from s3connect.transforms.value_parser import parse_string
from s3connect.transforms.values import convert_to_string, is_temporal, temporal_millis
from s3connect.util.jackson import Float32
from tests.reference.java import values_results

FLOAT = re.compile(r"\b([fd])(-?[0-9][0-9.]*(?:E-?[0-9]+)?)")
DATE_RANGE = (-62135596800000, 253402300800000)  # 0001-01-01 .. 10000-01-01 in epoch millis
TEXTS = [
    "",
    " ",
    "null",
    " null ",
    "true",
    "false",
    "TRUE",
    "true}",
    "false]",
    "null=",
    "[1, 2, 3]",
    '{"a":1}',
    '{"a": 1, "b": 300}',
    "[1, 2, 32768]",
    "[1, 2, 3.4028235E38]",
    '[1, 2, 300, "four"]',
    '{1:1, 2:1, 300:300, "four":1}',
    "[[]]",
    "[{}]",
    '{"a":[]}',
    "[1, 2, 3,,,]",
    "[1, null]",
    "[null]",
    "{3: null}",
    "{null: 3}",
    "2019-08-23T14:34:54.346Z",
    "2019-08-23",
    "14:34:54.346Z",
    "2019-08-23T14\\:34\\:54.346Z",
    "[2019-08-23, 5]",
    "[1, 2019-08-23T14:34:54.346Z]",
    '{"k1":"14:34:54.346Z"}',
    "{foo: 3}",
    "[foo]",
    "{6:9 4:20}",
    "\uffff",
    "127",
    "-129",
    "32768",
    "2147483648",
    "9223372036854775807",
    "9223372036854775808",
    "1e19",
    "1e18",
    "1e1000000000",
    "1e-1000000000",
    "-0",
    "-0.0",
    "0.000",
    "1.1",
    "300.01",
    "1e39",
    "1e309",
    "12345678901234567890.5",
    "+5",
    "-",
    ".5",
    "5e",
    "0x10",
    "\uff11\uff12",
    'three"blind\\"mice',
    "a{b",
    '"simple" string',
    "si\\mple",
    '["a\\"b"]',
    '["a,b"]',
    "[true, 1]",
    "[1.5, 1e300]",
    "[1, 9223372036854775808]",
    '[{"a":1}, {"b":2}]',
    "[2019-08-23, 14:34:54.346Z]",
    "2019-02-30",
    "25:61:61.999Z",
    "14:34:54.3461",
    "2019-08-23 ",
    " { ,,  , , }  ",
    ' { "foo" :  1 ,, "bar" : 0 }  ',
    '{"a":1 "b":2}',
    "[1 2]",
    '[""]',
    '{"":""}',
    "[ ]",
    " [1] ",
    "[1] x",
    "{[1]:1}",
    '{{"a":1}:1}',
    "\\",
    '"',
    "NaN",
    "1f",
    "010",
    "1.4E-45",
    "1e-330",
    "[0.1, 0.2]",
    '["x", 1.5]',
    "{2019-08-23:1}",
]


def _number(kind: Type) -> Callable[[Any], Any]:
    return lambda value: vc.convert_to_number(None, value, kind)


OPS: dict[str, Callable[[Any], Any]] = {
    "L": lambda v: vc.convert_to_list(None, v),
    "M": lambda v: vc.convert_to_map(None, v),
    "b": lambda v: vc.convert_to_boolean(None, v),
    "1": _number(Type.INT8),
    "2": _number(Type.INT16),
    "4": _number(Type.INT32),
    "8": _number(Type.INT64),
    "f": _number(Type.FLOAT32),
    "d": _number(Type.FLOAT64),
    "t": lambda v: vc.convert_to_time(None, v),
    "D": lambda v: vc.convert_to_date(None, v),
    "T": lambda v: vc.convert_to_timestamp(None, v),
    "S": lambda v: vc.convert_to_struct(None, v),
}


def _schema(schema: ConnectSchema | None) -> str:
    if schema is None:
        return "-"
    out = schema.type.name
    if schema.name:
        out += "<" + schema.name.replace("org.apache.kafka.connect.data.", "") + ">"
    if schema.optional:
        out += "?"
    if schema.parameters:
        out += "{" + ", ".join(f"{k}={v}" for k, v in sorted(schema.parameters.items())) + "}"
    if schema.type is Type.ARRAY:
        out += f"({_schema(schema.value_schema)})"
    if schema.type is Type.MAP:
        out += f"({_schema(schema.key_schema)},{_schema(schema.value_schema)})"
    return out


def _value(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return f"n{value}"
    if isinstance(value, float):
        single = isinstance(value, Float32)
        return ("f" if single else "d") + double_text(value, single)
    if isinstance(value, Decimal):
        return "D" + decimal_text(value)
    if isinstance(value, str):
        return f"'{value}'"
    if is_temporal(value):
        return f"T{temporal_millis(value)}"
    if isinstance(value, bytes):
        return "B" + base64.b64encode(value).decode()
    if isinstance(value, list | tuple):
        return "[" + "".join(_value(v) + "," for v in value) + "]"
    return "{" + "".join(f"{_value(k)}={_value(v)}," for k, v in value.items()) + "}"


def ours(op: str, text: str) -> str:
    try:
        if op == "P":
            parsed = parse_string(text)
            if parsed is None:
                return "OK NULL"
            result = f"{_schema(parsed[0])} {_value(parsed[1])} {convert_to_string(*parsed)}"
        else:
            result = _value(OPS[op](text))
        return "OK " + result.replace("\n", "\\n")
    except ValueError as exc:  # DataError
        return f"ERR DataException: {exc}".replace("\n", "\\n")


def _generated(seed: int, count: int) -> list[str]:
    rng = random.Random(seed)
    atoms = [
        "1", "-1", "300", "70000", "5000000000", "1.5", "1e300", "1e19", "9223372036854775808",
        "0.1", "true", "false", "null", '"a"', '"b\\"c"', '"2019-08-23"', "2019-08-23",
        "14:34:54.346Z", "2019-08-23T14:34:54.346Z", "x", " ", "", "\\", "\\:", "12:34",
    ]  # fmt: skip

    def one(depth: int) -> str:
        draw = rng.random()
        if depth > 3 or draw < 0.5:
            return rng.choice(atoms)
        if draw < 0.75:
            items = rng.choice([",", ", ", " ,"]).join(
                one(depth + 1) for _ in range(rng.randint(0, 4))
            )
            return "[" + items + rng.choice(["]", "]", "]", "", ",]"])
        entries = (
            one(depth + 1) + rng.choice([":", ": ", " "]) + one(depth + 1)
            for _ in range(rng.randint(0, 3))
        )
        return "{" + ", ".join(entries) + rng.choice(["}", "}", "}", "", ",}"])

    return [one(0) for _ in range(count)]


def _java17_float(answer: str) -> bool:
    """Whether Java 17 printed a float or double otherwise than current Java does."""
    for kind, text in FLOAT.findall(answer):
        number = to_float32(float(text)) if kind == "f" else float(text)
        if double_text(number, kind == "f") != text:
            return True
    return False


def _comparable(answer: str) -> bool:
    if _java17_float(answer) or "NullPointerException" in answer:
        return False
    return all(DATE_RANGE[0] <= int(m) < DATE_RANGE[1] for m in re.findall(r"T(-?\d+)", answer))


@pytest.mark.parametrize("seed", range(2))
def test_values_do_what_kafkas_do(seed: int, tmp_path: Path) -> None:
    texts = TEXTS if seed == 0 else _generated(seed, 2000)
    cases = [("P", t) for t in texts]
    if seed == 0:
        cases += [(op, t) for op in OPS for t in texts]
    reference = values_results(cases, tmp_path)
    mismatched = [
        (op, text, want, got)
        for (op, text), want in zip(cases, reference, strict=True)
        if _comparable(want) and (got := ours(op, text)) != want
    ]
    shown = (f"{op} {text!r}\n  java: {w}\n  ours: {g}" for op, text, w, g in mismatched)
    assert not mismatched, "\n".join(list(shown)[:6])
