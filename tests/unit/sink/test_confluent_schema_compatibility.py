"""Confluent's ``StorageSchemaCompatibilityTest`` (kafka-connect-storage-common,
``core/src/test/java/io/confluent/connect/storage/schema``), test by test.

``assertChanged``/``assertUnchanged`` call ``validateAndCheck`` (our
:func:`schema_incompatibility`, Java's ``check``) and, here, also the :class:`Rotator`: a file
of the current schema, then a record of the record's schema, which rotates (changed) or joins the
file with its value projected onto the current schema (unchanged; Java's ``assertProjectable``).
"""

from __future__ import annotations

from typing import Any

import pytest

from s3connect.connect.projection import project_record, project_value
from s3connect.connect.records import SinkRecord
from s3connect.connect.schema import ConnectSchema, Field, Type
from s3connect.errors import SchemaProjectionError
from s3connect.sink.context import schema_key
from s3connect.sink.rotation import (
    Commit,
    FileInfo,
    RotationPolicy,
    RotationReason,
    Rotator,
    SchemaCompatibility,
    SchemaIncompatibility,
    schema_incompatibility,
)

none = SchemaCompatibility.NONE
backward = SchemaCompatibility.BACKWARD
forward = SchemaCompatibility.FORWARD
full = SchemaCompatibility.FULL

diffSchema = SchemaIncompatibility.DIFFERENT_SCHEMA  # Java's names
diffType = SchemaIncompatibility.DIFFERENT_TYPE
diffName = SchemaIncompatibility.DIFFERENT_NAME
diffParams = SchemaIncompatibility.DIFFERENT_PARAMS
diffVersion = SchemaIncompatibility.DIFFERENT_VERSION
missingRequired = SchemaIncompatibility.MISSING_REQUIRED_FIELD
incompatOptional = SchemaIncompatibility.INCOMPATIBLE_OPTIONALITY

AVRO_TYPE_ENUM = "io.confluent.connect.avro.Enum"  # AvroData.AVRO_TYPE_ENUM
PROTOBUF_TYPE_ENUM = "io.confluent.connect.protobuf.Enum"  # ProtobufData.PROTOBUF_TYPE_ENUM
COLOR, INNER, RED, GREEN, BLUE = "color", "inner", "RED", "GREEN", "BLUE"

STRING = ConnectSchema(Type.STRING)
OPTIONAL_STRING = ConnectSchema(Type.STRING, optional=True)
INT32 = ConnectSchema(Type.INT32)
BOOLEAN = ConnectSchema(Type.BOOLEAN)
FLOAT64 = ConnectSchema(Type.FLOAT64)


def s(t: Type, **kw: Any) -> ConnectSchema:
    return ConnectSchema(t, **kw)


def struct(*fields: tuple[str, ConnectSchema], **kw: Any) -> ConnectSchema:
    return ConnectSchema(Type.STRUCT, fields=tuple(Field(n, f) for n, f in fields), **kw)


def enum(marker: str, name: str, version: int, *values: str) -> ConnectSchema:
    """``buildAvroEnumSchema``/``buildProtobufEnumSchema``: a STRING, its symbols parameters."""
    params = {marker: name} | {f"{marker}.{v}": v for v in values}
    return s(Type.STRING, name=name, version=version, parameters=params)


def avro_enum(name: str, version: int, *values: str) -> ConnectSchema:
    return enum(AVRO_TYPE_ENUM, name, version, *values)


def protobuf_enum(name: str, version: int, *values: str) -> ConnectSchema:
    return enum(PROTOBUF_TYPE_ENUM, name, version, *values)


# ---- Schemas for nested-schema compatibility tests (the Java constants) ----

