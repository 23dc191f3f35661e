"""Ports of Confluent's JSON Schema converter tests (schema-registry master at 794611bd,
json-schema-converter/src/test/java/io/confluent/connect/json/): ``JsonSchemaDataTest``,
``AdditionalJsonSchemaDataTest`` and ``JsonSchemaConverterTest``, the reading direction
(``toConnectSchema`` / ``toConnectData``, the converter's ``toConnectData``).

Not ported: the ``fromConnect*`` tests (s3connect has no Connect -> JSON Schema writer); tests of
settings s3connect refuses (``generalized.sum.type.support``, ``use.optional.for.nonrequired``,
``preserve.additional.properties=true``: see ``test_json_schema_converter_config_keys``); the
schema id in record headers (``HeaderSchemaIdSerializer``), which s3connect does not read.

Everit's builders are written as the JSON they stand for; Jackson nodes as JSON text (decoded
as the deserializer does: decimal numbers as ``Decimal``); a Struct as a dict. The converter
tests serialize what ``JsonSchemaData.fromConnectSchema`` / ``fromConnectData`` would, and read
it through the in-memory registry client of ``test_converters``.
"""

from __future__ import annotations

import dataclasses
import json
from datetime import UTC, date, datetime, time
from decimal import Decimal
from typing import Any

import pytest

from s3connect.config.sink import SinkConfig
from s3connect.connect.schema import DATE, DECIMAL, TIME, TIMESTAMP, ConnectSchema, Field, Type
from s3connect.convert.factory import make_converter
from s3connect.convert.registry.json_schema import (
    JSON_ENUM,
    JSON_ONE_OF,
    json_schema_to_connect,
    json_schema_value,
    parse_payload,
)
from s3connect.errors import ConfigError, SchemaRegistryError
from tests.unit.convert.registry.test_converters import MINIMAL, FakeClient, framed, registry

_decode = parse_payload


def s(t: Type, **kw: Any) -> ConnectSchema:
    return ConnectSchema(t, **kw)


def opt(t: Type, **kw: Any) -> ConnectSchema:
    return ConnectSchema(t, optional=True, **kw)


def struct(*fields: tuple[str, ConnectSchema], **kw: Any) -> ConnectSchema:
    return ConnectSchema(Type.STRUCT, fields=tuple(Field(n, f) for n, f in fields), **kw)


def integer(connect_type: str, **kw: Any) -> dict[str, Any]:
    return {"type": "integer", "connect.type": connect_type, **kw}


def one_of(*members: Any, **kw: Any) -> dict[str, Any]:
    return {"oneOf": list(members), **kw}


NULL = {"type": "null"}
STRING = {"type": "string"}


def union(*members: ConnectSchema, **kw: Any) -> ConnectSchema:
    return struct(*((f"{JSON_ONE_OF}.field.{i}", m) for i, m in enumerate(members)),
                  name=JSON_ONE_OF, **kw)  # fmt: skip


def check(expected_schema: ConnectSchema, expected: Any, node: Any, payload: str) -> None:
    """checkNonObjectConversion: the schema, then the value read with it."""
    schema = json_schema_to_connect(node)
    assert schema == expected_schema
    value = json_schema_value(schema, _decode(payload))
    assert value == expected
    assert type(value) is type(expected)


def enum_params(*symbols: str) -> dict[str, str]:
    return {JSON_ENUM: "", **{f"{JSON_ENUM}.{x}": x for x in symbols}}


# ---------------------------------------------------------------------------------------------
# JsonSchemaDataTest: JSON Schema -> Connect


def test_to_connect_null() -> None:
    check(opt(Type.BOOLEAN), None, one_of(NULL, {"type": "boolean"}), "null")


def test_to_connect_boolean() -> None:
    check(s(Type.BOOLEAN), True, {"type": "boolean"}, "true")


def test_to_connect_int8() -> None:
    check(s(Type.INT8), 12, integer("int8"), "12")


def test_to_connect_int8_with_default() -> None:
    check(s(Type.INT8, default=34), 12, integer("int8", default=34), "12")


def test_to_connect_int8_with_default_conversion() -> None:
    check(s(Type.INT8, default=34), 12, integer("int8", default=34), "12")
    # a missing or null value is the default
    schema = json_schema_to_connect(integer("int8", default=34))
    assert json_schema_value(schema, None) == 34
    assert json_schema_value(schema, None, present=False) == 34


def test_to_connect_int16() -> None:
    check(s(Type.INT16), 12, integer("int16"), "12")


def test_to_connect_int32() -> None:
    check(s(Type.INT32), 12, integer("int32"), "12")


def test_to_connect_int64() -> None:
    check(s(Type.INT64), 12, integer("int64"), "12")


def test_to_connect_float32() -> None:
    check(s(Type.FLOAT32), 12.0, {"type": "number", "connect.type": "float32"}, "12.0")


def test_to_connect_float64() -> None:
    check(s(Type.FLOAT64), 12.0, {"type": "number", "connect.type": "float64"}, "12.0")


def test_to_connect_nullable_string_nullvalue() -> None:
    check(opt(Type.STRING), None, one_of(NULL, STRING), "null")


def test_to_connect_nullable_string() -> None:
    check(opt(Type.STRING), "teststring", one_of(NULL, STRING), '"teststring"')


def test_to_connect_string() -> None:
    check(s(Type.STRING), "teststring", STRING, '"teststring"')


def test_to_connect_bytes() -> None:
    node = {"type": "string", "connect.type": "bytes"}
    check(s(Type.BYTES), b"teststring", node, '"dGVzdHN0cmluZw=="')


