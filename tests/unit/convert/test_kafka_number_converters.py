"""Kafka's number and Boolean converters, ported one test per Java method from Apache Kafka
(commit 1eb7644349cb07139d6a3c1ad1986979647cac99; jars 4.1.1):
connect/runtime/src/test/java/org/apache/kafka/connect/converters/NumberConverterTest (abstract,
run here over its subclasses ShortConverterTest, IntegerConverterTest, LongConverterTest,
FloatConverterTest, DoubleConverterTest) and BooleanConverterTest.

Kafka's DataException is our ValueError; the expected bytes are what Kafka's serializers write
(checked against kafka-clients 4.1.1). ``testInheritedVersionRetrievedFromAppInfoParser`` and
``testVersionRetrievedFromAppInfoParser`` are not ported: our converters have no ``version()``.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from typing import Any

import pytest

from s3connect.connect.schema import ConnectSchema, Type
from s3connect.convert.base import Converter
from s3connect.convert.factory import make_converter, make_serializer
from s3connect.convert.number import BooleanConverter, NumberConverter
from s3connect.util.jackson import Float32

TOPIC = "topic"
HEADER_NAME = "header"


def _f32(bits: str) -> float:
    """The Java float of these IEEE bits, as our values hold it."""
    value: float = struct.unpack(">f", bytes.fromhex(bits))[0]
    return value


@dataclass(frozen=True)
class Case:
    """One NumberConverterTest subclass: its converter, schema and samples with the bytes
    Kafka's serializer writes of each."""

    name: str
    converter_class: str
    schema: ConnectSchema
    samples: tuple[tuple[Any, str], ...]
    message: str  # DataException of testDeserializingDataWithTooManyBytes

    def converter(self) -> NumberConverter:
        converter = make_converter(f"org.apache.kafka.connect.converters.{self.converter_class}")
        assert isinstance(converter, NumberConverter)
        return converter


CASES = [
    Case(
        "short", "ShortConverter", ConnectSchema(Type.INT16, optional=True),
        ((-(2**15), "8000"), (123, "007b"), (2**15 - 1, "7fff")),
        "Failed to deserialize short: Size of data received by ShortDeserializer is not 2",
    ),
    Case(
        "integer", "IntegerConverter", ConnectSchema(Type.INT32, optional=True),
        ((-(2**31), "80000000"), (1234, "000004d2"), (2**31 - 1, "7fffffff")),
        "Failed to deserialize integer: Size of data received by IntegerDeserializer is not 4",
    ),
    Case(
        "long", "LongConverter", ConnectSchema(Type.INT64, optional=True),
        (
            (-(2**63), "8000000000000000"),
            (1234, "00000000000004d2"),
            (2**63 - 1, "7fffffffffffffff"),
        ),
        "Failed to deserialize long: Size of data received by LongDeserializer is not 8",
    ),
    Case(
        "float", "FloatConverter", ConnectSchema(Type.FLOAT32, optional=True),
        (
            (_f32("00000001"), "00000001"),  # Float.MIN_VALUE
            (_f32("449a49ec"), "449a49ec"),  # 1234.31f
            (_f32("7f7fffff"), "7f7fffff"),  # Float.MAX_VALUE
        ),
        "Failed to deserialize float: Size of data received by Deserializer is not 4",
    ),
    Case(
        "double", "DoubleConverter", ConnectSchema(Type.FLOAT64, optional=True),
        (
            (5e-324, "0000000000000001"),  # Double.MIN_VALUE
            (1234.31, "4093493d70a3d70a"),
            (1.7976931348623157e308, "7fefffffffffffff"),  # Double.MAX_VALUE
        ),
        "Failed to deserialize double: Size of data received by Deserializer is not 8",
    ),
]  # fmt: skip

number_case = pytest.mark.parametrize("case", CASES, ids=[c.converter_class for c in CASES])


# --- NumberConverterTest -------------------------------------------------------------------


@number_case
def test_converting_samples_to_and_from_bytes(case: Case) -> None:
    converter = case.converter()
    for sample, hex_bytes in case.samples:
        expected = bytes.fromhex(hex_bytes)

        # Data conversion
        assert converter.from_connect(TOPIC, case.schema, sample) == expected
        value, schema = converter.to_connect(TOPIC, expected)
        assert schema == case.schema
        assert value == sample

        # Header conversion
        assert converter.from_connect_header(TOPIC, HEADER_NAME, case.schema, sample) == expected
        value, schema = converter.to_connect_header(TOPIC, HEADER_NAME, expected)
        assert schema == case.schema
        assert value == sample


@number_case
def test_deserializing_data_with_too_many_bytes(case: Case) -> None:
    with pytest.raises(ValueError) as info:
        case.converter().to_connect(TOPIC, bytes(10))
    assert str(info.value) == case.message


@number_case
def test_deserializing_header_with_too_many_bytes(case: Case) -> None:
    with pytest.raises(ValueError) as info:
        case.converter().to_connect_header(TOPIC, HEADER_NAME, bytes(10))
    assert str(info.value) == case.message


@number_case
def test_serializing_incorrect_type(case: Case) -> None:
    with pytest.raises(ValueError) as info:
        case.converter().from_connect(TOPIC, case.schema, "not a valid number")
    assert str(info.value) == f"Failed to serialize to {case.name} (was class java.lang.String): "


@number_case
def test_serializing_incorrect_header(case: Case) -> None:
    with pytest.raises(ValueError) as info:
        case.converter().from_connect_header(TOPIC, HEADER_NAME, case.schema, "not a valid number")
    assert str(info.value) == f"Failed to serialize to {case.name} (was class java.lang.String): "