STRUCT_WITH_AVRO_ENUM_BLUE = struct(
    ("label", STRING), (COLOR, avro_enum(COLOR, 1, RED, GREEN, BLUE)), name="sr", version=1
)
STRUCT_WITH_AVRO_ENUM_NO_BLUE = struct(
    ("label", STRING), (COLOR, avro_enum(COLOR, 1, RED, GREEN)), name="sr", version=1
)
STRUCT_WITH_PROTOBUF_ENUM_BLUE = struct(
    (COLOR, protobuf_enum(COLOR, 1, RED, GREEN, BLUE)), name="sr", version=1
)
STRUCT_WITH_PROTOBUF_ENUM_NO_BLUE = struct(
    (COLOR, protobuf_enum(COLOR, 1, RED, GREEN)), name="sr", version=1
)
DEEPLY_NESTED_WITH_AVRO_ENUM_BLUE = struct(
    (INNER, struct((COLOR, avro_enum(COLOR, 1, RED, GREEN, BLUE)), name=INNER)),
    name="outer",
    version=1,
)
DEEPLY_NESTED_WITH_AVRO_ENUM_NO_BLUE = struct(
    (INNER, struct((COLOR, avro_enum(COLOR, 1, RED, GREEN)), name=INNER)),
    name="outer",
    version=1,
)
STRUCT_WITH_INT_FIELD = struct(("count", INT32), name="s1", version=1)
STRUCT_WITH_STRING_FIELD = struct(("count", STRING), name="s1", version=1)
STRUCT_WITH_FIELD_DOC_PARAM = struct(
    (
        "name",
        s(Type.STRING, parameters={"io.confluent.connect.avro.field.doc.name": "The entity name"}),
    ),
    name="s1",
    version=1,
)
STRUCT_WITHOUT_FIELD_DOC_PARAM = struct(("name", STRING), name="s1", version=1)
ARRAY_OF_STRUCT_WITH_AVRO_ENUM_BLUE = s(
    Type.ARRAY,
    value_schema=struct((COLOR, avro_enum(COLOR, 1, RED, GREEN, BLUE)), name="elem"),
    name="arr",
    version=1,
)
ARRAY_OF_STRUCT_WITH_AVRO_ENUM_NO_BLUE = s(
    Type.ARRAY,
    value_schema=struct((COLOR, avro_enum(COLOR, 1, RED, GREEN)), name="elem"),
    name="arr",
    version=1,
)
MAP_WITH_AVRO_ENUM_VALUE_BLUE = s(
    Type.MAP,
    key_schema=STRING,
    value_schema=struct((COLOR, avro_enum(COLOR, 1, RED, GREEN, BLUE)), name="val"),
    name="m",
    version=1,
)
MAP_WITH_AVRO_ENUM_VALUE_NO_BLUE = s(
    Type.MAP,
    key_schema=STRING,
    value_schema=struct((COLOR, avro_enum(COLOR, 1, RED, GREEN)), name="val"),
    name="m",
    version=1,
)


def build_int_schema(name: str, version: int, **kw: Any) -> ConnectSchema:
    return s(Type.INT32, name=name, version=version, **kw)


SCHEMA_A = build_int_schema("a", 2)
SCHEMA_A_COPY = build_int_schema("a", 2)
SCHEMA_A_RENAMED = build_int_schema("b", 2)
SCHEMA_A_OPTIONAL = build_int_schema("a", 2, optional=True)
SCHEMA_A_OLDER_VERSION = build_int_schema("a", 1)
SCHEMA_A_NEWER_VERSION = build_int_schema("a", 3)
SCHEMA_A_PARAMETERED = build_int_schema("a", 2, parameters={"x": "y"})
SCHEMA_A_RETYPED = s(Type.STRING, name="a", version=1)
SCHEMA_A_WITH_DOC = build_int_schema("a", 2, doc="doc")


def build_struct_schema(
    name: str, version: int, *extra: tuple[str, ConnectSchema], **kw: Any
) -> ConnectSchema:
    return struct(
        ("b", BOOLEAN),
        ("i", INT32),
        ("d", FLOAT64),
        ("s", OPTIONAL_STRING),
        ("x", struct(("inner1", BOOLEAN))),
        *extra,
        name=name,
        version=version,
        **kw,
    )


SCHEMA_B = build_struct_schema("b", 2)
SCHEMA_B_COPY = build_struct_schema("b", 2)
SCHEMA_B_RENAMED = build_struct_schema("c", 2)
SCHEMA_B_OPTIONAL = build_struct_schema("b", 2, optional=True)
SCHEMA_B_OLDER_VERSION = build_struct_schema("b", 1)
SCHEMA_B_NEWER_VERSION = build_struct_schema("b", 3)
SCHEMA_B_PARAMETERED = build_struct_schema("b", 2, parameters={"x": "y"})
SCHEMA_B_RETYPED = s(Type.STRING, name="b", version=2)
SCHEMA_B_WITH_DOC = build_struct_schema("b", 2, doc="doc")
SCHEMA_B_EXTRA_REQUIRED_FIELD = build_struct_schema("b", 2, ("extra", STRING))
SCHEMA_B_EXTRA_OPTIONAL_FIELD = build_struct_schema("b", 2, ("extra", OPTIONAL_STRING))
SCHEMA_B_EXTRA_REQUIRED_WITH_DEFAULT = build_struct_schema(
    "b", 2, ("extra", s(Type.STRING, default="fallback"))
)
ENUM_SCHEMA_A = avro_enum("e1", 1, RED, GREEN, BLUE)
ENUM_SCHEMA_B = avro_enum("e1", 1, RED, GREEN)
ENUM_SCHEMA_C = protobuf_enum("e1", 1, RED, GREEN, BLUE)
ENUM_SCHEMA_D = protobuf_enum("e1", 1, RED, GREEN)


