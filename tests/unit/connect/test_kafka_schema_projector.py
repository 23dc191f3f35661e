"""Kafka's ``SchemaProjectorTest`` (``connect/api/src/test/java/org/apache/kafka/connect/data``)
and kafka-connect-storage-common's ``SchemaProjectorTest``
(``core/src/test/java/io/confluent/connect/storage/schema``), test by test, against our
:func:`project_value` (storage-common's ``SchemaProjector``, which the S3 sink uses).

Values are ours (:mod:`s3connect.connect.schema`): a struct is a dict, a Java ``Float`` is the
Python float it holds exactly (``f32``).
"""

from __future__ import annotations

import struct as pack
from datetime import UTC, date, datetime, time
from decimal import Decimal
from typing import Any

import pytest

from s3connect.connect.projection import project_value
from s3connect.connect.schema import DATE, DECIMAL, TIME, TIMESTAMP, ConnectSchema, Field, Type
from s3connect.errors import SchemaProjectionError

INT8, INT16, INT32, INT64 = Type.INT8, Type.INT16, Type.INT32, Type.INT64
FLOAT32, FLOAT64 = Type.FLOAT32, Type.FLOAT64
BOOLEAN, BYTES, STRING = Type.BOOLEAN, Type.BYTES, Type.STRING
AVRO_TYPE_ENUM = "io.confluent.connect.avro.Enum"  # AvroData.AVRO_TYPE_ENUM
PROTOBUF_TYPE_ENUM = "io.confluent.connect.protobuf.Enum"  # ProtobufData.PROTOBUF_TYPE_ENUM


def s(t: Type, **kw: Any) -> ConnectSchema:
    return ConnectSchema(t, **kw)


def opt(t: Type, **kw: Any) -> ConnectSchema:
    return ConnectSchema(t, optional=True, **kw)


def struct(*fields: tuple[str, ConnectSchema], **kw: Any) -> ConnectSchema:
    return ConnectSchema(Type.STRUCT, fields=tuple(Field(n, f) for n, f in fields), **kw)


def array(value_schema: ConnectSchema, **kw: Any) -> ConnectSchema:
    return ConnectSchema(Type.ARRAY, value_schema=value_schema, **kw)


def map_of(key: ConnectSchema, value: ConnectSchema, **kw: Any) -> ConnectSchema:
    return ConnectSchema(Type.MAP, key_schema=key, value_schema=value, **kw)


def f32(value: float) -> float:
    """A Java ``float`` literal (``1.2F``): the nearest single, as a Python float."""
    return float(pack.unpack("f", pack.pack("f", value))[0])


def project(source: ConnectSchema, value: Any, target: ConnectSchema) -> Any:
    return project_value(source, value, target, topic="t", partition=0, offset=0)


def fails(source: ConnectSchema, value: Any, target: ConnectSchema) -> str:
    """Java's ``assertThrows(SchemaProjectorException.class, ...)``: the message."""
    with pytest.raises(SchemaProjectionError) as err:
        project(source, value, target)
    return str(err.value)


def same(got: Any, expected: Any) -> bool:
    """Java's ``assertEquals`` of boxed numbers: equal values of the same kind."""
    return bool(got == expected and type(got) is type(expected))


OPTIONAL_DEFAULT = "Writer schema is optional, however, target schema does not provide a default"

# ===================================== Kafka's SchemaProjectorTest ==============================


def test_primitive_type_projection() -> None:
    # SchemaProjectorTest.testPrimitiveTypeProjection (Kafka)
    raw = bytes([1, 2])
    assert project(s(BOOLEAN), False, s(BOOLEAN)) is False
    assert project(s(BYTES), raw, s(BYTES)) is raw
    assert project(s(STRING), "abc", s(STRING)) == "abc"
    assert project(s(BOOLEAN), False, opt(BOOLEAN)) is False
    assert project(s(BYTES), raw, opt(BYTES)) is raw
    assert project(s(STRING), "abc", opt(STRING)) == "abc"
    assert OPTIONAL_DEFAULT in fails(opt(BOOLEAN), False, s(BOOLEAN))
    assert OPTIONAL_DEFAULT in fails(opt(BYTES), raw, s(BYTES))
    assert OPTIONAL_DEFAULT in fails(opt(STRING), "abc", s(STRING))