def test_to_connect_array() -> None:
    node = {"type": "array", "items": integer("int8")}
    check(s(Type.ARRAY, value_schema=s(Type.INT8)), [12, 13], node, "[12, 13]")


def test_to_connect_map_string_keys() -> None:
    node = {"type": "object", "additionalProperties": integer("int8"), "connect.type": "map"}
    expected = s(Type.MAP, key_schema=s(Type.STRING), value_schema=s(Type.INT8))
    check(expected, {"field": 12}, node, '{"field": 12}')


def test_to_connect_map_non_string_keys() -> None:
    entry = {"type": "object", "properties": {"key": integer("int8"), "value": integer("int16")}}
    node = {"type": "array", "items": entry, "connect.type": "map"}
    expected = s(Type.MAP, key_schema=s(Type.INT8), value_schema=s(Type.INT16))
    check(expected, {12: 16}, node, '[{"key": 12, "value": 16}]')


def _record(string: Any, **kw: Any) -> dict[str, Any]:
    return {
        "type": "object",
        "title": "Record",
        "properties": {"int8": integer("int8", **{"connect.index": 0}), "string": string},
        **kw,
    }


def test_to_connect_record() -> None:
    node = _record({"type": "string", "connect.index": 1})
    expected = struct(("int8", s(Type.INT8)), ("string", s(Type.STRING)), name="Record")
    payload = '{"int8": 12, "string": "sample string"}'
    check(expected, {"int8": 12, "string": "sample string"}, node, payload)


def _record_with_optional(value: str | None) -> None:
    node = _record(one_of(NULL, STRING, **{"connect.index": 1}))
    expected = struct(("int8", s(Type.INT8)), ("string", opt(Type.STRING)), name="Record")
    payload = json.dumps({"int8": 12, "string": value})
    check(expected, {"int8": 12, "string": value}, node, payload)


def test_to_connect_record_with_optional_value() -> None:
    _record_with_optional("sample string")


def test_to_connect_record_with_optional_null_value() -> None:
    _record_with_optional(None)


def test_to_connect_record_with_no_additional_properties() -> None:
    # object.additional.properties=false only changes fromConnectSchema: accepted, same reading.
    node = _record({"type": "string", "connect.index": 1}, additionalProperties=False)
    expected = struct(("int8", s(Type.INT8)), ("string", s(Type.STRING)), name="Record")
    check(expected, {"int8": 12, "string": None}, node, '{"int8": 12}')


def test_to_connect_record_with_missing_nonoptional() -> None:
    node = _record({"type": "string", "connect.index": 1})
    expected = struct(("int8", s(Type.INT8)), ("string", s(Type.STRING)), name="Record")
    # The string field is not set: null (Struct.validate would reject it; the sink too)
    check(expected, {"int8": 12, "string": None}, node, '{"int8": 12}')


def _record_with_optional_array(value: list[str] | None) -> None:
    node = {
        "type": "object",
        "title": "Record",
        "properties": {
            "string": one_of(NULL, STRING, **{"connect.index": 0}),
            "array": one_of(NULL, {"type": "array", "items": STRING}, **{"connect.index": 1}),
        },
    }
    expected = struct(
        ("string", opt(Type.STRING)),
        ("array", opt(Type.ARRAY, value_schema=s(Type.STRING))),
        name="Record",
    )
    payload = json.dumps({"string": "xx", "array": value})
    check(expected, {"string": "xx", "array": value}, node, payload)


def test_to_connect_record_with_optional_array_value() -> None:
    _record_with_optional_array(["test"])


def test_to_connect_record_with_optional_array_null_value() -> None:
    _record_with_optional_array(None)


NESTED = {
    "type": "object",
    "title": "nestedRecord",
    "properties": {"string": {"type": "string", "connect.index": 0}},
}
NESTED_RECORD = {
    "type": "object",
    "title": "Record",
    "properties": {"nestedRecord": one_of(NULL, NESTED, **{"connect.index": 0})},
}
RECORD_WITH_STRING = struct(("string", s(Type.STRING)), name="nestedRecord", optional=True)


def test_to_connect_nested_record_with_optional_record_value() -> None:
    expected = struct(("nestedRecord", RECORD_WITH_STRING), name="Record")
    payload = '{"nestedRecord": {"string": "xx"}}'
    check(expected, {"nestedRecord": {"string": "xx"}}, NESTED_RECORD, payload)


def test_to_connect_nested_record_with_optional_record_null_value() -> None:
    expected = struct(("nestedRecord", RECORD_WITH_STRING), name="Record")
    check(expected, {"nestedRecord": None}, NESTED_RECORD, '{"nestedRecord": null}')


def _decimal_node(scale: int) -> dict[str, Any]:
    return {
        "type": "number",
        "title": DECIMAL,
        "connect.type": "bytes",
        "connect.parameters": {"scale": str(scale)},
    }


def _decimal_schema(scale: int) -> ConnectSchema:
    return s(Type.BYTES, name=DECIMAL, parameters={"scale": str(scale)})


def test_to_connect_base64_decimal() -> None:
    # BinaryNode [0, -100]: the unscaled 156 at scale 2
    check(_decimal_schema(2), Decimal("1.56"), _decimal_node(2), '"AJw="')


def test_to_connect_numeric_decimal() -> None:
    check(_decimal_schema(2), Decimal("1.56"), _decimal_node(2), "1.56")