def value_for(schema: ConnectSchema) -> Any:
    """``valueFor``: a value of each type (a struct's fields recursively)."""
    if schema.type is Type.STRUCT:
        return {f.name: value_for(f.schema) for f in schema.fields}
    return {
        Type.INT8: 100, Type.INT16: 100, Type.INT32: 100, Type.INT64: 100,
        Type.FLOAT32: 101.1, Type.FLOAT64: 101.2, Type.ARRAY: [], Type.MAP: {},
        Type.BOOLEAN: True, Type.BYTES: b"hello", Type.STRING: "hello",
    }[schema.type]  # fmt: skip


def _record(offset: int, schema: ConnectSchema, value: Any) -> SinkRecord:
    return SinkRecord("topic", 0, offset, None, None, value, None, schema)


def _through_rotator(
    mode: SchemaCompatibility, record_schema: ConnectSchema, current_schema: ConnectSchema,
    value: Any = None,
) -> tuple[list[Commit], SinkRecord]:  # fmt: skip
    """A file of ``current_schema``, then a record of ``record_schema``: the commits it causes
    and the record as written (projected when it joins a file of another schema)."""
    rot = Rotator(RotationPolicy(flush_size=100, schema_compatibility=mode))
    first = _record(0, current_schema, value_for(current_schema))
    assert rot.offer(0, "p", schema_key=schema_key(first), schema=current_schema) == []
    record = _record(1, record_schema, value_for(record_schema) if value is None else value)
    written = [record]

    def project(target: ConnectSchema) -> None:
        written[0] = project_record(record, target)

    commits = rot.offer(
        1, "p", schema_key=schema_key(record), schema=record_schema, project=project
    )
    return commits, written[0]


def assert_unchanged(
    mode: SchemaCompatibility, record_schema: ConnectSchema, current_schema: ConnectSchema,
    value: Any = None,
) -> None:  # fmt: skip
    """``assertUnchanged``: compatible, and the record is projected onto the current schema."""
    assert schema_incompatibility(mode, record_schema, current_schema) is None
    commits, written = _through_rotator(mode, record_schema, current_schema, value)
    assert commits == []
    assert written.value_schema == current_schema


def assert_changed(
    mode: SchemaCompatibility, record_schema: ConnectSchema, current_schema: ConnectSchema,
    why: SchemaIncompatibility, value: Any = None,
) -> None:  # fmt: skip
    """``assertChanged``: incompatible for ``why``; the record rotates the file."""
    assert schema_incompatibility(mode, record_schema, current_schema) is why
    commits, written = _through_rotator(mode, record_schema, current_schema, value)
    assert commits == [Commit((FileInfo("p", 0, 0, 1),), RotationReason.SCHEMA_CHANGE, True, 1)]
    assert written.value_schema is record_schema  # a new file of its own schema


def test_should_change_schema_with_enum_addition_and_backward_compatibility() -> None:
    # StorageSchemaCompatibilityTest.testShouldChangeSchemaWithEnumAdditionAndBackwardCompatibility
    assert_changed(backward, ENUM_SCHEMA_A, ENUM_SCHEMA_B, diffParams, BLUE)
    assert_changed(backward, ENUM_SCHEMA_C, ENUM_SCHEMA_D, diffParams, BLUE)


def test_should_change_schema_with_enum_deletion_and_backward_compatibility() -> None:
    # StorageSchemaCompatibilityTest.testShouldChangeSchemaWithEnumDeletionAndBackwardCompatibility
    assert_unchanged(backward, ENUM_SCHEMA_B, ENUM_SCHEMA_A, RED)
    assert_unchanged(backward, ENUM_SCHEMA_D, ENUM_SCHEMA_C, RED)


def test_should_change_schema_with_enum_addition_and_forward_compatibility() -> None:
    # StorageSchemaCompatibilityTest.testShouldChangeSchemaWithEnumAdditionAndForwardCompatibility
    assert_changed(forward, ENUM_SCHEMA_A, ENUM_SCHEMA_B, diffParams, BLUE)
    assert_changed(forward, ENUM_SCHEMA_C, ENUM_SCHEMA_D, diffParams, BLUE)