def test_numeric_type_projection() -> None:
    # SchemaProjectorTest.testNumericTypeProjection (Kafka)
    types = [INT8, INT16, INT32, INT64, FLOAT32, FLOAT64]
    values: list[Any] = [127, 255, 32767, 327890, f32(1.2), 1.2345]
    expected_projected: list[list[Any]] = [
        [127, 127, 127, 127, 127.0, 127.0],
        [255, 255, 255, 255.0, 255.0],
        [32767, 32767, 32767.0, 32767.0],
        [327890, 327890.0, 327890.0],
        [f32(1.2), 1.2],
        [1.2345],
    ]
    for i, source in enumerate(types):
        for j in range(i, len(types)):
            expected = expected_projected[i][j - i]
            for target in (s(types[j]), opt(types[j])):
                promoted = project(s(source), values[i], target)
                if types[j] is FLOAT64:
                    assert promoted == pytest.approx(expected, abs=1e-6)
                    assert type(promoted) is float
                else:
                    assert same(promoted, expected), (source, types[j])
    for source in types:
        for non_promotable in (BOOLEAN, BYTES, STRING):
            message = fails(s(source), object(), s(non_promotable))
            assert (
                f"Schema type mismatch. source type: {source.name} and target type: "
                f"{non_promotable.name}"
            ) in message


def verify_optional_projection(
    source: ConnectSchema, target_type: Type, value: Any, default_value: Any,
    expected_projected: Any, optional: bool,
) -> None:  # fmt: skip
    """``verifyOptionalProjection``: ``value`` and null projected onto ``target_type`` with a
    default (optional or not)."""
    assert source.optional and value is not None
    target = s(target_type, optional=optional, default=default_value)
    projected = project(source, value, target)
    if target_type is FLOAT64:
        assert projected == pytest.approx(expected_projected, abs=1e-6)
    else:
        assert same(projected, expected_projected)
    projected = project(source, None, target)
    if optional:
        assert projected is None
    else:
        assert projected == default_value


def test_primitive_optional_projection() -> None:
    # SchemaProjectorTest.testPrimitiveOptionalProjection (Kafka)
    raw, default_raw = bytes([1, 2]), bytes([3, 4])
    cases: list[tuple[Type, Type, Any, Any, Any]] = [
        (BOOLEAN, BOOLEAN, False, True, False),
        (BYTES, BYTES, raw, default_raw, raw),
        (STRING, STRING, "abc", "def", "abc"),
        (INT8, INT8, 12, 127, 12),
        (INT8, INT16, 12, 127, 12),
        (INT8, INT32, 12, 12789, 12),
        (INT8, INT64, 12, 127890, 12),
        (INT8, FLOAT32, 12, f32(3.45), 12.0),
        (INT8, FLOAT64, 12, 3.4567, 12.0),
        (INT16, INT16, 12, 127, 12),
        (INT16, INT32, 12, 12789, 12),
        (INT16, INT64, 12, 127890, 12),
        (INT16, FLOAT32, 12, f32(3.45), 12.0),
        (INT16, FLOAT64, 12, 3.4567, 12.0),
        (INT32, INT32, 12, 12789, 12),
        (INT32, INT64, 12, 127890, 12),
        (INT32, FLOAT32, 12, f32(3.45), 12.0),
        (INT32, FLOAT64, 12, 3.4567, 12.0),
        (INT64, INT64, 12, 127890, 12),
        (INT64, FLOAT32, 12, f32(3.45), 12.0),
        (INT64, FLOAT64, 12, 3.4567, 12.0),
        (FLOAT32, FLOAT32, f32(12.345), f32(3.45), f32(12.345)),
        (FLOAT32, FLOAT64, f32(12.345), 3.4567, 12.345),
        # Java's last pair puts the double 12.345 in a FLOAT32 schema and gets exactly 12.345;
        # ours takes a FLOAT32 value as a float (12.345000267...): equal within Java's 1e-6.
        (FLOAT32, FLOAT64, 12.345, 3.4567, 12.345),
    ]
    for source, target, value, default, expected in cases:
        for optional in (True, False):
            verify_optional_projection(opt(source), target, value, default, expected, optional)


