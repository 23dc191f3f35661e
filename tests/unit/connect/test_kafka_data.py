"""Kafka's ``ConnectSchemaTest``, ``StructTest`` and ``SchemaBuilderTest``
(``connect/api/src/test/java/org/apache/kafka/connect/data``, apache/kafka 1eb7644), test by
test, in our value model.

``ConnectSchema.validateValue`` is :func:`validate_value`, ``Struct.validate``
:func:`validate_struct`, ``Struct.put`` :func:`check_put`, ``Struct.get`` :func:`field_value`,
``SchemaBuilder.struct().field(...)`` :func:`struct_schema` and ``ConnectSchema.equals``
:func:`schema_identity`. A ``Struct`` is a dict, a ``List`` a list, a ``Map`` a dict, a
``ByteBuffer`` a bytearray or memoryview, a ``java.util.Date`` a date, time or datetime, a Java
``Float`` a :class:`Float32`. Our integers carry no Java class: where Kafka passes an
``Integer`` for an INT8 schema, we pass an integer no ``Byte`` holds.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, time
from decimal import Decimal
from typing import Any

import pytest

from s3connect.connect.logical import DATE_SCHEMA, TIME_SCHEMA, TIMESTAMP_SCHEMA, decimal_schema
from s3connect.connect.schema import ConnectSchema, Field, Type, schema_identity
from s3connect.connect.validate import validate_struct, validate_value
from s3connect.transforms.base import DataError
from s3connect.transforms.structs import check_put, field_value, struct_schema
from s3connect.util.jackson import Float32
from tests.unit.transforms.xformhelp import (
    BOOLEAN,
    BYTES,
    FLOAT32,
    FLOAT64,
    INT8,
    INT16,
    INT32,
    INT64,
    STRING,
    struct,
)

OPTIONAL_STRING = ConnectSchema(Type.STRING, optional=True)


def array(items: ConnectSchema | None) -> ConnectSchema:
    """``SchemaBuilder.array(items)`` (None: ``SchemaBuilder.type(ARRAY)``)."""
    return ConnectSchema(Type.ARRAY, value_schema=items)


def map_of(keys: ConnectSchema | None, values: ConnectSchema | None) -> ConnectSchema:
    """``SchemaBuilder.map(keys, values)``."""
    return ConnectSchema(Type.MAP, key_schema=keys, value_schema=values)


def invalid(schema: ConnectSchema, value: Any, field: str | None = None) -> str:
    """The message ``validateValue(field, schema, value)`` raises."""
    with pytest.raises(ValueError) as e:
        validate_value(schema, value, field)
    return str(e.value)


# ---------------------------------------------------------------------------------------------
# ConnectSchemaTest

MAP_INT_STRING_SCHEMA = map_of(INT32, STRING)
FLAT_STRUCT_SCHEMA = struct(("field", INT32))
STRUCT_SCHEMA = struct(
    ("first", INT32),
    ("second", STRING),
    ("array", array(INT32)),
    ("map", map_of(INT32, STRING)),
    ("nested", FLAT_STRUCT_SCHEMA),
)
PARENT_STRUCT_SCHEMA = struct(("nested", FLAT_STRUCT_SCHEMA))


def test_fields_on_struct_schema() -> None:
    schema = struct(("foo", BOOLEAN), ("bar", INT32))
    assert len(schema.fields) == 2
    foo, bar = schema.field("foo"), schema.field("bar")
    assert foo is not None and schema.fields.index(foo) == 0
    assert bar is not None and schema.fields.index(bar) == 1
    assert schema.field("other") is None


def test_validate_value_matching_type() -> None:
    validate_value(INT8, 1)
    validate_value(INT16, 1)
    validate_value(INT32, 1)
    validate_value(INT64, 1)
    validate_value(FLOAT32, Float32(1.0))
    validate_value(FLOAT32, 1.0)  # our float32 values are plain floats too
    validate_value(FLOAT64, 1.0)
    validate_value(BOOLEAN, True)
    validate_value(STRING, "a string")
    validate_value(BYTES, b"a byte array")
    validate_value(BYTES, bytearray(b"a byte array"))
    validate_value(BYTES, memoryview(b"a byte array"))
    validate_value(array(INT32), [1, 2, 3])
    validate_value(map_of(INT32, STRING), {1: "value"})
    # the basic struct layout + complex field types + nested structs
    struct_value = {
        "first": 1,
        "second": "foo",
        "array": [1, 2, 3],
        "map": {1: "value"},
        "nested": {"field": 12},
    }
    validate_value(STRUCT_SCHEMA, struct_value)


def test_validate_value_matching_logical_type() -> None:
    validate_value(decimal_schema(2), Decimal("1.56"))
    validate_value(DATE_SCHEMA, date(1970, 1, 1))
    validate_value(TIME_SCHEMA, time(0))
    validate_value(TIMESTAMP_SCHEMA, datetime(1970, 1, 1, tzinfo=UTC))
    # A java.util.Date for each, as Kafka takes (fromLogical checks the fields)
    epoch = datetime(1970, 1, 1, tzinfo=UTC)
    validate_value(DATE_SCHEMA, epoch)
    validate_value(TIME_SCHEMA, epoch)


def test_validate_value_mismatch_int8() -> None:
    with pytest.raises(ValueError):
        validate_value(INT8, 2**7)  # an Integer, no Byte


def test_validate_value_mismatch_int16() -> None:
    with pytest.raises(ValueError):
        validate_value(INT16, 2**15)


def test_validate_value_mismatch_int32() -> None:
    with pytest.raises(ValueError):
        validate_value(INT32, 2**31)  # a Long


def test_validate_value_mismatch_int64() -> None:
    with pytest.raises(ValueError):
        validate_value(INT64, 2**63)  # no Long holds it


def test_validate_value_mismatch_double() -> None:
    with pytest.raises(ValueError):
        validate_value(FLOAT64, Float32(1.0))


def test_validate_value_mismatch_boolean() -> None:
    with pytest.raises(ValueError):
        validate_value(BOOLEAN, Float32(1.0))


def test_validate_value_mismatch_string() -> None:
    # Kafka refuses a CharBuffer, a CharSequence that is no String: text of another class
    with pytest.raises(ValueError):
        validate_value(STRING, b"abc")


def test_validate_value_mismatch_bytes() -> None:
    with pytest.raises(ValueError):
        validate_value(BYTES, [1, "foo"])


def test_validate_value_mismatch_array() -> None:
    with pytest.raises(ValueError):
        validate_value(array(INT32), ["a", "b", "c"])


def test_validate_value_mismatch_array_some_match() -> None:
    with pytest.raises(ValueError):
        validate_value(array(INT32), [1, 2, "c"])


def test_validate_value_mismatch_map_key() -> None:
    with pytest.raises(ValueError):
        validate_value(MAP_INT_STRING_SCHEMA, {"wrong key type": "value"})


def test_validate_value_mismatch_map_value() -> None:
    with pytest.raises(ValueError):
        validate_value(MAP_INT_STRING_SCHEMA, {1: 2})


def test_validate_value_mismatch_map_some_keys() -> None:
    with pytest.raises(ValueError):
        validate_value(MAP_INT_STRING_SCHEMA, {1: "abc", "wrong": "it's as easy as one two three"})


def test_validate_value_mismatch_map_some_values() -> None:
    with pytest.raises(ValueError):
        validate_value(MAP_INT_STRING_SCHEMA, {1: "abc", 2: b"wrong"})


def test_validate_value_mismatch_struct_wrong_schema() -> None:
    assert invalid(FLAT_STRUCT_SCHEMA, {"x": 1}) == "Struct schemas do not match."


def test_validate_value_mismatch_struct_wrong_nested_schema() -> None:
    value = {"nested": {"x": 1}}
    assert invalid(PARENT_STRUCT_SCHEMA, value) == "Struct schemas do not match."


def test_validate_value_mismatch_decimal() -> None:
    with pytest.raises(ValueError):
        validate_value(decimal_schema(2), 156)  # a BigInteger


def test_validate_value_mismatch_date() -> None:
    with pytest.raises(ValueError):
        validate_value(DATE_SCHEMA, 1000)


def test_validate_value_mismatch_time() -> None:
    with pytest.raises(ValueError):
        validate_value(TIME_SCHEMA, 1000)


def test_validate_value_mismatch_timestamp() -> None:
    with pytest.raises(ValueError):
        validate_value(TIMESTAMP_SCHEMA, 1000)


def test_primitive_equality() -> None:
    def s1(**kw: Any) -> str:
        base: dict[str, Any] = {"type": Type.INT8, "name": "name", "version": 2, "doc": "doc"}
        return schema_identity(ConnectSchema(**{**base, **kw}))

    assert s1() == s1()
    assert s1() != s1(type=Type.INT16)
    assert s1() != s1(optional=True)
    assert s1() != s1(default=True)
    assert s1() != s1(name="otherName")
    assert s1() != s1(version=4)
    assert s1() != s1(doc="other doc")
    assert s1() != s1(parameters={"param": "value"})


def test_array_equality() -> None:
    s1 = schema_identity(array(ConnectSchema(Type.INT8)))
    s2 = schema_identity(array(ConnectSchema(Type.INT8)))
    assert s1 == s2
    assert s1 != schema_identity(array(ConnectSchema(Type.INT16)))


def test_array_default_value_equality() -> None:
    def s(default: list[str]) -> str:
        return schema_identity(ConnectSchema(Type.ARRAY, default=default, value_schema=INT8))

    assert s(["a", "b"]) == s(["a", "b"])
    assert s(["a", "b"]) != s(["b", "c"])


def test_map_equality() -> None:
    def s(keys: Type, values: Type) -> str:
        return schema_identity(map_of(ConnectSchema(keys), ConnectSchema(values)))

    assert s(Type.INT8, Type.INT16) == s(Type.INT8, Type.INT16)
    assert s(Type.INT8, Type.INT16) != s(Type.STRING, Type.INT16)
    assert s(Type.INT8, Type.INT16) != s(Type.INT8, Type.STRING)


def test_struct_equality() -> None:
    def s(second: str) -> str:
        return schema_identity(
            struct(("field", ConnectSchema(Type.INT8)), (second, ConnectSchema(Type.INT16)))
        )

    assert s("field2") == s("field2")
    assert s("field2") != s("different field name")


def test_empty_struct() -> None:
    empty_struct = ConnectSchema(Type.STRUCT)
    assert len(empty_struct.fields) == 0
    validate_struct(empty_struct, {})


def test_validate_field_with_invalid_value_type() -> None:
    # Kafka passes a java.lang.Object; ours is a value of a Java class too: a String
    assert invalid(INT8, "a string") == (
        "Invalid Java object for schema with type INT8: class java.lang.String for value"
    )
    assert invalid(INT8, "a string", "field") == (
        'Invalid Java object for schema with type INT8: class java.lang.String for field: "field"'
    )


def test_validate_field_with_invalid_value_mismatch_timestamp() -> None:
    validate_value(INT64, 1000, "field")
    assert invalid(TIMESTAMP_SCHEMA, 1000, "field") == (
        'Invalid Java object for schema "org.apache.kafka.connect.data.Timestamp" '
        'with type INT64: class java.lang.Long for field: "field"'
    )


def test_validate_list() -> None:
    f = "field"
    wrong = (
        "Invalid Java object for schema with type STRING: class java.lang.Boolean "
        'for element of array field: "field"'
    )
    null = (
        'Invalid value: null used for required element of array field: "field", schema type: STRING'
    )
    optional_strings = array(OPTIONAL_STRING)
    for value in ([], ["hello"], [None], ["hello", "world"], ["hello", None], [None, "world"]):
        validate_value(optional_strings, value, f)
    assert invalid(optional_strings, [True], f) == wrong

    required_strings = array(STRING)
    for value in ([], ["hello"], ["hello", "world"]):
        validate_value(required_strings, value, f)
    for value in ([None], ["hello", None], [None, "world"]):
        assert invalid(required_strings, value, f) == null
    assert invalid(optional_strings, [True], f) == wrong

    null_elements = array(None)
    for value in ([], ["hello"], [None], ["hello", "world"], ["hello", None], [None, "world"]):
        assert (
            invalid(null_elements, value, f)
            == 'No schema defined for element of array field: "field"'
        )
    assert (
        invalid(null_elements, [True], f) == 'No schema defined for element of array field: "field"'
    )


_MAPS: list[dict[Any, Any]] = [
    {},
    {"key": "value"},
    {"key": None},
    {None: "value"},
    {None: None},
    {"key": True},
    {True: "value"},
]


def test_validate_map() -> None:
    f = "field"

    def wrong(part: str) -> str:
        return (
            "Invalid Java object for schema with type STRING: class java.lang.Boolean "
            f'for {part} of map field: "field"'
        )

    def null(part: str) -> str:
        return (
            f'Invalid value: null used for required {part} of map field: "field", '
            "schema type: STRING"
        )

    optional_strings = map_of(OPTIONAL_STRING, OPTIONAL_STRING)
    for value in _MAPS[:5]:
        validate_value(optional_strings, value, f)
    assert invalid(optional_strings, {"key": True}, f) == wrong("value")
    assert invalid(optional_strings, {True: "value"}, f) == wrong("key")

    required_strings = map_of(STRING, STRING)
    validate_value(required_strings, {}, f)
    validate_value(required_strings, {"key": "value"}, f)
    assert invalid(required_strings, {"key": None}, f) == null("value")
    assert invalid(required_strings, {None: "value"}, f) == null("key")
    assert invalid(required_strings, {None: None}, f) == null("key")
    assert invalid(required_strings, {"key": True}, f) == wrong("value")
    assert invalid(required_strings, {True: "value"}, f) == wrong("key")

    null_keys = map_of(None, None)
    for value in _MAPS:
        assert invalid(null_keys, value, f) == 'No schema defined for key of map field: "field"'

    null_values = map_of(OPTIONAL_STRING, None)  # SchemaBuilder.mapWithNullValues
    for value in _MAPS:
        assert invalid(null_values, value, f) == 'No schema defined for value of map field: "field"'


# ---------------------------------------------------------------------------------------------
# StructTest

FLAT_SCHEMA = struct(
    ("int8", INT8),
    ("int16", INT16),
    ("int32", INT32),
    ("int64", INT64),
    ("float32", FLOAT32),
    ("float64", FLOAT64),
    ("boolean", BOOLEAN),
    ("string", STRING),
    ("bytes", BYTES),
)
ARRAY_SCHEMA = array(INT8)
MAP_SCHEMA = map_of(INT32, STRING)
NESTED_CHILD_SCHEMA = struct(("int8", INT8))
NESTED_SCHEMA = struct(
    ("array", ARRAY_SCHEMA), ("map", MAP_SCHEMA), ("nested", NESTED_CHILD_SCHEMA)
)
REQUIRED_FIELD_SCHEMA = INT8
OPTIONAL_FIELD_SCHEMA = ConnectSchema(Type.INT8, optional=True)
DEFAULT_FIELD_SCHEMA = ConnectSchema(Type.INT8, default=0)


def put(schema: ConnectSchema, name: str, value: Any) -> Any:
    """``new Struct(schema).put(name, value)``."""
    field = schema.field(name)
    assert field is not None
    return check_put(field, value)


def test_flat_struct() -> None:
    value = {
        "int8": 12,
        "int16": 12,
        "int32": 12,
        "int64": 12,
        "float32": Float32(12.0),
        "float64": 12.0,
        "boolean": True,
        "string": "foobar",
        "bytes": b"foobar",
    }
    for f in FLAT_SCHEMA.fields:
        assert check_put(f, value[f.name]) == value[f.name]
    validate_struct(FLAT_SCHEMA, value)


def test_complex_struct() -> None:
    value = {"array": [1, 2], "map": {1: "string"}, "nested": {"int8": 12}}
    for f in NESTED_SCHEMA.fields:
        check_put(f, value[f.name])
    validate_struct(NESTED_SCHEMA, value)


def test_invalid_field_type() -> None:
    with pytest.raises(DataError):
        put(FLAT_SCHEMA, "int8", "should fail because this is a string, not int8")


def test_invalid_array_field_elements() -> None:
    with pytest.raises(DataError):
        put(NESTED_SCHEMA, "array", ["should fail since elements should be int8s"])


def test_invalid_map_key_elements() -> None:
    with pytest.raises(DataError):
        put(NESTED_SCHEMA, "map", {"should fail because keys should be int8s": 12})


def test_invalid_struct_field_value() -> None:
    with pytest.raises(DataError, match='null used for required field: "int8", schema type: INT8'):
        put(NESTED_SCHEMA, "nested", {})


def test_missing_field_validation() -> None:
    with pytest.raises(ValueError):
        validate_struct(struct(("field", REQUIRED_FIELD_SCHEMA)), {})


def test_missing_optional_field_validation() -> None:
    validate_struct(struct(("field", OPTIONAL_FIELD_SCHEMA)), {})


def test_missing_field_with_default_validation() -> None:
    validate_struct(struct(("field", DEFAULT_FIELD_SCHEMA)), {})


def test_missing_field_with_default_value() -> None:
    schema = struct(("field", DEFAULT_FIELD_SCHEMA))
    assert field_value({}, schema.fields[0]) == 0


def test_missing_field_without_default_value() -> None:
    schema = struct(("field", REQUIRED_FIELD_SCHEMA))
    assert field_value({}, schema.fields[0]) is None


def test_validate_struct_with_null_value() -> None:
    schema = struct(("one", STRING), ("two", STRING), ("three", STRING))
    with pytest.raises(ValueError) as e:
        validate_struct(schema, {})
    assert str(e.value) == 'Invalid value: null used for required field: "one", schema type: STRING'


def test_invalid_put_includes_field_name() -> None:
    with pytest.raises(DataError) as e:
        check_put(Field("fieldName", STRING), None)
    assert str(e.value) == (
        'Invalid value: null used for required field: "fieldName", schema type: STRING'
    )


# ---------------------------------------------------------------------------------------------
# SchemaBuilderTest: SchemaBuilder.defaultValue validates the default (validateValue), as
# AvroData's reading of defaults does here; struct_schema is SchemaBuilder.field's rules.


def test_int8_builder_invalid_default() -> None:
    with pytest.raises(ValueError):
        validate_value(INT8, "invalid")


def test_int16_builder_invalid_default() -> None:
    with pytest.raises(ValueError):
        validate_value(INT16, "invalid")


def test_int32_builder_invalid_default() -> None:
    with pytest.raises(ValueError):
        validate_value(INT32, "invalid")


def test_int64_builder_invalid_default() -> None:
    with pytest.raises(ValueError):
        validate_value(INT64, "invalid")


def test_float_builder_invalid_default() -> None:
    with pytest.raises(ValueError):
        validate_value(FLOAT32, "invalid")


def test_double_builder_invalid_default() -> None:
    with pytest.raises(ValueError):
        validate_value(FLOAT64, "invalid")


def test_boolean_builder_invalid_default() -> None:
    with pytest.raises(ValueError):
        validate_value(BOOLEAN, "invalid")


def test_string_builder_invalid_default() -> None:
    with pytest.raises(ValueError):
        validate_value(STRING, True)


def test_bytes_builder_invalid_default() -> None:
    with pytest.raises(ValueError):
        validate_value(BYTES, "a string, not bytes")


def test_array_builder_invalid_default() -> None:
    with pytest.raises(ValueError):
        validate_value(array(INT8), ["string"])


def test_map_builder_invalid_default() -> None:
    with pytest.raises(ValueError):
        validate_value(map_of(INT8, INT8), {5: "foo"})


def test_duplicate_fields() -> None:
    doc = ConnectSchema(Type.STRING, doc="")
    with pytest.raises(DataError, match="Cannot create field because of field name duplication id"):
        struct_schema([Field("id", doc), Field("id", doc)])


def test_field_name_null() -> None:
    with pytest.raises(DataError, match=r"^fieldName cannot be null\.$"):
        struct_schema([Field("", STRING)])