def test_to_connect_numeric_decimal_with_trailing_zeros() -> None:
    check(_decimal_schema(4), Decimal("1.5600"), _decimal_node(4), "1.5600")
    value = json_schema_value(_decimal_schema(4), _decode("1.5600"))
    assert value.as_tuple().exponent == -4  # BigDecimal.equals: the scale too


def test_to_connect_high_precision_numeric_decimal() -> None:
    # too big for a float64
    reference = Decimal("1.23456789123456789")
    check(_decimal_schema(17), reference, _decimal_node(17), "1.23456789123456789")


def test_to_connect_const() -> None:
    check(s(Type.STRING, parameters=enum_params("one")), "one", {"const": "one"}, '"one"')


def test_to_connect_enum() -> None:
    expected = s(Type.STRING, parameters=enum_params("one", "two", "three"))
    check(expected, "one", {"enum": ["one", "two", "three"]}, '"one"')


def test_to_connect_enum_with_null() -> None:
    expected = s(Type.STRING, parameters=enum_params("one", "two", "three", "<NULL>"))
    check(expected, "one", {"enum": ["one", "two", "three", None]}, '"one"')


def test_to_connect_enum_in_all_of() -> None:
    node = {"allOf": [STRING, {"enum": ["one", "two", "three"]}]}
    expected = s(Type.STRING, parameters=enum_params("one", "two", "three"))
    check(expected, "one", node, '"one"')


def test_to_connect_int_enum_in_all_of_is_valid() -> None:
    node = {"allOf": [{"type": "number"}, {"enum": [1, 2, 3]}]}
    check(s(Type.FLOAT64), 123.45, node, "123.45")


def test_to_connect_union_enum_in_all_of_is_valid() -> None:
    node = {"allOf": [one_of(integer("int8"), integer("int16")), {"enum": [1, 2, 3]}]}
    expected = union(opt(Type.INT8), opt(Type.INT16))
    value = {f"{JSON_ONE_OF}.field.0": 12, f"{JSON_ONE_OF}.field.1": None}
    check(expected, value, node, "12")


def test_to_connect_string_const_in_all_of() -> None:
    # everit loads {"const", "type"} as a synthetic allOf: the const is ignored
    check(s(Type.STRING), "money", {"const": "money", "type": "string"}, '"money"')


def test_to_connect_integer_const_in_all_of() -> None:
    check(s(Type.INT64), 123, {"const": 123, "type": "integer"}, "123")


def test_to_connect_number_const_in_all_of() -> None:
    check(s(Type.FLOAT64), 123.45, {"const": 123.45, "type": "number"}, "123.45")


def test_to_connect_reference_in_all_of() -> None:
    node = {
        "allOf": [{"$ref": "#/definitions/numberSchema"}],
        "definitions": {"numberSchema": integer("int64")},
    }
    check(s(Type.INT64), 27, node, "27")


def test_to_connect_union() -> None:
    expected = union(opt(Type.INT8), opt(Type.INT16))
    value = {f"{JSON_ONE_OF}.field.0": 12, f"{JSON_ONE_OF}.field.1": None}
    check(expected, value, one_of(integer("int8"), integer("int16")), "12")


def test_to_connect_singleton_union() -> None:
    check(s(Type.STRING), "bar", one_of(STRING), '"bar"')


def test_to_connect_union_second_field() -> None:
    expected = union(opt(Type.STRING), opt(Type.INT32))
    value = {f"{JSON_ONE_OF}.field.0": None, f"{JSON_ONE_OF}.field.1": 12}
    check(expected, value, one_of(STRING, integer("int32")), "12")


def test_to_connect_union_different_integral_type() -> None:
    expected = union(opt(Type.STRING), opt(Type.INT64))
    value = {f"{JSON_ONE_OF}.field.0": None, f"{JSON_ONE_OF}.field.1": 123}
    check(expected, value, one_of(STRING, {"type": "integer"}), "123")


def test_to_connect_union_different_numeric_type() -> None:
    expected = union(opt(Type.STRING), opt(Type.FLOAT64))
    value = {f"{JSON_ONE_OF}.field.0": None, f"{JSON_ONE_OF}.field.1": 123.0}
    check(expected, value, one_of(STRING, {"type": "number"}), "123")
    assert type(json_schema_value(expected, 123)[f"{JSON_ONE_OF}.field.1"]) is float


def test_to_connect_union_from_any_of() -> None:
    expected = union(opt(Type.INT8), opt(Type.INT16))
    value = {f"{JSON_ONE_OF}.field.0": 12, f"{JSON_ONE_OF}.field.1": None}
    check(expected, value, {"anyOf": [integer("int8"), integer("int16")]}, "12")


def test_to_connect_union_different_struct() -> None:
    number = integer("int8", **{"connect.index": 0})
    string = {"type": "string", "connect.index": 1}

    def member(title: str, a: str, b: str, index: int) -> dict[str, Any]:
        properties = {a: number, b: string}
        return {"type": "object", "title": title, "properties": properties, "connect.index": index}

    node = one_of(member("field0", "a", "b", 0), member("field1", "c", "d", 1))
    field0 = struct(("a", s(Type.INT8)), ("b", s(Type.STRING)), name="field0", optional=True)
    field1 = struct(("c", s(Type.INT8)), ("d", s(Type.STRING)), name="field1", optional=True)
    expected = union(field0, field1)
    f0, f1 = f"{JSON_ONE_OF}.field.0", f"{JSON_ONE_OF}.field.1"
    payload = '{"a": 12, "b": "sample string"}'
    check(expected, {f0: {"a": 12, "b": "sample string"}, f1: None}, node, payload)
    payload = '{"c": 12, "d": "sample string"}'
    check(expected, {f0: None, f1: {"c": 12, "d": "sample string"}}, node, payload)