def test_should_change_schema_with_enum_deletion_and_forward_compatibility() -> None:
    # StorageSchemaCompatibilityTest.testShouldChangeSchemaWithEnumDeletionAndForwardCompatibility
    assert_unchanged(forward, ENUM_SCHEMA_B, ENUM_SCHEMA_A, RED)
    assert_unchanged(forward, ENUM_SCHEMA_D, ENUM_SCHEMA_C, RED)


def test_project_schema_after_adding_enum_symbol() -> None:
    # StorageSchemaCompatibilityTest.testProjectSchemaAfterAddingEnumSymbol
    for source, target in ((ENUM_SCHEMA_A, ENUM_SCHEMA_B), (ENUM_SCHEMA_C, ENUM_SCHEMA_D)):
        with pytest.raises(SchemaProjectionError, match="is not a subset of target parameters"):
            project_value(source, GREEN, target, topic="t", partition=0, offset=0)


def test_none_compatibility_should_consider_same_versions_as_unchanged() -> None:
    # StorageSchemaCompatibilityTest.noneCompatibilityShouldConsiderSameVersionsAsUnchanged
    assert_unchanged(none, SCHEMA_A, SCHEMA_A_COPY)
    assert_unchanged(none, SCHEMA_B, SCHEMA_B_COPY)


def test_none_compatibility_should_consider_different_versions_as_changed() -> None:
    # StorageSchemaCompatibilityTest.noneCompatibilityShouldConsiderDifferentVersionsAsChanged
    assert_changed(none, SCHEMA_A, SCHEMA_A_NEWER_VERSION, diffSchema)
    assert_changed(none, SCHEMA_A, SCHEMA_A_OLDER_VERSION, diffSchema)
    assert_changed(none, SCHEMA_B, SCHEMA_B_OLDER_VERSION, diffSchema)
    assert_changed(none, SCHEMA_B, SCHEMA_B_PARAMETERED, diffSchema)


def test_none_compatibility_should_consider_any_differences_as_changed() -> None:
    # StorageSchemaCompatibilityTest.noneCompatibilityShouldConsiderAnyDifferencesAsChanged
    for other in (SCHEMA_A_RENAMED, SCHEMA_A_RETYPED, SCHEMA_A_PARAMETERED, SCHEMA_A_WITH_DOC,
                  SCHEMA_A_OPTIONAL):  # fmt: skip
        assert_changed(none, SCHEMA_A, other, diffSchema)
    for other in (SCHEMA_B_RENAMED, SCHEMA_B_RETYPED, SCHEMA_B_PARAMETERED, SCHEMA_B_WITH_DOC,
                  SCHEMA_B_OPTIONAL, SCHEMA_B_EXTRA_REQUIRED_FIELD,
                  SCHEMA_B_EXTRA_OPTIONAL_FIELD):  # fmt: skip
        assert_changed(none, SCHEMA_B, other, diffSchema)
    assert_unchanged(none, SCHEMA_A, SCHEMA_A)
    assert_unchanged(none, SCHEMA_A, SCHEMA_A_COPY)
    assert_unchanged(none, SCHEMA_B, SCHEMA_B)
    assert_unchanged(none, SCHEMA_B, SCHEMA_B_COPY)


def test_backward_compatibility_should_consider_older_schema_versions_as_changed() -> None:
    # StorageSchemaCompatibilityTest.backwardCompatibilityShouldConsiderOlderSchemaVersionsAsChanged
    assert_changed(backward, SCHEMA_A, SCHEMA_A_OLDER_VERSION, diffVersion)
    assert_changed(backward, SCHEMA_B, SCHEMA_B_OLDER_VERSION, diffVersion)


def test_backward_compatibility_should_consider_same_or_newer_schema_versions_as_unchanged() -> (
    None
):
    # StorageSchemaCompatibilityTest
    #     .backwardCompatibilityShouldConsiderSameOrNewerSchemaVersionsAsUnchanged
    assert_unchanged(backward, SCHEMA_A, SCHEMA_A_COPY)
    assert_unchanged(backward, SCHEMA_B, SCHEMA_B_COPY)
    assert_unchanged(backward, SCHEMA_A, SCHEMA_A_NEWER_VERSION)
    assert_unchanged(backward, SCHEMA_B, SCHEMA_B_NEWER_VERSION)


