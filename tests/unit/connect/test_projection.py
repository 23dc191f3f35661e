"""Kafka Connect's SchemaProjector (kafka-connect-storage-common's variant), value by value.

Expected values and messages follow ``SchemaProjector.java`` and Kafka's ``SchemaProjectorTest``.
"""

from __future__ import annotations

from typing import Any

import pytest

from s3connect.connect.projection import (
    is_promotable,
    parameters_differ,
    project_record,
    project_value,
)
from s3connect.connect.records import SinkRecord
from s3connect.connect.schema import ConnectSchema, Field, Type
from s3connect.errors import RecordError, SchemaProjectionError

INT8, INT16, INT32, INT64 = Type.INT8, Type.INT16, Type.INT32, Type.INT64
FLOAT, DOUBLE, STRING = Type.FLOAT32, Type.FLOAT64, Type.STRING


def s(t: Type, **kw: Any) -> ConnectSchema:
    return ConnectSchema(t, **kw)


def struct(*fields: tuple[str, ConnectSchema], **kw: Any) -> ConnectSchema:
    return ConnectSchema(Type.STRUCT, fields=tuple(Field(n, f) for n, f in fields), **kw)


def project(source: ConnectSchema, value: Any, target: ConnectSchema) -> Any:
    return project_value(source, value, target, topic="t", partition=1, offset=7)


def failure(source: ConnectSchema, value: Any, target: ConnectSchema) -> str:
    with pytest.raises(SchemaProjectionError) as err:
        project(source, value, target)
    assert isinstance(err.value, RecordError)
    assert (err.value.topic, err.value.partition, err.value.offset) == ("t", 1, 7)
    return str(err.value)


V1 = struct(("id", s(INT32)), ("name", s(STRING, optional=True)), name="User", version=1)
V2 = struct(
    ("id", s(INT64)),
    ("name", s(STRING, optional=True)),
    ("email", s(STRING, default="none")),
    ("age", s(INT32, optional=True)),
    ("tier", s(INT32, optional=True, default=3)),
    name="User",
    version=2,
)


def test_added_fields_take_defaults_or_null_in_target_order() -> None:
    assert project(V1, {"id": 5, "name": "a"}, V2) == {
        "id": 5, "name": "a", "email": "none", "age": None, "tier": 3,
    }  # fmt: skip


def test_removed_fields_are_dropped() -> None:
    v2_value = {"id": 5, "name": None, "email": "e", "age": 4, "tier": 1}
    narrow = struct(("id", s(INT64)), ("name", s(STRING, optional=True)), name="User", version=1)
    assert project(V2, v2_value, narrow) == {"id": 5, "name": None}


def test_a_required_field_missing_from_the_source_fails() -> None:
    target = struct(("id", s(INT32)), ("email", s(STRING)), name="User", version=3)
    assert failure(V1, {"id": 1, "name": None}, target) == (
        "cannot project a value of schema 'User' version 1 onto schema 'User' version 3: "
        "Required field `email` is missing from source schema: Schema{User:STRUCT} "
        "(topic='t', partition=1, offset=7)"
    )


@pytest.mark.parametrize(
    ("source", "value", "target", "expected"),
    [
        (INT8, 12, INT16, 12),
        (INT8, -3, INT64, -3),
        (INT16, 300, INT32, 300),
        (INT32, 70_000, INT64, 70_000),
        (INT32, 7, FLOAT, 7.0),
        (INT32, 16_777_217, FLOAT, 16_777_216.0),  # (float) 16777217 rounds to even
        (INT64, 2**60 + 2**36 + 1, FLOAT, float(2**60 + 2**37)),  # one rounding, not two
        (INT64, 2**53 + 1, DOUBLE, float(2**53)),
        (FLOAT, 0.1, DOUBLE, 0.10000000149011612),  # the Java float widened, not the text
        (FLOAT, 0.1, FLOAT, 0.1),
        (DOUBLE, 0.1, DOUBLE, 0.1),
        (Type.BOOLEAN, True, Type.BOOLEAN, True),
        (Type.BYTES, b"\x00", Type.BYTES, b"\x00"),
    ],
)
def test_numeric_promotions(source: Type, value: Any, target: Type, expected: Any) -> None:
    got = project(s(source), value, s(target))
    assert got == expected and type(got) is type(expected)


def test_promotable_types_are_connects_widening_chain() -> None:
    chain = [INT8, INT16, INT32, INT64, FLOAT, DOUBLE]
    for i, a in enumerate(chain):
        for j, b in enumerate(chain):
            assert is_promotable(a, b) is (i <= j), (a, b)
    assert not is_promotable(Type.BOOLEAN, INT8)
    assert not is_promotable(STRING, STRING)  # equal non-numeric types need no promotion