def test_to_connect_union_second_nested_schemas() -> None:
    string = {"type": "string", "connect.index": 0}

    def member(inner: str, index: int) -> dict[str, Any]:
        nested = {"type": "object", "properties": {inner: string}}
        return {"type": "object", "properties": {"commonFieldName": nested},
                "connect.index": index}  # fmt: skip

    node = one_of(member("differentFieldNameA", 0), member("differentFieldNameB", 1))
    nested0 = struct(("differentFieldNameA", s(Type.STRING)))
    nested1 = struct(("differentFieldNameB", s(Type.STRING)))
    field0 = struct(("commonFieldName", nested0), optional=True)
    field1 = struct(("commonFieldName", nested1), optional=True)
    expected = union(field0, field1)
    f0, f1 = f"{JSON_ONE_OF}.field.0", f"{JSON_ONE_OF}.field.1"
    a = {"commonFieldName": {"differentFieldNameA": "sample string A"}}
    check(expected, {f0: a, f1: None}, node, json.dumps(a))
    b = {"commonFieldName": {"differentFieldNameB": "sample string B"}}
    check(expected, {f0: None, f1: b}, node, json.dumps(b))


def _map_optional(value: str | None) -> None:
    entry = {
        "type": "object",
        "properties": {"key": integer("int8"), "value": one_of(NULL, STRING)},
    }
    node = {"type": "array", "items": entry, "connect.type": "map"}
    expected = s(Type.MAP, key_schema=s(Type.INT8), value_schema=opt(Type.STRING))
    check(expected, {12: value}, node, json.dumps([{"key": 12, "value": value}]))


def test_to_connect_map_optional_value() -> None:
    _map_optional("some value")


def test_to_connect_map_optional_null_value() -> None:
    _map_optional(None)


def test_to_named_connect_map() -> None:
    node = {
        "type": "object",
        "additionalProperties": integer("int32"),
        "connect.type": "map",
        "title": "foo.bar",
    }
    expected = s(Type.MAP, key_schema=s(Type.STRING), value_schema=s(Type.INT32), name="foo.bar")
    assert json_schema_to_connect(node) == expected


def test_combined_schema_all_of_ref() -> None:
    node = {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "allOf": [
            {"$ref": "#/definitions/MessageBase"},
            {"$ref": "#/definitions/MessageBase2"},
        ],
        "title": "IdentifyUserMessage",
        "description": "An IdentifyUser message",
        "type": "object",
        "properties": {"prevUserId": STRING, "newUserId": STRING},
        "definitions": {
            "MessageBase": {"properties": {"id": STRING, "type": STRING}},
            "MessageBase2": {"properties": {"id2": STRING}},
        },
    }
    connect = json_schema_to_connect(node)
    for name in ("id", "type", "id2", "newUserId", "prevUserId"):
        assert connect.field(name) is not None


def test_combined_schema_title_and_object() -> None:
    node = {
        "title": "Product Identifier",
        "type": "object",
        "anyOf": [
            {"type": "object", "properties": {"keycode": STRING}},
            {"type": "object", "properties": {"itemCode": STRING}},
        ],
    }
    assert json_schema_to_connect(node).name == "io.confluent.connect.json.OneOf"


def _field_optional(node: dict[str, Any], name: str) -> bool:
    field = json_schema_to_connect(node).field(name)
    assert field is not None
    return field.schema.optional


def test_numeric_formats() -> None:
    node = {
        "title": "numerics with format",
        "type": "object",
        "properties": {
            "id": {"type": "integer", "format": "int32"},
            "num": {"type": "number", "format": "double"},
        },
        "required": ["id"],
        "additionalProperties": False,
    }
    assert not _field_optional(node, "id")
    assert not _field_optional(node, "num")


def test_optional_numeric_formats() -> None:
    node = {
        "title": "numerics with format",
        "type": "object",
        "properties": {
            "id": {"format": "int32", "type": ["null", "number"]},
            "num": {"format": "double", "type": ["null", "integer"]},
        },
        "required": ["id"],
        "additionalProperties": False,
    }
    assert _field_optional(node, "id")
    assert _field_optional(node, "num")


def test_string_formats() -> None:
    node = {
        "title": "strings with format",
        "type": "object",
        "properties": {
            "id": {"type": "string", "format": "password"},
            "str": {"type": "string", "format": "uuid"},
        },
        "required": ["id"],
        "additionalProperties": False,
    }
    assert not _field_optional(node, "id")
    assert not _field_optional(node, "str")


def test_optional_string_formats() -> None:
    # "type" twice in "id": the last one counts (Jackson)
    text = """{
      "title": "strings with format", "type": "object",
      "properties": {
        "id": {"type": "string", "format": "password", "type": ["null", "string"]},
        "str": {"format": "uuid", "type": ["null", "string"]}
      },
      "required": ["id"], "additionalProperties": false
    }"""
    node = json.loads(text)
    assert _field_optional(node, "id")
    assert _field_optional(node, "str")