@number_case
def test_null_to_bytes(case: Case) -> None:
    assert case.converter().from_connect(TOPIC, case.schema, None) is None


@number_case
def test_bytes_null_to_number(case: Case) -> None:
    value, schema = case.converter().to_connect(TOPIC, None)
    assert schema == case.schema
    assert value is None


# --- BooleanConverterTest ------------------------------------------------------------------

TRUE = b"\x01"
FALSE = b"\x00"
BOOLEAN_SCHEMA = ConnectSchema(Type.BOOLEAN)
OPTIONAL_BOOLEAN_SCHEMA = ConnectSchema(Type.BOOLEAN, optional=True)


@pytest.fixture
def converter() -> BooleanConverter:
    built = make_converter("org.apache.kafka.connect.converters.BooleanConverter")
    assert isinstance(built, BooleanConverter)
    return built


def test_from_connect(converter: BooleanConverter) -> None:
    assert converter.from_connect(TOPIC, BOOLEAN_SCHEMA, True) == TRUE
    assert converter.from_connect(TOPIC, BOOLEAN_SCHEMA, False) == FALSE


def test_from_connect_null_schema(converter: BooleanConverter) -> None:
    assert converter.from_connect(TOPIC, None, True) == TRUE
    assert converter.from_connect(TOPIC, None, False) == FALSE


def test_from_connect_wrong_schema(converter: BooleanConverter) -> None:
    with pytest.raises(ValueError) as info:
        converter.from_connect(TOPIC, ConnectSchema(Type.INT32), False)
    assert str(info.value) == "Invalid schema type for BooleanConverter: INT32"


def test_from_connect_invalid_value(converter: BooleanConverter) -> None:
    with pytest.raises(ValueError) as info:
        converter.from_connect(TOPIC, BOOLEAN_SCHEMA, "true")
    assert str(info.value) == (
        "BooleanConverter is not compatible with objects of type class java.lang.String"
    )


def test_from_connect_null_value(converter: BooleanConverter) -> None:
    assert converter.from_connect(TOPIC, BOOLEAN_SCHEMA, None) is None


def test_to_connect(converter: BooleanConverter) -> None:
    assert converter.to_connect(TOPIC, TRUE) == (True, OPTIONAL_BOOLEAN_SCHEMA)
    assert converter.to_connect(TOPIC, TRUE)[0] is True
    assert converter.to_connect(TOPIC, FALSE) == (False, OPTIONAL_BOOLEAN_SCHEMA)
    assert converter.to_connect(TOPIC, FALSE)[0] is False


def test_to_connect_null_value(converter: BooleanConverter) -> None:
    assert converter.to_connect(TOPIC, None) == (None, OPTIONAL_BOOLEAN_SCHEMA)


def test_to_connect_invalid_value(converter: BooleanConverter) -> None:
    with pytest.raises(ValueError) as info:
        converter.to_connect(TOPIC, b"42")
    assert str(info.value) == (
        "Failed to deserialize boolean: Size of data received by BooleanDeserializer is not 1"
    )


# --- beyond the Java tests: Kafka's serializers' casts and BooleanDeserializer's bytes ----


def test_unexpected_boolean_byte_is_named_signed() -> None:
    with pytest.raises(ValueError) as info:
        BooleanConverter().to_connect(TOPIC, b"\x80")
    assert str(info.value) == (
        "Failed to deserialize boolean: Unexpected byte received by BooleanDeserializer: -128"
    )


@pytest.mark.parametrize(
    ("name", "schema", "value", "found"),
    [
        # LongSerializer's cast: an Integer is not a Long (ClassCastException)
        ("long", ConnectSchema(Type.INT32), 5, "java.lang.Integer"),
        # a schemaless float is what JsonConverter makes of it: a Double
        ("float", None, 1.5, "java.lang.Double"),
        ("integer", None, 7, "java.lang.Long"),
        ("double", ConnectSchema(Type.INT64), True, "java.lang.Boolean"),
        # a float of Cast's (float32) without a schema is a Float
        ("double", None, Float32(1.5), "java.lang.Float"),
    ],
)
def test_serializer_takes_only_its_class(
    name: str, schema: ConnectSchema | None, value: Any, found: str
) -> None:
    with pytest.raises(ValueError) as info:
        NumberConverter(name).from_connect(TOPIC, schema, value)
    assert str(info.value) == f"Failed to serialize to {name} (was class {found}): "


def test_schemaless_values_are_long_and_double() -> None:
    assert make_serializer("long")(TOPIC, None, -2) == bytes.fromhex("fffffffffffffffe")
    assert make_serializer("double")(TOPIC, None, 1234.31) == bytes.fromhex("4093493d70a3d70a")
    assert make_serializer("boolean")(TOPIC, None, True) == TRUE
    assert make_serializer("float")(TOPIC, None, Float32(1.5)) == bytes.fromhex("3fc00000")
    assert make_serializer("double")(TOPIC, None, float("nan")) == bytes.fromhex("7ff8000000000000")


@pytest.mark.parametrize("short", ["short", "integer", "long", "float", "double", "boolean"])
def test_short_and_class_names(short: str) -> None:
    full = f"org.apache.kafka.connect.converters.{short.capitalize()}Converter"
    assert isinstance(make_converter(short, is_key=True), Converter)
    assert type(make_converter(full)) is type(make_converter(short))
