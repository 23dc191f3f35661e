"""Confluent's ``AdditionalAvroDataTest`` (schema-registry 794611bd, module avro-data), one test
per Java test method; its ``.avsc`` files are in ``tests/data/avro_data``.

The Java tests read with the writer's settings (``connect.meta.data``, enhanced schema
support); ours read with AvroConverter's defaults, which keep the docs and defaults the writer
needs. Skipped: the tests of generated classes filled by Podam (``*Data``), of unions read with
enhanced schema support (``testComplexUnionSchema``), of ``discard.type.doc.default``, and of
reading without ``connect.meta.data``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from s3connect.convert.avro_data import AvroDataOptions, to_connect_schema
from tests.unit.convert.confluent_avro_help import (
    from_connect_data,
    from_connect_schema,
    to_connect_data,
)

AVSC = Path(__file__).resolve().parents[2] / "data" / "avro_data"
NO_META_ENHANCED = AvroDataOptions(connect_meta_data=False, enhanced_schema_support=True)
META_ENHANCED = AvroDataOptions(enhanced_schema_support=True)


def avsc(name: str) -> Any:
    return json.loads((AVSC / f"{name}.avsc").read_text(encoding="utf-8"))


def field(avro: Any, name: str) -> dict[str, Any]:
    return next(f for f in avro["fields"] if f["name"] == name)


def test_documentation_preserved_schema() -> None:
    avro = avsc("DocTestRecord")
    assert from_connect_schema(to_connect_schema(avro), NO_META_ENHANCED) == avro


def test_nested_union() -> None:
    impl = [{"name": "data", "type": ["null", "string"], "default": None}]
    avro = {
        "type": "record",
        "name": "MyObjectToPersist",
        "namespace": "io.confluent.connect.avro.AdditionalAvroDataTest",
        "fields": [
            {
                "name": "obj",
                "type": [
                    "null",
                    {"type": "record", "name": "MyImpl1", "fields": impl},
                    {"type": "record", "name": "MyImpl2", "fields": impl},
                ],
                "default": None,
            }
        ],
    }
    name = "io.confluent.connect.avro.AdditionalAvroDataTest.MyImpl1"
    datum = {"obj": (name, {"data": "mydata"})}
    schema, value = to_connect_data(avro, datum)
    assert schema is not None
    assert from_connect_data(schema, value, NO_META_ENHANCED) == datum
    assert from_connect_schema(schema, NO_META_ENHANCED) == avro


def test_record_default() -> None:
    avro = {
        "type": "record",
        "name": "MyRecord",
        "namespace": "io.confluent.connect.avro.AdditionalAvroDataTest",
        "fields": [
            {
                "name": "obj",
                "type": {
                    "name": "obj2",
                    "type": "record",
                    "fields": [{"name": "data", "type": "string", "default": ""}],
                },
                "default": {"data": ""},
            }
        ],
    }
    datum = {"obj": {"data": ""}}  # GenericRecordBuilder's record of the defaults
    schema, value = to_connect_data(avro, datum)
    assert schema is not None
    assert from_connect_data(schema, value, NO_META_ENHANCED) == datum
    assert from_connect_schema(schema, NO_META_ENHANCED) == avro


def test_field_record_enum_documentation_schema() -> None:
    avro = avsc("RepeatedTypeWithDocFull")
    out = from_connect_schema(to_connect_schema(avro), META_ENHANCED)
    assert out["doc"] == "record's doc"
    assert field(out, "stringField")["doc"] == "field's doc"
    assert "doc" not in field(out, "anotherStringField")
    record = field(out, "recordField")
    assert record["doc"] == "record field's doc"
    assert record["type"]["doc"] == "nested record's doc"
    assert field(record["type"], "nestedRecordField")["doc"] == "nested record field's doc"
    assert "doc" not in field(record["type"], "anotherNestedRecordField")
    # The record again, by name (the same schema: issue #1042), with the field's own doc.
    assert field(out, "anotherRecordField")["doc"] == "another record field's doc"
    assert field(out, "anotherRecordField")["type"] == "NestedRecord"
    assert field(out, "recordFieldWithoutDoc")["type"] == "NestedRecord"
    assert "doc" not in field(out, "recordFieldWithoutDoc")
    assert "doc" not in field(out, "doclessRecordField")
    assert "doc" not in field(out, "doclessRecordField")["type"]
    assert field(out, "doclessRecordFieldWithDoc")["doc"] == "docless record field's doc"
    assert field(out, "doclessRecordFieldWithDoc")["type"] == "DoclessNestedRecord"
    assert field(out, "enumField")["doc"] == "enum field's doc"
    assert field(out, "enumField")["type"]["doc"] == "enum's doc"
    assert field(out, "anotherEnumField")["doc"] == "another enum field's doc"
    assert field(out, "anotherEnumField")["type"] == "Kind"
    assert "doc" not in field(out, "doclessEnumField")
    assert field(out, "doclessEnumField")["type"] == "Kind"
    assert "doc" not in field(out, "diffEnumField")
    assert field(out, "diffEnumField")["type"]["doc"] == "diffEnum's doc"


def test_repeated_type_with_default() -> None:
    avro = avsc("RepeatedTypeWithDefault")
    out = from_connect_schema(to_connect_schema(avro), META_ENHANCED)
    assert field(out, "stringField")["default"] == "field's default"
    assert "default" not in field(out, "anotherStringField")
    assert field(out, "enumField")["default"] == "ONE"
    assert field(out, "anotherEnumField")["default"] == "TWO"
    assert field(out, "anotherEnumField")["type"] == "Kind"
    assert field(out, "enumFieldWithDiffDefault")["default"] == "B"
    assert field(out, "enumFieldWithDiffDefault")["type"]["default"] == "A"
    assert field(out, "floatField")["default"] == 9.18
    assert field(out, "anotherStringField")["type"] == field(out, "stringField")["type"]


def test_array_of_records_with_default_value() -> None:
    records = to_connect_schema(avsc("ArrayOfRecordsWithDefault")).field("records")
    assert records is not None
    assert records.schema.default == [
        {"itemName": "item1", "itemValue": "value1", "itemValueNullable": None},
        {"itemName": "item2", "itemValue": "value2", "itemValueNullable": None},
    ]