def test_optional_referenced_schema() -> None:
    not_included = {"type": "null", "title": "Not included"}
    created_by = {"oneOf": [not_included, STRING], "description": "user id"}
    node = {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "title": "Test",
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "id": {"type": "string", "description": "unique id"},
            "createById": created_by,
            "complexNode": {"oneOf": [not_included, {"$ref": "#/definitions/complexNode"}]},
        },
        "required": ["id"],
        "definitions": {
            "complexNode": {
                "type": "object",
                "additionalProperties": False,
                "properties": {
                    "id": {"type": "string", "description": "unique id"},
                    "createById": created_by,
                },
                "required": ["id"],
            }
        },
    }
    assert _field_optional(node, "complexNode")


def test_optional_object_or_array() -> None:
    node = {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "type": "object",
        "properties": {
            "assetMetadata": {
                "anyOf": [
                    {"$ref": "#/definitions/assetMetadata"},
                    {"type": "array", "items": {"$ref": "#/definitions/assetMetadata"}},
                    NULL,
                ]
            }
        },
        "definitions": {
            "assetMetadata": {
                "type": "object",
                "additionalProperties": False,
                "properties": {"id": STRING, "type": STRING},
            }
        },
    }
    assert _field_optional(node, "assetMetadata")


MODERN = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "properties": {
        "object_details": {
            "additionalProperties": True,
            "properties": {
                "object_parents": {
                    "items": {
                        "properties": {
                            "object_parents_file_location": {"type": ["string", "null"]},
                            "object_parents_id": {"type": ["string", "null"]},
                        },
                        "type": ["object", "null"],
                    },
                    "type": ["array", "null"],
                }
            },
        }
    },
}


def test_ignore_modern_dialects() -> None:
    # ignore.modern.dialects is accepted (either value reads alike here: draft 7 rules)
    assert json_schema_to_connect(MODERN).field("object_details") is not None


def test_use_modern_dialects() -> None:
    assert json_schema_to_connect(MODERN).field("object_details") is not None


def test_any_of_with_array() -> None:
    nullable = {"type": ["string", "null"]}
    node = {
        "$defs": {
            "review": {
                "properties": {"created_on": nullable, "reason_code": nullable},
                "required": [],
                "type": "object",
            }
        },
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "properties": {
            "change_operation": STRING,
            "reviews": {
                "items": {"$ref": "#/$defs/review"},
                "required": [],
                "type": ["array", "null"],
            },
        },
    }
    field = json_schema_to_connect(node).field("reviews")
    assert field is not None and field.schema.type is Type.ARRAY


def test_to_connect_recursive_schema() -> None:
    # Recursive schemas are not supported (README: a documented difference).
    node = {
        "type": "object",
        "title": "Task",
        "description": "A task",
        "id": "#id1",
        "properties": {
            "parent": {"$ref": "#id1"},
            "title": {"type": "string", "description": "Task title", "connect.index": 1},
        },
    }
    with pytest.raises(ValueError):
        json_schema_to_connect(node)


def test_to_connect_recursive_schema2() -> None:
    foo = {"$ref": "#/$defs/Foo"}
    node = {
        "title": "Foo",
        "$ref": "#/$defs/Foo",
        "$defs": {
            "Foo": {
                "properties": {
                    "foos": {
                        "oneOf": [{"items": foo, "type": "array"}, NULL],
                        "items": foo,
                        "type": "array",
                    }
                },
                "type": "object",
            }
        },
    }
    with pytest.raises(ValueError, match="recursive JSON Schemas are not supported"):
        json_schema_to_connect(node)


def test_defaults_schema_builder_refuses() -> None:
    # Not a Java test: SchemaBuilder.defaultValue refuses a struct default (the Struct's schema is
    # not the builder) and a null one for a required schema (a string's default of another type).
    for node in (
        {"type": "object", "properties": {"a": STRING}, "default": {"a": "x"}},
        {"oneOf": [STRING, {"type": "integer"}], "default": "x"},
        {"type": "string", "default": 5},
    ):
        with pytest.raises(ValueError, match="Invalid default value"):
            json_schema_to_connect(node)
    with pytest.raises(ValueError, match="Invalid null value for required STRING field"):
        json_schema_to_connect({"type": "string", "default": None})
    # a [null, T] union is T: the union's own default is dropped
    assert json_schema_to_connect({"type": ["string", "null"], "default": 5}) == opt(Type.STRING)


ADDITIONAL_PROPERTIES_FIELD = "__connect_additional_properties__"


def test_preserve_additional_properties_default_off_preserves_lossy_behavior() -> None:
    node = {"type": "object", "additionalProperties": {"type": "integer"}}
    schema = json_schema_to_connect(node)
    assert schema == struct()  # no extras field
    assert json_schema_value(schema, _decode('{"a":1,"b":2}')) == {}  # entries dropped


def test_default_off_legitimate_reserved_name_string_field_round_trips_normally() -> None:
    schema = struct((ADDITIONAL_PROPERTIES_FIELD, s(Type.STRING)))
    payload = _decode('{"__connect_additional_properties__":"hello"}')
    assert json_schema_value(schema, payload) == {ADDITIONAL_PROPERTIES_FIELD: "hello"}


def test_default_off_payload_with_reserved_name_is_silently_dropped() -> None:
    schema = json_schema_to_connect({"type": "object", "properties": {"name": STRING}})
    payload = _decode('{"name":"Alice","__connect_additional_properties__":"hi"}')
    assert json_schema_value(schema, payload) == {"name": "Alice"}


# The Variant of an empty schema: the bytes schema-registry's VariantUtils.fromJsonNode makes
# (checked against it), where Java checks the round trip through fromConnectData.
VARIANT = "org.apache.kafka.connect.data.Variant"
VARIANT_SCHEMA = struct(("metadata", s(Type.BYTES)), ("value", s(Type.BYTES)), name=VARIANT)


