"""AvroData's ``enhanced.avro.schema.support`` and ``allow.optional.map.keys`` (Connect -> Avro):
golden schema texts and datum bytes.

Each golden text is what Avro Java 1.12's ``Schema.toString()`` prints for the schema AvroData
builds (schema-registry 8.3.1, ``fromConnectSchema``: an enum from ``SchemaBuilder.enumeration``
with ``doc``/``defaultSymbol``/``symbols``, a map from ``SchemaBuilder.map()`` when
``allowOptionalMapKey``), and each golden hex is ``GenericDatumWriter``'s binary encoding of the
datum, both produced by running Avro Java on these schemas.
"""

from __future__ import annotations

import io
from typing import Any

import fastavro
import pytest

from s3connect.connect.schema import ConnectSchema, Field, Type
from s3connect.convert.avro_data import (
    AVRO_ENUM,
    AvroDataOptions,
    avro_schema,
    avro_schema_json,
    compile_to_avro,
    to_avro_value,
    to_connect_schema,
)

ENHANCED = AvroDataOptions(enhanced_schema_support=True)
OPTIONAL_KEYS = AvroDataOptions(allow_optional_map_keys=True)
DEFAULTS = AvroDataOptions()

# An Avro schema with an enum, as registered; AvroConverter (enhanced support off, the
# converters' default) reads it into Connect strings carrying the enum as parameters.
ORDER_AVRO = {
    "type": "record",
    "name": "Order",
    "namespace": "com.acme",
    "fields": [
        {"name": "id", "type": "int"},
        {
            "name": "color",
            "type": {
                "type": "enum",
                "name": "Color",
                "doc": "colors",
                "symbols": ["RED", "GREEN"],
                "default": "RED",
            },
        },
        {"name": "previous", "type": ["null", "Color"], "default": None},
    ],
}
ORDER = to_connect_schema(ORDER_AVRO)
COLOR_PARAMS = (
    '{"io.confluent.connect.avro.enum.doc.Color":"colors",'
    '"io.confluent.connect.avro.enum.default.Color":"RED",'
    '"io.confluent.connect.avro.Enum":"com.acme.Color",'
    '"io.confluent.connect.avro.Enum.RED":"RED","io.confluent.connect.avro.Enum.GREEN":"GREEN"}'
)
ORDER_VALUES = [
    {"id": 7, "color": "GREEN", "previous": None},
    {"id": 8, "color": "RED", "previous": "GREEN"},
]


def _bytes(schema: ConnectSchema, value: Any, options: AvroDataOptions) -> str:
    out = io.BytesIO()
    parsed = fastavro.parse_schema(avro_schema(schema, options))
    fastavro.schemaless_writer(out, parsed, to_avro_value(schema, value, options))
    compiled = io.BytesIO()
    fastavro.schemaless_writer(compiled, parsed, compile_to_avro(schema, options)(value))
    assert compiled.getvalue() == out.getvalue()
    return out.getvalue().hex()


def test_the_connect_schema_carries_the_enum_as_parameters() -> None:
    color = ORDER.field("color")
    assert color is not None
    assert color.schema.type is Type.STRING and color.schema.name == "com.acme.Color"
    assert color.schema.parameters[AVRO_ENUM] == "com.acme.Color"


def test_enhanced_support_writes_avro_enums() -> None:
    # The enum keeps its name, namespace, doc, symbols and default; Connect's metadata after
    # them; the optional field refers to it by name, with the enum's parameters as its own
    # connect.parameters (schema-registry 8.4's field-level parameters of a shared named type).
    assert avro_schema_json(ORDER, ENHANCED) == (
        '{"type":"record","name":"Order","namespace":"com.acme","fields":['
        '{"name":"id","type":"int"},'
        '{"name":"color","type":{"type":"enum","name":"Color","doc":"colors",'
        '"symbols":["RED","GREEN"],"default":"RED",'
        f'"connect.parameters":{COLOR_PARAMS},"connect.name":"com.acme.Color"}}}},'
        '{"name":"previous","type":["null","Color"],"default":null,'
        f'"connect.parameters":{COLOR_PARAMS}}}],'
        '"connect.name":"com.acme.Order"}'
    )
    # A symbol is its index: GREEN = 1 (zig-zag 02), RED = 0.
    assert [_bytes(ORDER, v, ENHANCED) for v in ORDER_VALUES] == ["0e0200", "10000202"]