def test_struct_add_field() -> None:
    # SchemaProjectorTest.testStructAddField (Kafka)
    source = struct(("field", s(INT32)))
    target = struct(("field", s(INT32)), ("field2", s(INT32, default=123)))
    assert project(source, {"field": 1}, target) == {"field": 1, "field2": 123}
    incompatible_target_schema = struct(("field", s(INT32)), ("field2", s(INT32)))
    assert "Required field `field2` is missing from source schema: Schema{STRUCT}" in fails(
        source, {"field": 1}, incompatible_target_schema
    )


def test_struct_remove_field() -> None:
    # SchemaProjectorTest.testStructRemoveField (Kafka): field2 is not part of the projection
    source = struct(("field", s(INT32)), ("field2", s(INT32)))
    target = struct(("field", s(INT32)))
    target_struct = project(source, {"field": 1, "field2": 234}, target)
    assert target_struct == {"field": 1}
    assert "field2" not in target_struct


def test_struct_default_value() -> None:
    # SchemaProjectorTest.testStructDefaultValue (Kafka)
    source = struct(("field", s(INT32)), ("field2", s(INT32)), optional=True)
    default_struct = {"field": 12, "field2": 345}
    target = struct(("field", s(INT32)), ("field2", s(INT32)), default=default_struct)
    assert project(source, None, target) == default_struct
    assert project(source, {"field": 45, "field2": 678}, target) == {"field": 45, "field2": 678}


def test_nested_schema_projection() -> None:
    # SchemaProjectorTest.testNestedSchemaProjection (Kafka)
    source_flat_schema = struct(("field", s(INT32)))
    target_flat_schema = struct(("field", s(INT32)), ("field2", s(INT32, default=123)))
    common = (
        ("first", s(INT32)),
        ("second", s(STRING)),
        ("array", array(s(INT32))),
        ("map", map_of(s(INT32), s(STRING))),
    )
    source_nested_schema = struct(*common, ("nested", source_flat_schema))
    target_nested_schema = struct(*common, ("nested", target_flat_schema))
    source_nested_struct = {
        "first": 1, "second": "abc", "array": [1, 2], "map": {5: "def"}, "nested": {"field": 113},
    }  # fmt: skip
    target_nested_struct = project(source_nested_schema, source_nested_struct, target_nested_schema)
    assert target_nested_struct["first"] == 1
    assert target_nested_struct["second"] == "abc"
    assert target_nested_struct["array"] == [1, 2]
    assert target_nested_struct["map"] == {5: "def"}
    assert target_nested_struct["nested"] == {"field": 113, "field2": 123}


def decimal_schema(scale: int) -> ConnectSchema:
    """``Decimal.schema(scale)``."""
    return s(BYTES, name=DECIMAL, version=1, parameters={"scale": str(scale)})


DATE_SCHEMA = s(INT32, name=DATE, version=1)
TIME_SCHEMA = s(INT32, name=TIME, version=1)
TIMESTAMP_SCHEMA = s(INT64, name=TIMESTAMP, version=1)