def test_forward_compatibility_should_consider_newer_schema_versions_as_changed() -> None:
    # StorageSchemaCompatibilityTest.forwardCompatibilityShouldConsiderNewerSchemaVersionsAsChanged
    assert_changed(forward, SCHEMA_A, SCHEMA_A_NEWER_VERSION, diffVersion)
    assert_changed(forward, SCHEMA_B, SCHEMA_B_NEWER_VERSION, diffVersion)


def test_forward_compatibility_should_consider_same_or_older_schema_versions_as_unchanged() -> None:
    # StorageSchemaCompatibilityTest
    #     .forwardCompatibilityShouldConsiderSameOrOlderSchemaVersionsAsUnchanged
    assert_unchanged(forward, SCHEMA_A, SCHEMA_A_COPY)
    assert_unchanged(forward, SCHEMA_B, SCHEMA_B_COPY)
    assert_unchanged(forward, SCHEMA_A, SCHEMA_A_OLDER_VERSION)
    assert_unchanged(forward, SCHEMA_B, SCHEMA_B_OLDER_VERSION)


def test_full_compatibility_should_consider_older_schema_versions_as_changed() -> None:
    # StorageSchemaCompatibilityTest.fullCompatibilityShouldConsiderOlderSchemaVersionsAsChanged
    assert_changed(full, SCHEMA_A, SCHEMA_A_OLDER_VERSION, diffVersion)
    assert_changed(full, SCHEMA_B, SCHEMA_B_OLDER_VERSION, diffVersion)


def test_full_compatibility_should_consider_same_or_newer_schema_versions_as_unchanged() -> None:
    # StorageSchemaCompatibilityTest
    #     .fullCompatibilityShouldConsiderSameOrNewerSchemaVersionsAsUnchanged
    assert_unchanged(full, SCHEMA_A, SCHEMA_A_COPY)
    assert_unchanged(full, SCHEMA_B, SCHEMA_B_COPY)
    assert_unchanged(full, SCHEMA_A, SCHEMA_A_NEWER_VERSION)
    assert_unchanged(full, SCHEMA_B, SCHEMA_B_NEWER_VERSION)


@pytest.mark.parametrize("mode", [none, backward, forward, full])
def test_all_compatibilities_should_consider_same_or_equal_schemas_as_unchanged(
    mode: SchemaCompatibility,
) -> None:
    # StorageSchemaCompatibilityTest.allCompatibilitiesShouldConsiderSameOrEqualSchemasAsUnchanged
    assert_unchanged(mode, SCHEMA_A, SCHEMA_A)
    assert_unchanged(mode, SCHEMA_A, SCHEMA_A_COPY)
    assert_unchanged(mode, SCHEMA_B, SCHEMA_B)
    assert_unchanged(mode, SCHEMA_B, SCHEMA_B_COPY)


def test_all_compatibilities_should_consider_different_schema_names_as_changed() -> None:
    # StorageSchemaCompatibilityTest.allCompatibilitiesShouldConsiderDifferentSchemaNamesAsChanged
    for schema, renamed in ((SCHEMA_A, SCHEMA_A_RENAMED), (SCHEMA_B, SCHEMA_B_RENAMED)):
        assert_changed(none, schema, renamed, diffSchema)
        assert_changed(backward, schema, renamed, diffName)
        assert_changed(forward, schema, renamed, diffName)
        assert_changed(full, schema, renamed, diffName)


def test_all_compatibilities_should_consider_different_schema_types_as_changed() -> None:
    # StorageSchemaCompatibilityTest.allCompatibilitiesShouldConsiderDifferentSchemaTypesAsChanged
    for schema, retyped in ((SCHEMA_A, SCHEMA_A_RETYPED), (SCHEMA_B, SCHEMA_B_RETYPED)):
        assert_changed(none, schema, retyped, diffSchema)
        assert_changed(backward, schema, retyped, diffType)
        assert_changed(forward, schema, retyped, diffType)
        assert_changed(full, schema, retyped, diffType)


def test_all_compatibilities_should_consider_different_schema_parameters_as_changed() -> None:
    # StorageSchemaCompatibilityTest
    #     .allCompatibilitiesShouldConsiderDifferentSchemaParametersAsChanged
    for schema, other in ((SCHEMA_A, SCHEMA_A_PARAMETERED), (SCHEMA_B, SCHEMA_B_PARAMETERED)):
        assert_changed(none, schema, other, diffSchema)
        assert_changed(backward, schema, other, diffParams)
        assert_changed(forward, schema, other, diffParams)
        assert_changed(full, schema, other, diffParams)