def test_without_enhanced_support_enums_are_strings() -> None:
    string = (
        f'{{"type":"string","connect.parameters":{COLOR_PARAMS},"connect.name":"com.acme.Color"}}'
    )
    assert avro_schema_json(ORDER, DEFAULTS) == (
        '{"type":"record","name":"Order","namespace":"com.acme","fields":['
        f'{{"name":"id","type":"int"}},{{"name":"color","type":{string}}},'
        f'{{"name":"previous","type":["null",{string}],"default":null}}],'
        '"connect.name":"com.acme.Order"}'
    )
    assert [_bytes(ORDER, v, DEFAULTS) for v in ORDER_VALUES] == [
        "0e0a475245454e00",
        "1006524544020a475245454e",
    ]


def test_an_enum_member_of_a_union_is_chosen_by_name() -> None:
    # testEnumStringUnion: in ["null", "string", Color] a Color value takes the enum branch
    # (index 2), a string value the string branch, although both are Python strings.
    avro = {**ORDER_AVRO, "fields": [
        *ORDER_AVRO["fields"],  # type: ignore[misc]
        {"name": "either", "type": ["null", "string", "Color"], "default": None},
    ]}  # fmt: skip
    schema = to_connect_schema(avro)
    assert avro_schema_json(schema, ENHANCED).endswith(
        '{"name":"either","type":["null","string","Color"],"default":null}],'
        '"connect.name":"com.acme.Order"}'
    )
    as_enum = {"id": 8, "color": "RED", "previous": "GREEN",
               "either": {"string": None, "Color": "GREEN"}}  # fmt: skip
    as_string = {"id": 9, "color": "RED", "previous": None,
                 "either": {"string": "GREEN", "Color": None}}  # fmt: skip
    assert _bytes(schema, as_enum, ENHANCED) == "100002020402"
    assert _bytes(schema, as_string, ENHANCED) == "120000020a475245454e"


def test_an_unnamed_enum_uses_up_a_connect_default_name() -> None:
    # getNameOrDefault is called for the enum (its short name finds doc and default), so the
    # next unnamed struct is ConnectDefault3; an enum name without a namespace inside a
    # namespaced record is written with "namespace":"".
    enum = ConnectSchema(
        Type.STRING, parameters={AVRO_ENUM: "E", f"{AVRO_ENUM}.A": "A", f"{AVRO_ENUM}.B": "B"}
    )
    inner = ConnectSchema(Type.STRUCT, fields=(Field("x", ConnectSchema(Type.INT32)),))
    schema = ConnectSchema(Type.STRUCT, fields=(Field("e", enum), Field("s", inner)))
    params = (
        '"connect.parameters":{"io.confluent.connect.avro.Enum":"E",'
        '"io.confluent.connect.avro.Enum.A":"A","io.confluent.connect.avro.Enum.B":"B"}'
    )
    head = '{"type":"record","name":"ConnectDefault","namespace":"io.confluent.connect.avro",'
    assert avro_schema_json(schema, ENHANCED) == (
        f'{head}"fields":[{{"name":"e","type":{{"type":"enum","name":"E","namespace":"",'
        f'"symbols":["A","B"],{params}}}}},{{"name":"s","type":{{"type":"record",'
        '"name":"ConnectDefault3","fields":[{"name":"x","type":"int"}]}}]}'
    )
    assert avro_schema_json(schema, DEFAULTS) == (
        f'{head}"fields":[{{"name":"e","type":{{"type":"string",{params}}}}},'
        '{"name":"s","type":{"type":"record","name":"ConnectDefault2",'
        '"fields":[{"name":"x","type":"int"}]}}]}'
    )
    value = {"e": "B", "s": {"x": 3}}
    assert (_bytes(schema, value, ENHANCED), _bytes(schema, value, DEFAULTS)) == (
        "0206",
        "024206",
    )


def test_a_value_that_is_not_a_symbol_fails() -> None:
    with pytest.raises(ValueError):
        _bytes(ORDER, {"id": 1, "color": "BLUE", "previous": None}, ENHANCED)


# --------------------------------------------------------------------------- optional map keys