def test_logical_type_projection() -> None:
    # SchemaProjectorTest.testLogicalTypeProjection (Kafka)
    test_decimal = Decimal("1.56")
    assert project(decimal_schema(2), test_decimal, decimal_schema(2)) == test_decimal
    assert project(DATE_SCHEMA, 1000, DATE_SCHEMA) == 1000
    assert project(TIME_SCHEMA, 231, TIME_SCHEMA) == 231
    assert project(TIMESTAMP_SCHEMA, 34567, TIMESTAMP_SCHEMA) == 34567
    now = datetime.now(UTC)
    assert project(DATE_SCHEMA, now.date(), DATE_SCHEMA) == now.date()
    assert project(TIME_SCHEMA, now.time(), TIME_SCHEMA) == now.time()
    assert project(TIMESTAMP_SCHEMA, now, TIMESTAMP_SCHEMA) == now
    assert isinstance(now.date(), date) and isinstance(now.time(), time)

    named_schema = s(INT32, name="invalidLogicalTypeName")
    for logical in (decimal_schema(2), DATE_SCHEMA, TIME_SCHEMA, TIMESTAMP_SCHEMA):
        assert "Schema type mismatch" in fails(logical, None, s(BOOLEAN))
        message = fails(logical, None, named_schema)
        assert "Schema type mismatch" in message or "Schema name mismatch" in message
        assert "Schema type mismatch" in fails(s(BOOLEAN), None, logical)


def test_array_projection() -> None:
    # SchemaProjectorTest.testArrayProjection (Kafka)
    source = array(s(INT32))
    assert project(source, [1, 2, 3], source) == [1, 2, 3]
    optional_source = array(s(INT32), optional=True)
    target = array(s(INT32), default=[1, 2, 3])
    assert project(optional_source, [4, 5], target) == [4, 5]
    assert project(optional_source, None, target) == [1, 2, 3]
    promoted_target = array(s(INT64), default=[1, 2, 3])
    assert project(optional_source, [4, 5], promoted_target) == [4, 5]
    assert project(optional_source, None, promoted_target) == [1, 2, 3]
    no_default_value_target = array(s(INT32))
    assert OPTIONAL_DEFAULT in fails(optional_source, None, no_default_value_target)
    non_promotable_target = array(s(BOOLEAN))  # fails on optionality before its elements
    assert OPTIONAL_DEFAULT in fails(optional_source, None, non_promotable_target)


def test_map_projection() -> None:
    # SchemaProjectorTest.testMapProjection (Kafka)
    source = map_of(s(INT32), s(INT32), optional=True)
    target = map_of(s(INT32), s(INT32), default={1: 2})
    assert project(source, {3: 4}, target) == {3: 4}
    assert project(source, None, target) == {1: 2}
    promoted_target = map_of(s(INT64), s(FLOAT32), default={3: 4.5})
    projected = project(source, {3: 4}, promoted_target)
    assert projected == {3: 4.0} and type(projected[3]) is float
    assert project(source, None, promoted_target) == {3: 4.5}
    no_default_value_target = map_of(s(INT32), s(INT32))
    assert OPTIONAL_DEFAULT in fails(source, None, no_default_value_target)
    non_promotable_target = map_of(s(BOOLEAN), s(STRING))
    assert OPTIONAL_DEFAULT in fails(source, None, non_promotable_target)


def test_maybe_compatible() -> None:
    # SchemaProjectorTest.testMaybeCompatible (Kafka)
    source = s(INT32, name="source")
    target = s(INT32, name="target")
    assert "Schema name mismatch. source name: source and target name: target" in fails(
        source, 12, target
    )
    target_with_parameters = s(INT32, parameters={"key": "value"})
    assert "Schema name mismatch. source name: source and target name: null" in fails(
        source, 34, target_with_parameters
    )


def test_project_missing_default_valued_struct_field() -> None:
    # SchemaProjectorTest.testProjectMissingDefaultValuedStructField (Kafka)
    target = struct(("id", s(INT64, default=42)))
    assert project(struct(), {}, target)["id"] == 42