@pytest.mark.parametrize(
    ("source", "target", "message"),
    [
        (s(DOUBLE), s(FLOAT), "Schema type mismatch. source type: FLOAT64 and target type: "
         "FLOAT32"),
        (s(INT32), s(STRING), "Schema type mismatch. source type: INT32 and target type: STRING"),
        (s(INT32, name="a"), s(INT32, name="b"), "Schema name mismatch. source name: a and "
         "target name: b"),
        (s(INT32), s(INT32, name="b"), "Schema name mismatch. source name: null and target "
         "name: b"),
        (
            s(Type.BYTES, name="d", parameters={"scale": "2"}),
            s(Type.BYTES, name="d", parameters={"scale": "3"}),
            "Schema parameters not equal. source parameters: {'scale': '2'} and target "
            "parameters: {'scale': '3'}",
        ),
    ],
)  # fmt: skip
def test_check_maybe_compatible(source: ConnectSchema, target: ConnectSchema, message: str) -> None:
    assert f": {message} (topic=" in failure(source, 1, target)


def test_metadata_parameters_are_ignored_and_enums_may_gain_symbols() -> None:
    doc = {"connect.record.doc": "x", "io.confluent.connect.avro.field.doc.id": "y"}
    assert project(s(INT32, parameters={"a": "1", **doc}), 4, s(INT32, parameters={"a": "1"})) == 4

    def color(*symbols: str) -> ConnectSchema:
        params = {"io.confluent.connect.avro.Enum": "Color"}
        params.update({f"io.confluent.connect.avro.Enum.{x}": x for x in symbols})
        return s(STRING, name="Color", parameters=params)

    assert project(color("RED"), "RED", color("RED", "BLUE")) == "RED"
    assert not parameters_differ(color("RED"), color("RED", "BLUE"))
    assert parameters_differ(color("RED", "BLUE"), color("RED"))
    assert "is not a subset of target parameters" in failure(color("BLUE"), "BLUE", color("RED"))


def test_optional_onto_required() -> None:
    optional, required = s(INT32, optional=True), s(INT32)
    assert project(optional, 4, s(INT32, default=9)) == 4
    assert project(optional, None, s(INT32, default=9)) == 9
    # Without a target default Java fails whatever the value.
    assert failure(optional, 4, required).endswith(
        "Writer schema is optional, however, target schema does not provide a default value. "
        "(topic='t', partition=1, offset=7)"
    )
    assert project(required, 4, optional) == 4
    assert project(optional, None, optional) is None


def test_null_field_reads_as_its_default_first() -> None:
    # Connect's Struct.get returns the field default for a null value before projecting.
    source = struct(("n", s(INT32, optional=True, default=5)))
    target = struct(("n", s(INT64, optional=True)))
    assert project(source, {"n": None}, target) == {"n": 5}


def test_nested_structs_arrays_and_maps() -> None:
    inner1 = struct(("x", s(INT16)), name="Inner", version=1)
    inner2 = struct(("x", s(INT32)), ("y", s(STRING, default="-")), name="Inner", version=2)
    source = struct(
        ("items", s(Type.ARRAY, value_schema=inner1)),
        ("by", s(Type.MAP, key_schema=s(INT8), value_schema=inner1)),
        ("one", inner1),
    )
    target = struct(
        ("items", s(Type.ARRAY, value_schema=inner2)),
        ("by", s(Type.MAP, key_schema=s(INT64), value_schema=inner2)),
        ("one", inner2),
    )
    value = {"items": [{"x": 1}, {"x": 2}], "by": {3: {"x": 4}}, "one": {"x": 5}}
    assert project(source, value, target) == {
        "items": [{"x": 1, "y": "-"}, {"x": 2, "y": "-"}],
        "by": {3: {"x": 4, "y": "-"}},
        "one": {"x": 5, "y": "-"},
    }
    bad = struct(("one", struct(("x", s(STRING)), name="Inner", version=2)))
    assert failure(struct(("one", inner1)), {"one": {"x": 1}}, bad) == (
        "cannot project a value of schema STRUCT onto schema STRUCT at one.x: Schema type "
        "mismatch. source type: INT16 and target type: STRING (topic='t', partition=1, offset=7)"
    )


def test_checks_run_only_where_values_are_visited() -> None:
    # As Java: an empty array never checks its element schemas, a null struct its fields.
    source = s(Type.ARRAY, value_schema=s(STRING))
    target = s(Type.ARRAY, value_schema=s(INT32))
    assert project(source, [], target) == []
    assert "source type: STRING and target type: INT32" in failure(source, ["a"], target)
    opt_src = struct(("a", s(STRING)), optional=True)
    opt_tgt = struct(("a", s(INT32)), optional=True)
    assert project(opt_src, None, opt_tgt) is None


def _record(schema: ConnectSchema | None, value: Any) -> SinkRecord:
    return SinkRecord("t", 2, 40, 1000, b"k", value, None, schema, (("h", b"1"),))


def test_project_record() -> None:
    record = _record(V1, {"id": 1, "name": "a"})
    assert project_record(record, V1) is record
    assert project_record(record, struct(*[(f.name, f.schema) for f in V1.fields], name="User",
                                         version=1)) is record  # fmt: skip
    projected = project_record(record, V2)
    assert projected == SinkRecord(
        "t", 2, 40, 1000, b"k",
        {"id": 1, "name": "a", "email": "none", "age": None, "tier": 3},
        None, V2, (("h", b"1"),),
    )  # fmt: skip
    with pytest.raises(SchemaProjectionError, match=r"schemaless value onto schema 'User' version"):
        project_record(_record(None, {"id": 1}), V1)
