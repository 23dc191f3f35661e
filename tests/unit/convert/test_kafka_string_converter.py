"""Kafka's ``StringConverterTest`` (connect/api, apache/kafka 1eb7644), one test per Java method,
on :class:`s3connect.convert.string.StringConverter` (``converter.encoding`` is its
``encoding``). The header methods delegate to the data ones in Kafka; ours has none of its own,
so the header tests run the data methods as Kafka's do."""

from __future__ import annotations

from s3connect.connect.schema import ConnectSchema, Type
from s3connect.convert.string import StringConverter

TOPIC = "topic"
SAMPLE_STRING = "a string"
STRING = ConnectSchema(Type.STRING)
BOOLEAN = ConnectSchema(Type.BOOLEAN)
OPTIONAL_STRING = ConnectSchema(Type.STRING, optional=True)
UTF_16 = "UTF-16"  # StandardCharsets.UTF_16.name(): big-endian, with a byte-order mark
SAMPLE_UTF_16 = b"\xfe\xff" + SAMPLE_STRING.encode("utf-16-be")  # "a string".getBytes(UTF_16)


def test_string_to_bytes() -> None:
    assert StringConverter().from_connect(TOPIC, STRING, SAMPLE_STRING) == b"a string"


def test_non_string_to_bytes() -> None:
    assert StringConverter().from_connect(TOPIC, BOOLEAN, True) == b"true"


def test_null_to_bytes() -> None:
    assert StringConverter().from_connect(TOPIC, OPTIONAL_STRING, None) is None


def test_to_bytes_ignores_schema() -> None:
    assert StringConverter().from_connect(TOPIC, None, True) == b"true"


def test_to_bytes_non_utf8_encoding() -> None:
    converter = StringConverter(encoding=UTF_16)
    assert converter.from_connect(TOPIC, STRING, SAMPLE_STRING) == SAMPLE_UTF_16


def test_bytes_to_string() -> None:
    data = StringConverter().to_connect(TOPIC, SAMPLE_STRING.encode())
    assert data == (SAMPLE_STRING, OPTIONAL_STRING)


def test_bytes_null_to_string() -> None:
    assert StringConverter().to_connect(TOPIC, None) == (None, OPTIONAL_STRING)


def test_bytes_to_string_non_utf8_encoding() -> None:
    data = StringConverter(encoding=UTF_16).to_connect(TOPIC, SAMPLE_UTF_16)
    assert data == (SAMPLE_STRING, OPTIONAL_STRING)


def test_string_header_value_to_bytes() -> None:
    assert StringConverter().from_connect(TOPIC, STRING, SAMPLE_STRING) == b"a string"


def test_non_string_header_value_to_bytes() -> None:
    assert StringConverter().from_connect(TOPIC, BOOLEAN, True) == b"true"


def test_null_header_value_to_bytes() -> None:
    assert StringConverter().from_connect(TOPIC, OPTIONAL_STRING, None) is None