def _variant(payload: str) -> dict[str, str]:
    schema = json_schema_to_connect({})
    assert schema == VARIANT_SCHEMA
    value = json_schema_value(schema, _decode(payload))
    return {k: v.hex() for k, v in value.items()}


def test_to_connect_variant() -> None:
    assert _variant('{"name": "Alice", "age": 30}') == {
        "metadata": "01020004076e616d65616765",  # keys in first-seen order: name, age
        "value": "0202010000050b141e00000015416c696365",  # fields sorted: age, name
    }


def test_to_connect_variant_string() -> None:
    assert _variant('"hello"') == {"metadata": "010000", "value": "1568656c6c6f"}


def test_to_connect_variant_number() -> None:
    assert _variant("42") == {"metadata": "010000", "value": "142a000000"}
    assert _variant("1.50") == {"metadata": "010000", "value": "200296000000"}  # DECIMAL4
    assert _variant("3000000000") == {"metadata": "010000", "value": "18005ed0b200000000"}


def test_to_connect_variant_boolean() -> None:
    assert _variant("true") == {"metadata": "010000", "value": "04"}


def test_to_connect_variant_array() -> None:
    assert _variant("[1, 2, 3]") == {
        "metadata": "010000",
        "value": "030300050a0f140100000014020000001403000000",
    }


def test_to_connect_variant_null() -> None:
    # JSON null is a missing value, not a variant-encoded null: null for an optional schema.
    optional = struct(("metadata", opt(Type.BYTES)), ("value", opt(Type.BYTES)), name=VARIANT,
                      optional=True)  # fmt: skip
    assert json_schema_value(optional, None) is None
    with pytest.raises(ValueError, match="Invalid null value for required STRUCT field"):
        json_schema_value(json_schema_to_connect({}), None)


# ---------------------------------------------------------------------------------------------
# AdditionalJsonSchemaDataTest


def test_to_connect_optional_string_with_title_for_null_schema() -> None:
    node = one_of({"title": "Not included", "type": "null"}, STRING)
    assert json_schema_to_connect(node) == opt(Type.STRING)


# ---------------------------------------------------------------------------------------------
# JsonSchemaConverterTest: the converter's toConnectData (wire format, registry version)

TOPIC = "topic"


def _converter(client: FakeClient, is_key: bool = False) -> Any:
    return make_converter("jsonschema", registry=registry(client), is_key=is_key)


def test_primitive() -> None:
    client = FakeClient()
    client.add(1, '{"type":"boolean"}', "JSON", "topic-value", 1)
    # Because of registration in schema registry and lookup, we'll have added a version number
    assert _converter(client).to_connect(TOPIC, framed(1, b"true")) == (
        True,
        s(Type.BOOLEAN, version=1),
    )


def _index(node: dict[str, Any], index: int) -> dict[str, Any]:
    return {**node, "connect.index": index}


COMPLEX_FIELDS: list[tuple[str, dict[str, Any], ConnectSchema]] = [
    ("int8", integer("int8"), s(Type.INT8)),
    ("int16", integer("int16"), s(Type.INT16)),
    ("int32", integer("int32"), s(Type.INT32)),
    ("int64", integer("int64"), s(Type.INT64)),
    ("float32", {"type": "number", "connect.type": "float32"}, s(Type.FLOAT32)),
    ("float64", {"type": "number", "connect.type": "float64"}, s(Type.FLOAT64)),
    ("boolean", {"type": "boolean"}, s(Type.BOOLEAN)),
    ("string", STRING, s(Type.STRING)),
    ("bytes", {"type": "string", "connect.type": "bytes"}, s(Type.BYTES)),
    ("array", {"type": "array", "items": STRING}, s(Type.ARRAY, value_schema=s(Type.STRING))),
    (
        "map",
        {"type": "object", "connect.type": "map", "additionalProperties": integer("int32")},
        s(Type.MAP, key_schema=s(Type.STRING), value_schema=s(Type.INT32)),
    ),
]
COMPLEX_PAYLOAD = {
    "int8": 12, "int16": 12, "int32": 12, "int64": 12, "float32": 12.2, "float64": 12.2,
    "boolean": True, "string": "foo", "bytes": "Zm9v", "array": ["a", "b", "c"],
    "map": {"field": 1},
}  # fmt: skip
COMPLEX_VALUE = {**COMPLEX_PAYLOAD, "bytes": b"foo"}


def test_complex() -> None:
    # The JSON Schema JsonSchemaData.fromConnectSchema makes of the struct, and its value.
    properties = {name: _index(node, i) for i, (name, node, _) in enumerate(COMPLEX_FIELDS)}
    client = FakeClient()
    client.add(1, json.dumps({"type": "object", "properties": properties}), "JSON",
               "topic-value", 1)  # fmt: skip
    value, schema = _converter(client).to_connect(
        TOPIC, framed(1, json.dumps(COMPLEX_PAYLOAD).encode())
    )
    assert schema == struct(*((n, c) for n, _, c in COMPLEX_FIELDS), version=1)
    assert value == COMPLEX_VALUE


def _with_default(name: str, node: dict[str, Any], connect: ConnectSchema, default: Any,
                  raw: Any, doc: str | None) -> tuple[dict[str, Any], ConnectSchema]:  # fmt: skip
    """A field of testComplexWithDefaults: its JSON Schema (fromConnectSchema: the default as
    JSON, the doc as description) and the Connect schema read back."""
    described = {"description": doc} if doc else {}
    return {**node, "default": raw, **described}, dataclasses.replace(
        connect, default=default, doc=doc
    )