def test_backward_compatibility_should_consider_different_schema_docs_as_unchanged() -> None:
    # StorageSchemaCompatibilityTest
    #     .backwardCompatibilityShouldConsiderDifferentSchemaDocsAsUnchanged
    assert_unchanged(backward, SCHEMA_A, SCHEMA_A_WITH_DOC)
    assert_unchanged(backward, SCHEMA_B, SCHEMA_B_WITH_DOC)


def test_forward_compatibility_should_consider_different_schema_docs_as_unchanged() -> None:
    # StorageSchemaCompatibilityTest
    #     .forwardCompatibilityShouldConsiderDifferentSchemaDocsAsUnchanged
    assert_unchanged(forward, SCHEMA_A, SCHEMA_A_WITH_DOC)
    assert_unchanged(forward, SCHEMA_B, SCHEMA_B_WITH_DOC)


def test_full_compatibility_should_consider_different_schema_docs_as_unchanged() -> None:
    # StorageSchemaCompatibilityTest.fullCompatibilityShouldConsiderDifferentSchemaDocsAsUnchanged
    assert_unchanged(full, SCHEMA_A, SCHEMA_A_WITH_DOC)
    assert_unchanged(full, SCHEMA_B, SCHEMA_B_WITH_DOC)


def test_backward_compatibility_should_consider_different_schema_optionality_as_unchanged() -> None:
    # StorageSchemaCompatibilityTest
    #     .backwardCompatibilityShouldConsiderDifferentSchemaOptionalityAsUnchanged
    assert_unchanged(backward, SCHEMA_A, SCHEMA_A_OPTIONAL)
    assert_unchanged(backward, SCHEMA_B, SCHEMA_B_OPTIONAL)


def test_forward_compatibility_should_consider_different_schema_optionality_as_unchanged() -> None:
    # StorageSchemaCompatibilityTest
    #     .forwardCompatibilityShouldConsiderDifferentSchemaOptionalityAsUnchanged
    assert_unchanged(forward, SCHEMA_A, SCHEMA_A_OPTIONAL)
    assert_unchanged(forward, SCHEMA_B, SCHEMA_B_OPTIONAL)


def test_full_compatibility_should_consider_different_schema_optionality_as_unchanged() -> None:
    # StorageSchemaCompatibilityTest
    #     .fullCompatibilityShouldConsiderDifferentSchemaOptionalityAsUnchanged
    assert_unchanged(full, SCHEMA_A, SCHEMA_A_OPTIONAL)
    assert_unchanged(full, SCHEMA_B, SCHEMA_B_OPTIONAL)


def test_optional_to_required_without_default_should_trigger_rotation() -> None:
    # StorageSchemaCompatibilityTest.optionalToRequiredWithoutDefaultShouldTriggerRotation
    for mode in (backward, forward, full):
        assert_changed(mode, SCHEMA_A_OPTIONAL, SCHEMA_A, incompatOptional)
        assert_changed(mode, SCHEMA_B_OPTIONAL, SCHEMA_B, incompatOptional)


def test_optional_to_required_with_default_should_not_trigger_rotation() -> None:
    # StorageSchemaCompatibilityTest.optionalToRequiredWithDefaultShouldNotTriggerRotation
    optional_int = build_int_schema("a", 2, optional=True)
    required_int_with_default = build_int_schema("a", 2, default=0)
    for mode in (backward, forward, full):
        assert_unchanged(mode, optional_int, required_int_with_default)
    _, written = _through_rotator(full, optional_int, required_int_with_default)
    assert written.value == 100


def test_extra_required_field_with_default_should_not_trigger_rotation() -> None:
    # StorageSchemaCompatibilityTest.extraRequiredFieldWithDefaultShouldNotTriggerRotation
    for mode in (backward, forward, full):
        assert_unchanged(mode, SCHEMA_B, SCHEMA_B_EXTRA_REQUIRED_WITH_DEFAULT)
    _, written = _through_rotator(full, SCHEMA_B, SCHEMA_B_EXTRA_REQUIRED_WITH_DEFAULT)
    assert written.value == {
        "b": True, "i": 100, "d": 101.2, "s": "hello", "x": {"inner1": True}, "extra": "fallback",
    }  # fmt: skip