OPTIONAL_STRING = ConnectSchema(Type.STRING, optional=True)
INT32 = ConnectSchema(Type.INT32)
MAPS = ConnectSchema(
    Type.STRUCT,
    fields=(
        Field("m", ConnectSchema(Type.MAP, key_schema=OPTIONAL_STRING, value_schema=INT32)),
        Field(
            "om",
            ConnectSchema(Type.MAP, optional=True, key_schema=OPTIONAL_STRING, value_schema=INT32),
        ),
    ),
)
MAP_VALUES = [{"m": {"a": 1, "b": 2}, "om": None}, {"m": {}, "om": {"x": 3}}]
_HEAD = '{"type":"record","name":"ConnectDefault","namespace":"io.confluent.connect.avro",'


def test_optional_string_keys_make_map_entry_arrays_by_default() -> None:
    # testFromConnectMapWithOptionalKey
    assert avro_schema_json(MAPS, DEFAULTS) == (
        f'{_HEAD}"fields":[{{"name":"m","type":{{"type":"array","items":{{"type":"record",'
        '"name":"MapEntry","fields":[{"name":"key","type":["null","string"],"default":null},'
        '{"name":"value","type":"int"}]}}},'
        '{"name":"om","type":["null",{"type":"array","items":"MapEntry"}],"default":null}]}'
    )
    assert [_bytes(MAPS, v, DEFAULTS) for v in MAP_VALUES] == [
        "0402026102020262040000",
        "0002020202780600",
    ]


def test_allow_optional_map_keys_makes_avro_maps() -> None:
    # testFromConnectMapWithAllowOptionalKey
    assert avro_schema_json(MAPS, OPTIONAL_KEYS) == (
        f'{_HEAD}"fields":[{{"name":"m","type":{{"type":"map","values":"int"}}}},'
        '{"name":"om","type":["null",{"type":"map","values":"int"}],"default":null}]}'
    )
    assert [_bytes(MAPS, v, OPTIONAL_KEYS) for v in MAP_VALUES] == [
        "040261020262040000",
        "00020202780600",
    ]
    with pytest.raises(ValueError, match="cannot hold a null key"):
        _bytes(MAPS, {"m": {None: 1}, "om": None}, OPTIONAL_KEYS)


def test_allow_optional_map_keys_makes_map_defaults_objects() -> None:
    keyed = ConnectSchema(
        Type.MAP, key_schema=OPTIONAL_STRING, value_schema=INT32, default={"a": 1}
    )
    schema = ConnectSchema(Type.STRUCT, fields=(Field("m", keyed),))
    assert avro_schema_json(schema, OPTIONAL_KEYS) == (
        f'{_HEAD}"fields":[{{"name":"m","type":{{"type":"map","values":"int",'
        '"connect.default":{"a":1}},"default":{"a":1}}]}'
    )
    assert '"connect.default":[["a",1]]},"default":[["a",1]]' in avro_schema_json(schema)


def test_non_string_keys_stay_map_entry_arrays() -> None:
    keyed = ConnectSchema(Type.MAP, key_schema=INT32, value_schema=INT32)
    assert avro_schema(keyed, OPTIONAL_KEYS)["type"] == "array"


def test_without_connect_meta_data_the_schema_has_no_connect_properties() -> None:
    # AvroData.fromConnectSchema: with connect.meta.data=false none of connect.doc, .version,
    # .parameters, .default, .name, .type; logical types stay (the helper's example).
    value = ConnectSchema(
        Type.STRUCT,
        name="com.x.V",
        version=2,
        fields=(
            Field("a", ConnectSchema(Type.INT8)),
            Field("at", ConnectSchema(Type.INT64, name="org.apache.kafka.connect.data.Timestamp")),
        ),
    )
    plain = AvroDataOptions(connect_meta_data=False)
    assert avro_schema_json(value, plain) == (
        '{"type":"record","name":"V","namespace":"com.x","fields":[{"name":"a","type":"int"},'
        '{"name":"at","type":{"type":"long","logicalType":"timestamp-millis"}}]}'
    )
    assert '"connect.version":2' in avro_schema_json(value, DEFAULTS)
    assert '"connect.type":"int8"' in avro_schema_json(value, DEFAULTS)