def test_project_missing_optional_struct_field() -> None:
    # SchemaProjectorTest.testProjectMissingOptionalStructField (Kafka)
    target = struct(("id", opt(INT64)))
    assert project(struct(), {}, target) == {"id": None}


def test_project_missing_required_field() -> None:
    # SchemaProjectorTest.testProjectMissingRequiredField (Kafka)
    target = struct(("id", s(INT64)))
    assert "Required field `id` is missing from source schema: Schema{STRUCT}" in fails(
        struct(), {}, target
    )


# ============================= storage-common's SchemaProjectorTest =============================


def enum(marker: str, name: str, version: int, *values: str) -> ConnectSchema:
    """``buildAvroEnumSchema``/``buildProtobufEnumSchema``."""
    params = {marker: name} | {f"{marker}.{v}": v for v in values}
    return s(STRING, name=name, version=version, parameters=params)


ENUM_SCHEMA_A = enum(AVRO_TYPE_ENUM, "e1", 1, "RED", "GREEN", "BLUE")
ENUM_SCHEMA_A2 = enum(AVRO_TYPE_ENUM, "e1", 2, "RED", "GREEN")
ENUM_SCHEMA_B = enum(AVRO_TYPE_ENUM, "e1", 1, "RED", "GREEN", "BLUE", "YELLOW")
ENUM_SCHEMA_C = enum(PROTOBUF_TYPE_ENUM, "e1", 1, "RED", "GREEN", "BLUE")
ENUM_SCHEMA_C2 = enum(PROTOBUF_TYPE_ENUM, "e1", 2, "RED", "GREEN")
ENUM_SCHEMA_D = enum(PROTOBUF_TYPE_ENUM, "e1", 1, "RED", "GREEN", "BLUE", "YELLOW")
STRING_SCHEMA_A = s(STRING, name="schema1", version=1)
STRING_SCHEMA_B = s(STRING, name="schema2", version=1)


def test_check_maybe_compatible_with_string_schema() -> None:
    # storage-common SchemaProjectorTest.testCheckMaybeCompatibleWithStringSchema
    assert "Schema name mismatch. source name: schema1 and target name: schema2" in fails(
        STRING_SCHEMA_A, "test", STRING_SCHEMA_B
    )


def test_check_maybe_compatible_with_avro_enum_schema() -> None:
    # storage-common SchemaProjectorTest.testCheckMaybeCompatibleWithAvroEnumSchema
    assert "Schema parameters mismatch. Source parameter: " in fails(
        ENUM_SCHEMA_B, "RED", ENUM_SCHEMA_A
    )
    assert project(ENUM_SCHEMA_A2, "RED", ENUM_SCHEMA_A) == "RED"


def test_check_maybe_compatible_with_protobuf_enum_schema() -> None:
    # storage-common SchemaProjectorTest.testCheckMaybeCompatibleWithProtobufEnumSchema
    assert "is not a subset of target parameters" in fails(ENUM_SCHEMA_D, "RED", ENUM_SCHEMA_C)
    assert project(ENUM_SCHEMA_C2, "RED", ENUM_SCHEMA_C) == "RED"


def _int_test(parameters: dict[str, str] | None = None) -> ConnectSchema:
    return s(INT32, name="test", parameters=parameters or {})


def test_connect_record_doc_parameter_ignored() -> None:
    # storage-common SchemaProjectorTest.testConnectRecordDocParameterIgnored
    source = _int_test({"connect.record.doc": "source doc"})
    target = _int_test({"connect.record.doc": "target doc"})
    assert project(source, 42, target) == 42


def test_connect_record_aliases_parameter_ignored() -> None:
    # storage-common SchemaProjectorTest.testConnectRecordAliasesParameterIgnored
    source = _int_test({"connect.record.aliases": "alias1,alias2"})
    target = _int_test({"connect.record.aliases": "alias3,alias4"})
    assert project(source, 42, target) == 42