def test_backward_compatibility_should_consider_different_fields_as_unchanged() -> None:
    # StorageSchemaCompatibilityTest.backwardCompatibilityShouldConsiderDifferentFieldsAsUnchanged
    assert_unchanged(backward, SCHEMA_B, SCHEMA_B_EXTRA_OPTIONAL_FIELD)
    assert_unchanged(backward, SCHEMA_B_EXTRA_OPTIONAL_FIELD, SCHEMA_B)
    assert_unchanged(backward, SCHEMA_B_EXTRA_REQUIRED_FIELD, SCHEMA_B)


def test_forward_compatibility_should_consider_different_fields_as_unchanged() -> None:
    # StorageSchemaCompatibilityTest.forwardCompatibilityShouldConsiderDifferentFieldsAsUnchanged
    assert_unchanged(forward, SCHEMA_B, SCHEMA_B_EXTRA_OPTIONAL_FIELD)
    assert_unchanged(forward, SCHEMA_B_EXTRA_OPTIONAL_FIELD, SCHEMA_B)
    assert_unchanged(forward, SCHEMA_B_EXTRA_REQUIRED_FIELD, SCHEMA_B)


def test_full_compatibility_should_consider_different_fields_as_unchanged() -> None:
    # StorageSchemaCompatibilityTest.fullCompatibilityShouldConsiderDifferentFieldsAsUnchanged
    assert_unchanged(full, SCHEMA_B, SCHEMA_B_EXTRA_OPTIONAL_FIELD)
    assert_unchanged(full, SCHEMA_B_EXTRA_OPTIONAL_FIELD, SCHEMA_B)
    assert_unchanged(full, SCHEMA_B_EXTRA_REQUIRED_FIELD, SCHEMA_B)


def test_all_compatibilities_should_consider_extra_required_fields_as_changed() -> None:
    # StorageSchemaCompatibilityTest.allCompatibilitiesShouldConsiderExtraRequiredFieldsAsChanged
    for mode in (backward, forward, full):
        assert_changed(mode, SCHEMA_B, SCHEMA_B_EXTRA_REQUIRED_FIELD, missingRequired)


def test_nested_avro_enum_addition_in_struct_should_trigger_rotation() -> None:
    # StorageSchemaCompatibilityTest.nestedAvroEnumAdditionInStructShouldTriggerRotation
    for mode in (backward, forward, full):
        assert_changed(mode, STRUCT_WITH_AVRO_ENUM_BLUE, STRUCT_WITH_AVRO_ENUM_NO_BLUE, diffParams)


def test_nested_protobuf_enum_addition_in_struct_should_trigger_rotation() -> None:
    # StorageSchemaCompatibilityTest.nestedProtobufEnumAdditionInStructShouldTriggerRotation
    for mode in (backward, forward, full):
        assert_changed(
            mode, STRUCT_WITH_PROTOBUF_ENUM_BLUE, STRUCT_WITH_PROTOBUF_ENUM_NO_BLUE, diffParams
        )


def test_nested_enum_deletion_in_struct_should_not_trigger_rotation() -> None:
    # StorageSchemaCompatibilityTest.nestedEnumDeletionInStructShouldNotTriggerRotation
    for mode in (backward, forward, full):
        assert_unchanged(mode, STRUCT_WITH_AVRO_ENUM_NO_BLUE, STRUCT_WITH_AVRO_ENUM_BLUE)
        assert_unchanged(mode, STRUCT_WITH_PROTOBUF_ENUM_NO_BLUE, STRUCT_WITH_PROTOBUF_ENUM_BLUE)


def test_deeply_nested_avro_enum_addition_should_trigger_rotation() -> None:
    # StorageSchemaCompatibilityTest.deeplyNestedAvroEnumAdditionShouldTriggerRotation
    for mode in (backward, forward, full):
        assert_changed(
            mode, DEEPLY_NESTED_WITH_AVRO_ENUM_BLUE, DEEPLY_NESTED_WITH_AVRO_ENUM_NO_BLUE,
            diffParams,
        )  # fmt: skip


def test_nested_field_type_change_should_trigger_rotation() -> None:
    # StorageSchemaCompatibilityTest.nestedFieldTypeChangeShouldTriggerRotation
    for mode in (backward, forward, full):
        assert_changed(mode, STRUCT_WITH_STRING_FIELD, STRUCT_WITH_INT_FIELD, diffType)
    assert_changed(backward, STRUCT_WITH_INT_FIELD, STRUCT_WITH_STRING_FIELD, diffType)


def test_array_with_nested_enum_addition_should_trigger_rotation() -> None:
    # StorageSchemaCompatibilityTest.arrayWithNestedEnumAdditionShouldTriggerRotation
    for mode in (backward, forward, full):
        assert_changed(
            mode, ARRAY_OF_STRUCT_WITH_AVRO_ENUM_BLUE, ARRAY_OF_STRUCT_WITH_AVRO_ENUM_NO_BLUE,
            diffParams,
        )  # fmt: skip


