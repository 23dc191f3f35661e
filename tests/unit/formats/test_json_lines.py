"""What JsonFormat writes for schemaless JSON values after Kafka's JsonConverter, byte for byte:
each expected line is what Kafka 4.1.1's JsonConverter and Confluent's JsonRecordWriterProvider
wrote for the same input on Java 17 (``tests/reference`` runs them on generated values)."""

from __future__ import annotations

import io

import pytest

from s3connect.connect.records import SinkRecord
from s3connect.convert.json import JsonConverter
from s3connect.formats.json import JsonFormat


def _line(value: bytes) -> bytes:
    connect, schema = JsonConverter(schemas_enable=False).to_connect("t", value)
    out = io.BytesIO()
    JsonFormat().write([SinkRecord("t", 0, 0, None, None, connect, None, schema)], out)
    return out.getvalue()


@pytest.mark.parametrize(
    ("value", "java"),
    [
        # keys in java.util.HashMap order, at every level
        (b'{"id":1,"name":"x"}', b'{"name":"x","id":1}\n'),
        (b'{"user":"u","amount":2,"region":"eu","ts":3,"tags":[],"id":4}',
         b'{"amount":2,"id":4,"region":"eu","user":"u","ts":3,"tags":[]}\n'),
        (b'[{"b":1,"a":{"id":1,"name":2}}]', b'[{"a":{"name":2,"id":1},"b":1}]\n'),
        (b'{"b":1,"a":2,"b":3}', b'{"a":2,"b":3}\n'),  # a repeated key: the last value
        # numbers: Long (wrapping), Double as Java prints it, no negative zero
        (b"[9223372036854775808,-0,-0.0,1e5,1E-5,12345678.5,1e400,5e-324]",
         b'[-9223372036854775808,0,0.0,100000.0,1.0E-5,1.23456785E7,"Infinity",4.9E-324]\n'),
        # Jackson's escapes: control characters in upper-case hex, surrogates escaped
        (b'"\\u001f\\u00e9\\ud83d\\ude00/"', b'"\\u001F\xc3\xa9\\uD83D\\uDE00/"\n'),
        # Kafka's reader: leading zeros, what follows the first value ignored, blank is null
        (b"[007,-00.5]", b"[7,-0.5]\n"),
        (b'{"a":1} trailing', b'{"a":1}\n'),
        (b"1 2", b"1\n"),
        (b"  ", b"null\n"),
    ],
)  # fmt: skip
def test_schemaless_lines_are_kafkas(value: bytes, java: bytes) -> None:
    assert _line(value) == java


@pytest.mark.parametrize("value", [b"1x", b"1]", b"truex", b"[1,]", b"NaN", b"{'a':1}", b".5"])
def test_what_kafka_refuses_is_refused(value: bytes) -> None:
    with pytest.raises(ValueError, match="Converting byte\\[\\] to Kafka Connect data failed"):
        JsonConverter(schemas_enable=False).to_connect("t", value)
