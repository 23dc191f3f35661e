"""Which registered schemas' datums AvroFormat writes as they are (sink/avro_datums.py): the
schema AvroData derives must encode like the registered one, and the Connect schema hold no
value AvroData writes otherwise than it read it. (The datums themselves: the JVM's check, in
tests/integration/spark/test_jvm_avro_datums.py.)"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest

from s3connect.connect.schema import ConnectSchema, Field, Type
from s3connect.convert.avro_data import AvroDataOptions, connect_reader
from s3connect.formats.avro import AvroFormat
from s3connect.sink.avro_datums import _copied, _plain, same_encoding

_E = {"type": "enum", "name": "E", "symbols": ["X", "Y"]}


def _record(*types: Any, name: str = "R") -> dict[str, Any]:
    return {
        "type": "record",
        "name": name,
        "fields": [{"name": f"f{i}", "type": t} for i, t in enumerate(types)],
    }


@pytest.mark.parametrize(
    ("one", "other", "same"),
    [
        (_record("int", "string"), _record("int", "string", name="Other"), True),
        (_record("int", "string"), _record("string", "int"), False),
        (_record("int"), _record("long"), False),
        (_record(["null", "int"]), _record(["int", "null"]), False),
        (_record(_E), _record({**_E, "name": "F", "doc": "d"}), True),
        (_record(_E), _record({**_E, "symbols": ["Y", "X"]}), False),
        (
            _record({"type": "fixed", "name": "F", "size": 3}),
            _record({"type": "fixed", "name": "G", "size": 4}),
            False,
        ),
        (_record(_E, "E"), _record(_E, _E | {"name": "E2"}), True),  # a named reference
        (_record({"type": "int", "logicalType": "date"}), _record("int"), True),
        (
            _record({"type": "map", "values": "int"}),
            _record({"type": "map", "values": "long"}),
            False,
        ),
        (
            _record({"type": "array", "items": _record("int", name="In")}),
            _record({"type": "array", "items": _record("int", name="Other")}),
            True,
        ),
        (_record("int"), _record("int", "int"), False),
    ],
)
def test_schemas_encode_alike_by_types_order_and_symbols(one: Any, other: Any, same: bool) -> None:
    assert same_encoding(one, other) is same
    assert same_encoding(other, one) is same


def _copies(avro: Any, fmt: AvroFormat | None = None) -> bool:
    schema = connect_reader(avro).schema
    return _copied(json.dumps(avro), schema, (fmt or AvroFormat()).avro_data)


def test_enums_are_copied_with_enhanced_schema_support() -> None:
    enhanced = AvroFormat(avro_data=AvroDataOptions(enhanced_schema_support=True))
    assert _copies(_record(_E, ["null", _E | {"name": "F"}]), enhanced)
    assert not _copies(_record(_E | {"symbols": ["X"]}, "int"), AvroFormat())


@pytest.mark.parametrize(
    ("field", "copied"),
    [
        ("int", True),
        (["null", "string"], True),
        (["string", "null"], False),  # AvroData writes ["null", "string"]
        ({"type": "int", "connect.type": "int8"}, False),
        ({"type": "int", "connect.type": "int16"}, False),
        ({"type": "bytes", "logicalType": "decimal", "precision": 4, "scale": 2}, False),
        (
            {
                "type": "map",
                "values": {"type": "bytes", "logicalType": "decimal", "precision": 4, "scale": 2},
            },
            False,
        ),
        ({"type": "long", "logicalType": "timestamp-millis"}, True),
        (_E, False),  # a string without enhanced.avro.schema.support
        ({"type": "map", "values": "string"}, True),
        (_record(["null", "long"], name="Inner"), True),
    ],
)
def test_registered_schemas_whose_datums_are_copied(field: Any, copied: bool) -> None:
    assert _copies(_record(field)) is copied


def test_an_optional_schema_with_a_default_is_not_copied() -> None:
    # AvroData writes an optional field's default in a null's place: a null's datum changes.
    inner = ConnectSchema(Type.INT32, optional=True, default=3)
    struct = ConnectSchema(Type.STRUCT, name="R", fields=(Field("f", inner),))
    assert not _plain(struct)
    assert _plain(dataclasses.replace(struct, fields=(Field("f", ConnectSchema(Type.INT32)),)))