def test_map_with_nested_enum_addition_should_trigger_rotation() -> None:
    # StorageSchemaCompatibilityTest.mapWithNestedEnumAdditionShouldTriggerRotation
    for mode in (backward, forward, full):
        assert_changed(
            mode, MAP_WITH_AVRO_ENUM_VALUE_BLUE, MAP_WITH_AVRO_ENUM_VALUE_NO_BLUE, diffParams
        )


def test_nested_field_doc_param_should_not_trigger_rotation() -> None:
    # StorageSchemaCompatibilityTest.nestedFieldDocParamShouldNotTriggerRotation
    for mode in (backward, forward, full):
        assert_unchanged(mode, STRUCT_WITH_FIELD_DOC_PARAM, STRUCT_WITHOUT_FIELD_DOC_PARAM)
        assert_unchanged(mode, STRUCT_WITHOUT_FIELD_DOC_PARAM, STRUCT_WITH_FIELD_DOC_PARAM)


def test_none_compatibility_should_use_schema_equals_for_nested_schemas() -> None:
    # StorageSchemaCompatibilityTest.noneCompatibilityShouldUseSchemaEqualsForNestedSchemas
    assert_unchanged(none, STRUCT_WITH_AVRO_ENUM_BLUE, STRUCT_WITH_AVRO_ENUM_BLUE)
    assert_changed(none, STRUCT_WITH_AVRO_ENUM_BLUE, STRUCT_WITH_AVRO_ENUM_NO_BLUE, diffSchema)
    assert_changed(none, STRUCT_WITH_INT_FIELD, STRUCT_WITH_STRING_FIELD, diffSchema)
    assert_changed(none, STRUCT_WITH_FIELD_DOC_PARAM, STRUCT_WITHOUT_FIELD_DOC_PARAM, diffSchema)
    assert_changed(
        none, DEEPLY_NESTED_WITH_AVRO_ENUM_BLUE, DEEPLY_NESTED_WITH_AVRO_ENUM_NO_BLUE, diffSchema
    )


@pytest.mark.parametrize("mode", [backward, forward, full])
def test_validate_and_check_requires_versions(mode: SchemaCompatibility) -> None:
    # StorageSchemaCompatibility.validateAndCheck (no Java test of its own): a version missing on
    # either side fails BACKWARD, FORWARD and FULL ("Schema version required for ..."), the same
    # schema object never does; NONE needs no version.
    unversioned = s(Type.INT32, name="a")
    with pytest.raises(ValueError, match=f"Schema version required for {mode} compatibility"):
        schema_incompatibility(mode, unversioned, SCHEMA_A)
    with pytest.raises(ValueError, match=f"Schema version required for {mode} compatibility"):
        schema_incompatibility(mode, SCHEMA_A, s(Type.INT32, name="a", optional=True))
    assert schema_incompatibility(mode, unversioned, unversioned) is None
    assert schema_incompatibility(none, unversioned, SCHEMA_A) is diffSchema


def test_none_parameters_in_another_order_are_the_same_schema() -> None:
    # NONE rotates when !originalSchema.equals(currentSchema); ConnectSchema.equals compares
    # parameters as maps, so their order (a struct's and a nested field's) changes nothing.
    def enum(*params: tuple[str, str]) -> ConnectSchema:
        color = ConnectSchema(Type.STRING, name="color", parameters=dict(params))
        return ConnectSchema(Type.STRUCT, name="r", fields=(Field("c", color),))

    blue_red = enum(("io.confluent.connect.avro.Enum", "color"), ("a", "BLUE"), ("b", "RED"))
    red_blue = enum(("b", "RED"), ("io.confluent.connect.avro.Enum", "color"), ("a", "BLUE"))
    other = enum(("b", "GREEN"), ("io.confluent.connect.avro.Enum", "color"), ("a", "BLUE"))
    assert schema_key(_record(0, blue_red, None)) == schema_key(_record(1, red_blue, None))
    assert schema_key(_record(0, blue_red, None)) != schema_key(_record(1, other, None))
    commits, _ = _through_rotator(none, red_blue, blue_red, {"c": "RED"})
    assert commits == []
    commits, _ = _through_rotator(none, other, blue_red, {"c": "RED"})
    assert [c.reason for c in commits] == [RotationReason.SCHEMA_CHANGE]