def test_complex_with_defaults() -> None:
    date_def, time_def = 100, 1000 * 60 * 60 * 2
    ts_def = (1000 * 60 * 60 * 24 * 365 + 100) % (1 << 32)  # Java's int arithmetic overflows
    ts_value = datetime.fromtimestamp(ts_def / 1000, UTC)
    defaults = {**COMPLEX_VALUE, "int8": 2}
    raw = {**COMPLEX_PAYLOAD, "int8": 2}
    docs = {name: f"{name} field" for name, _, _ in COMPLEX_FIELDS}
    docs.update({"boolean": "bool field", "array": None, "map": None})
    columns = [
        _with_default(name, node, connect, defaults[name], raw[name], docs[name])
        for name, node, connect in COMPLEX_FIELDS
    ]
    for name, kind, logical, raw_default, default in (
        ("date", "int32", DATE, date_def, date(1970, 4, 11)),
        ("time", "int32", TIME, time_def, time(2, 0)),
        ("ts", "int64", TIMESTAMP, ts_def, ts_value),
    ):
        node = integer(kind, title=logical, **{"connect.version": 1})
        connect = s(Type[kind.upper()], name=logical, version=1)
        columns.append(_with_default(name, node, connect, default, raw_default, f"{name} field"))
    decimal_node = {"type": "string", "title": DECIMAL, "connect.type": "bytes",
                    "connect.version": 1, "connect.parameters": {"scale": "5"}}  # fmt: skip
    decimal = s(Type.BYTES, name=DECIMAL, version=1, parameters={"scale": "5"})
    columns.append(_with_default("decimal", decimal_node, decimal, Decimal("3.14159"), "BMsv",
                                 "decimal field"))  # fmt: skip
    names = [n for n, _, _ in COMPLEX_FIELDS] + ["date", "time", "ts", "decimal"]
    pairs = list(zip(names, columns, strict=True))
    properties = {n: _index(node, i) for i, (n, (node, _)) in enumerate(pairs)}
    client = FakeClient()
    client.add(1, json.dumps({"type": "object", "properties": properties}), "JSON",
               "topic-value", 1)  # fmt: skip
    payload = {**COMPLEX_PAYLOAD, "date": date_def, "time": time_def, "ts": ts_def,
               "decimal": "BMsv"}  # fmt: skip
    value, schema = _converter(client).to_connect(TOPIC, framed(1, json.dumps(payload).encode()))
    assert schema == struct(*((n, c) for n, (_, c) in pairs), version=1)
    assert value == {**COMPLEX_VALUE, "date": date(1970, 4, 11), "time": time(2, 0),
                     "ts": ts_value, "decimal": Decimal("3.14159")}  # fmt: skip
    # a missing field reads as its default
    value, _ = _converter(client).to_connect(TOPIC, framed(1, b"{}"))
    assert value == {n: c.default for n, (_, c) in pairs}


def test_null() -> None:
    client = FakeClient()
    client.add(1, json.dumps(one_of(NULL, {"type": "boolean"})), "JSON", "topic-value", 1)
    assert _converter(client).to_connect(TOPIC, framed(1, b"null")) == (
        None,
        opt(Type.BOOLEAN, version=1),
    )


KEY_JSON = {"type": "object", "properties": {"key": {"type": "integer"}}}
KEYVALUE_JSON = {
    "type": "object",
    "properties": {
        "key": {"type": "integer"},
        "value": {"type": ["null", "string"], "default": None},
    },
}


def test_version_extracted_for_default_subject_name_strategy() -> None:
    # Version info should be extracted even if the data was not created with Copycat.
    client = FakeClient()
    client.add(1, json.dumps(KEY_JSON), "JSON", "topic-value", 1)
    client.add(2, json.dumps(KEYVALUE_JSON), "JSON", "topic-value", 2)
    converter = _converter(client)
    value1, schema1 = converter.to_connect(TOPIC, framed(1, b'{"key":15}'))
    assert schema1 is not None and schema1.version == 1 and value1 == {"key": 15}
    value2, schema2 = converter.to_connect(TOPIC, framed(2, b'{"key":15,"value":"bar"}'))
    assert schema2 is not None and schema2.version == 2
    assert value2 == {"key": 15, "value": "bar"}


def test_version_maintained() -> None:
    # The Connect schema's own version (connect.version) wins over the registry's.
    optional_int16 = one_of(NULL, integer("int16"))
    newer = {
        "type": "object",
        "connect.version": 2,
        "properties": {"orig": _index(optional_int16, 0), "new": _index(optional_int16, 1)},
    }
    older = {"type": "object", "connect.version": 1,
             "properties": {"orig": _index(optional_int16, 0)}}  # fmt: skip
    client = FakeClient()
    client.add(1, json.dumps(newer), "JSON", "topic-value", 1)
    client.add(2, json.dumps(older), "JSON", "topic-value", 2)
    converter = _converter(client)
    _, newer_schema = converter.to_connect(TOPIC, framed(1, b'{"orig":1,"new":2}'))
    _, older_schema = converter.to_connect(TOPIC, framed(2, b'{"orig":1}'))
    assert newer_schema is not None and newer_schema.version == 2
    assert older_schema is not None and older_schema.version == 1