def test_connect_record_namespace_parameter_ignored() -> None:
    # storage-common SchemaProjectorTest.testConnectRecordNamespaceParameterIgnored
    source = _int_test({"connect.record.namespace": "com.example.source"})
    target = _int_test({"connect.record.namespace": "com.example.target"})
    assert project(source, 42, target) == 42


def test_all_connect_record_metadata_parameters_ignored() -> None:
    # storage-common SchemaProjectorTest.testAllConnectRecordMetadataParametersIgnored
    source = _int_test({
        "connect.record.doc": "source doc", "connect.record.aliases": "alias1",
        "connect.record.namespace": "com.source",
    })  # fmt: skip
    target = _int_test({
        "connect.record.doc": "target doc", "connect.record.aliases": "alias2",
        "connect.record.namespace": "com.target",
    })  # fmt: skip
    assert project(source, 42, target) == 42


def test_confluent_avro_field_doc_parameters_ignored() -> None:
    # storage-common SchemaProjectorTest.testConfluentAvroFieldDocParametersIgnored
    doc = "io.confluent.connect.avro.field.doc."
    source = _int_test({f"{doc}innerField1": "blah"})
    target = _int_test({f"{doc}innerField1": "blah", f"{doc}innerField2": "blah"})
    assert project(source, 42, target) == 42


def test_functional_parameters_still_checked() -> None:
    # storage-common SchemaProjectorTest.testFunctionalParametersStillChecked
    source_decimal = s(BYTES, name=DECIMAL, parameters={"connect.decimal.scale": "2"})
    target_decimal = s(BYTES, name=DECIMAL, parameters={"connect.decimal.scale": "3"})
    assert "Schema parameters not equal. source parameters: " in fails(
        source_decimal, bytes([1, 2]), target_decimal
    )


def test_non_metadata_parameters_still_cause_failures() -> None:
    # storage-common SchemaProjectorTest.testNonMetadataParametersStillCauseFailures
    source = _int_test({"connect.record.doc": "source doc", "important.param": "value1"})
    target = _int_test({"connect.record.doc": "target doc", "important.param": "value2"})
    assert "Schema parameters not equal" in fails(source, 42, target)


def test_metadata_parameters_in_nested_schemas() -> None:
    # storage-common SchemaProjectorTest.testMetadataParametersInNestedSchemas
    inner_source = struct(
        ("field", s(INT32)), name="Inner", parameters={"connect.record.doc": "source inner doc"}
    )
    inner_target = struct(
        ("field", s(INT32)), name="Inner", parameters={"connect.record.doc": "target inner doc"}
    )
    source, target = struct(("nested", inner_source)), struct(("nested", inner_target))
    assert project(source, {"nested": {"field": 42}}, target)["nested"]["field"] == 42


def test_metadata_parameters_in_array_schemas() -> None:
    # storage-common SchemaProjectorTest.testMetadataParametersInArraySchemas
    source = array(s(INT32, parameters={"connect.record.doc": "source doc"}))
    target = array(s(INT32, parameters={"connect.record.doc": "target doc"}))
    assert project(source, [1, 2, 3], target) == [1, 2, 3]


def test_empty_parameters_handled() -> None:
    # storage-common SchemaProjectorTest.testEmptyParametersHandled
    assert project(_int_test({}), 42, _int_test({})) == 42


def test_metadata_parameter_present_in_source_but_not_target() -> None:
    # storage-common SchemaProjectorTest.testMetadataParameterPresentInSourceButNotTarget
    assert project(_int_test({"connect.record.doc": "some doc"}), 42, _int_test()) == 42


def test_metadata_parameter_present_in_target_but_not_source() -> None:
    # storage-common SchemaProjectorTest.testMetadataParameterPresentInTargetButNotSource
    assert project(_int_test(), 42, _int_test({"connect.record.doc": "some doc"})) == 42