def _same_schema_multiple_topic(is_key: bool) -> None:
    suffix = "key" if is_key else "value"
    client = FakeClient()
    client.add(1, json.dumps(KEYVALUE_JSON), "JSON", f"topic1-{suffix}", 1)
    client.add(2, json.dumps(KEY_JSON), "JSON", f"topic2-{suffix}", 1)
    client.add(1, json.dumps(KEYVALUE_JSON), "JSON", f"topic2-{suffix}", 2)
    converter = _converter(client, is_key)
    record = framed(1, b'{"key":15,"value":"bar"}')
    _, schema1 = converter.to_connect("topic1", record)
    assert schema1 is not None and schema1.version == 1
    _, schema2 = converter.to_connect("topic2", record)
    assert schema2 is not None and schema2.version == 2
    _, schema2 = converter.to_connect("topic2", record)
    assert schema2 is not None and schema2.version == 2


def test_same_schema_multiple_topic_for_value() -> None:
    _same_schema_multiple_topic(False)


def test_same_schema_multiple_topic_for_key() -> None:
    _same_schema_multiple_topic(True)


def test_explicitly_named_nested_maps_with_non_string_keys() -> None:
    def entries(key: Any, value: Any) -> dict[str, Any]:
        properties = {"key": _index(key, 0), "value": _index(value, 1)}
        return {"type": "object", "properties": properties}

    optional_string = one_of(NULL, STRING)
    inner = {"type": "array", "connect.type": "map", "title": "foo.bar",
             "items": entries(optional_string, one_of(NULL, integer("int32")))}  # fmt: skip
    node = {"type": "array", "connect.type": "map", "title": "biz.baz", "connect.version": 1,
            "items": entries(optional_string, inner)}  # fmt: skip
    client = FakeClient()
    client.add(1, json.dumps(node), "JSON", "topic-value", 1)
    payload = b'[{"key":"foo","value":[{"key":"bar","value":1}]}]'
    value, schema = _converter(client).to_connect("topic", framed(1, payload))
    inner_schema = s(Type.MAP, key_schema=opt(Type.STRING), value_schema=opt(Type.INT32),
                     name="foo.bar")  # fmt: skip
    assert schema == s(Type.MAP, key_schema=opt(Type.STRING), value_schema=inner_schema,
                       name="biz.baz", version=1)  # fmt: skip
    assert value == {"foo": {"bar": 1}}


def test_to_connect_data_throws_network_exception_on_serialization_exception_caused_by_network_connection_exception() -> (  # noqa: E501
    None
):
    # A registry that cannot be reached is not the record's fault: a SchemaRegistryError
    # (Confluent: a NetworkException), not a data error for the dead letter queue.
    client = FakeClient()
    client.add(1, '{"type":"boolean"}', "JSON", "topic-value", 1)
    client.failures = [ConnectionError("io fail")] * 5
    with pytest.raises(SchemaRegistryError, match="io fail"):
        _converter(client).to_connect(TOPIC, framed(1, b"true"))


def test_payload_is_read_as_the_deserializers_jackson_reads_it() -> None:
    # ALLOW_NON_NUMERIC_NUMBERS, FAIL_ON_TRAILING_TOKENS off; no value at all is an error.
    client = FakeClient()
    client.add(1, '{"type":"number"}', "JSON", "topic-value", 1)
    converter = _converter(client)
    value, _ = converter.to_connect(TOPIC, framed(1, b" NaN"))
    assert value != value
    assert converter.to_connect(TOPIC, framed(1, b"-Infinity"))[0] == float("-inf")
    assert converter.to_connect(TOPIC, framed(1, b"1.5 2 }"))[0] == 1.5
    with pytest.raises(ValueError, match="the payload is not JSON"):
        converter.to_connect(TOPIC, framed(1, b" "))


# ---------------------------------------------------------------------------------------------
# JsonSchemaConverter's (JsonSchemaDataConfig's) keys


def test_json_schema_converter_config_keys() -> None:
    base = {
        **MINIMAL,
        "value.converter": "io.confluent.connect.json.JsonSchemaConverter",
        "value.converter.schema.registry.url": "http://sr:8081",
    }
    # Keys that change only the writing (fromConnect*) or nothing here: accepted, no effect.
    accepted = {
        "object.additional.properties": "false",
        "decimal.format": "numeric",
        "ignore.default.for.nullables": "true",
        "ignore.modern.dialects": "true",
        "schemas.cache.config": "10",
    }
    c = SinkConfig.from_mapping({**base, **{f"value.converter.{k}": v
                                            for k, v in accepted.items()}})  # fmt: skip
    assert c.converters.value == "jsonschema"
    assert c.ignored_keys == tuple(sorted(f"value.converter.{k}" for k in accepted))
    # Keys that change the Connect data: accepted at their default (how s3connect reads)...
    defaults = {
        "use.optional.for.nonrequired": "false",
        "generalized.sum.type.support": "false",
        "flatten.singleton.unions": "true",
        "preserve.additional.properties": "false",
    }
    SinkConfig.from_mapping({**base, **{f"value.converter.{k}": v for k, v in defaults.items()}})
    # ... and refused otherwise, naming the key.
    refused = {
        "use.optional.for.nonrequired": "true",
        "generalized.sum.type.support": "true",
        "flatten.singleton.unions": "false",
        "preserve.additional.properties": "true",
    }
    for key, value in refused.items():
        with pytest.raises(ConfigError, match=rf"value\.converter\.{key}={value} is not supported"):
            SinkConfig.from_mapping({**base, f"value.converter.{key}": value})
    with pytest.raises(ConfigError, match="String must be one of \\(case insensitive\\)"):
        SinkConfig.from_mapping({**base, "value.converter.decimal.format": "HEX"})
