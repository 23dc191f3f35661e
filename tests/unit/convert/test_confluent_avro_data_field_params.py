"""Confluent's ``AvroDataTest`` (schema-registry 794611bd, module avro-data): the
``testFieldLevelParams*`` round trips and ``testRecordDefaultAtFieldLevel``, one test per Java
test method.

A named type Avro writes again by name only (a second ``Address`` struct with other
parameters, such as ProtobufConverter's field tags) carries its parameters on the field, as
``connect.parameters``; reading applies them over the named type's. Skipped: the tests of
``scrub.invalid.names`` and of reading with ``connect.meta.data=false`` (settings our AvroData
does not have).
"""

from __future__ import annotations

from typing import Any

from s3connect.connect.schema import ConnectSchema, Type
from s3connect.convert.avro_data import AVRO_ENUM, FIELD_DEFAULT_FLAG, to_connect_schema
from tests.unit.convert.confluent_avro_help import DEFAULTS as _DEFAULTS
from tests.unit.convert.confluent_avro_help import (
    ENHANCED,
    INT32,
    OPT_INT32,
    OPT_STRING,
    STRING,
    array,
    from_connect_data,
    from_connect_schema,
    map_of,
    struct,
    to_connect_data,
)

TAG = "io.confluent.connect.protobuf.Tag"
TYPE = "io.confluent.connect.protobuf.Type"


def tagged(name: str, tag: str, *fields: tuple[str, ConnectSchema], **kw: Any) -> ConnectSchema:
    params = {TAG: tag, **kw.pop("params", {})}
    return struct(*fields, name=name, parameters=params, **kw)


def round_trip_schema(schema: ConnectSchema, options: Any = _DEFAULTS) -> ConnectSchema:
    """``toConnectSchema(fromConnectSchema(schema))``."""
    return to_connect_schema(from_connect_schema(schema, options))


def round_trip(schema: ConnectSchema, value: Any, options: Any = _DEFAULTS) -> Any:
    """``toConnectData(fromConnectSchema(schema), fromConnectData(schema, value))``."""
    avro = from_connect_schema(schema, options)
    back_schema, back_value = to_connect_data(avro, from_connect_data(schema, value, options))
    assert back_schema is not None
    return back_schema, back_value


def tag_of(schema: ConnectSchema, *path: str) -> str | None:
    for name in path:
        f = schema.field(name)
        assert f is not None
        schema = f.schema
    return schema.parameters.get(TAG)


def status(tag: str, *symbols: str) -> ConnectSchema:
    params = {TAG: tag, AVRO_ENUM: "Status"}
    params.update({f"{AVRO_ENUM}.{s}": str(i) for i, s in enumerate(symbols)})
    return ConnectSchema(Type.STRING, name="Status", parameters=params)


def test_record_default_at_field_level() -> None:
    settlement = {
        "name": "settlement",
        "type": "record",
        "fields": [
            {"default": "", "name": "time", "type": "string"},
            {"default": 0, "name": "cycle", "type": "int"},
            {"default": "", "name": "date", "type": "string"},
            {"default": "", "name": "priority", "type": "string"},
        ],
    }
    avro = {
        "name": "top",
        "type": "record",
        "fields": [{"default": {}, "name": "settlement", "type": settlement}],
    }
    assert from_connect_schema(to_connect_schema(avro)) is not None


def test_field_level_params_preserved_for_shared_named_type() -> None:
    fields = (("street", OPT_STRING), ("city", OPT_STRING))
    person = struct(
        ("name", OPT_STRING),
        ("home_addr", tagged("Address", "2", *fields)),
        ("work_addr", tagged("Address", "3", *fields)),
        name="Person",
    )
    back = round_trip_schema(person)
    assert tag_of(back, "home_addr") == "2"
    assert tag_of(back, "work_addr") == "3"


def test_field_level_params_shared_type_at_three_fields() -> None:
    company = struct(
        ("name", OPT_STRING),
        ("hq", tagged("Address", "2", ("line", OPT_STRING))),
        ("warehouse", tagged("Address", "3", ("line", OPT_STRING))),
        ("billing", tagged("Address", "4", ("line", OPT_STRING))),
        name="Company",
    )
    back = round_trip_schema(company)
    assert [tag_of(back, f) for f in ("hq", "warehouse", "billing")] == ["2", "3", "4"]


def test_field_level_params_nested_shared_type() -> None:
    customer = tagged(
        "Customer",
        "2",
        ("name", OPT_STRING),
        ("billing", tagged("Address", "2", ("city", OPT_STRING))),
        ("shipping", tagged("Address", "3", ("city", OPT_STRING))),
    )
    order = struct(("id", OPT_INT32), ("customer", customer), name="Order")
    back = round_trip_schema(order)
    assert tag_of(back, "customer", "billing") == "2"
    assert tag_of(back, "customer", "shipping") == "3"


def test_field_level_params_with_multiple_params() -> None:
    def address(tag: str) -> ConnectSchema:
        return tagged("Address", tag, ("street", OPT_STRING), params={TYPE: "MESSAGE"})

    parent = struct(("addr1", address("2")), ("addr2", address("3")), name="Parent")
    back = round_trip_schema(parent)
    for name, tag in (("addr1", "2"), ("addr2", "3")):
        f = back.field(name)
        assert f is not None
        assert f.schema.parameters[TAG] == tag
        assert f.schema.parameters[TYPE] == "MESSAGE"


def test_field_level_params_no_params_no_change() -> None:
    inner = struct(("value", OPT_STRING), name="Inner")
    outer = struct(("a", inner), ("b", inner), name="Outer")
    avro = from_connect_schema(outer)
    assert all("connect.parameters" not in f for f in avro["fields"])
    back = round_trip_schema(outer)
    for name in ("a", "b"):
        f = back.field(name)
        assert f is not None
        assert not f.schema.parameters


def _person() -> ConnectSchema:
    fields = (("street", OPT_STRING), ("city", OPT_STRING))
    return struct(
        ("name", OPT_STRING),
        ("home_addr", tagged("Address", "2", *fields)),
        ("work_addr", tagged("Address", "3", *fields)),
        name="Person",
    )


def test_field_level_params_data_round_trip() -> None:
    value = {
        "name": "Alice",
        "home_addr": {"street": "123 Home St", "city": "Hometown"},
        "work_addr": {"street": "456 Work Ave", "city": "Workville"},
    }
    back_schema, back_value = round_trip(_person(), value)
    assert tag_of(back_schema, "home_addr") == "2"
    assert tag_of(back_schema, "work_addr") == "3"
    assert back_value == value


def test_field_level_params_repeated_shared_type() -> None:
    container = struct(
        ("primary", tagged("Item", "2", ("name", OPT_STRING))),
        ("secondary", tagged("Item", "3", ("name", OPT_STRING))),
        name="Container",
    )
    primary, secondary = from_connect_schema(container)["fields"]
    assert "connect.parameters" not in primary
    assert secondary["connect.parameters"] == {TAG: "3"}
    assert secondary["type"] == "Item"
    back = round_trip_schema(container)
    assert (tag_of(back, "primary"), tag_of(back, "secondary")) == ("2", "3")


def test_field_level_params_complex_envelope_round_trip() -> None:
    priority = ConnectSchema(
        Type.STRING,
        parameters={
            "io.confluent.connect.protobuf.Enum": "Priority",
            "io.confluent.connect.protobuf.Enum.PRIORITY_LOW": "0",
            "io.confluent.connect.protobuf.Enum.PRIORITY_HIGH": "2",
        },
    )
    record = struct(
        ("id", OPT_INT32),
        ("name", OPT_STRING),
        ("active", ConnectSchema(Type.BOOLEAN, optional=True)),
        ("score", ConnectSchema(Type.FLOAT64, optional=True)),
        ("priority", priority),
        ("home_addr", tagged("Address", "14", ("city", OPT_STRING))),
        ("work_addr", tagged("Address", "15", ("city", OPT_STRING))),
        ("billing_addr", tagged("Address", "16", ("city", OPT_STRING))),
        ("tags", array(STRING, optional=True)),
        ("scores", map_of(STRING, INT32, optional=True)),
        ("nickname", OPT_STRING),
        name="MegaRecord",
    )
    value = {
        "id": 1,
        "name": "Alice",
        "active": True,
        "score": 98.5,
        "priority": "PRIORITY_HIGH",
        "home_addr": {"city": "SF"},
        "work_addr": {"city": "NYC"},
        "billing_addr": {"city": "London"},
        "tags": ["eng", "sr"],
        "scores": {"math": 95},
        "nickname": "Ali",
    }
    back_schema, back_value = round_trip(record, value)
    tags = [tag_of(back_schema, f) for f in ("home_addr", "work_addr", "billing_addr")]
    assert tags == ["14", "15", "16"]
    assert back_value == value


def _optional_addresses() -> tuple[ConnectSchema, ConnectSchema]:
    return (
        tagged("Address", "2", ("city", OPT_STRING), optional=True),
        tagged("Address", "3", ("city", OPT_STRING), optional=True),
    )


def test_field_level_params_shared_type_in_optional_field() -> None:
    home, work = _optional_addresses()
    parent = struct(("home", home), ("work", work), name="Parent")
    back_schema, back_value = round_trip(parent, {"home": {"city": "SF"}, "work": None})
    assert (tag_of(back_schema, "home"), tag_of(back_schema, "work")) == ("2", "3")
    assert back_value == {"home": {"city": "SF"}, "work": None}


def test_field_level_params_shared_type_in_array() -> None:
    tag2 = tagged("Address", "2", ("city", OPT_STRING))
    parent = struct(
        ("primary", tag2),
        ("secondary", tagged("Address", "3", ("city", OPT_STRING))),
        ("extras", array(tag2, optional=True)),
        name="Parent",
    )
    value = {
        "primary": {"city": "SF"},
        "secondary": {"city": "NYC"},
        "extras": [{"city": "A"}, {"city": "B"}],
    }
    back_schema, back_value = round_trip(parent, value)
    assert (tag_of(back_schema, "primary"), tag_of(back_schema, "secondary")) == ("2", "3")
    assert back_value == value


def test_field_level_params_shared_type_in_map_value() -> None:
    tag2 = tagged("Address", "2", ("city", OPT_STRING))
    parent = struct(
        ("primary", tag2),
        ("secondary", tagged("Address", "3", ("city", OPT_STRING))),
        ("lookup", map_of(STRING, tag2, optional=True)),
        name="Parent",
    )
    value = {
        "primary": {"city": "SF"},
        "secondary": {"city": "NYC"},
        "lookup": {"hq": {"city": "Austin"}},
    }
    back_schema, back_value = round_trip(parent, value)
    assert (tag_of(back_schema, "primary"), tag_of(back_schema, "secondary")) == ("2", "3")
    assert back_value["lookup"]["hq"] == {"city": "Austin"}


def test_field_level_params_shared_enum_type() -> None:
    symbols = ("UNKNOWN", "ACTIVE", "INACTIVE")
    parent = struct(
        ("id", INT32),
        ("primary_status", status("5", *symbols)),
        ("secondary_status", status("6", *symbols)),
        name="Order",
    )
    back = round_trip_schema(parent, ENHANCED)
    assert tag_of(back, "primary_status") == "5"
    assert tag_of(back, "secondary_status") == "6"


def test_field_level_params_strict_optional_null_round_trip() -> None:
    home, work = _optional_addresses()
    record = struct(
        ("home", home),
        ("work", work),
        ("status_a", status("5", "ON", "OFF")),
        ("status_b", status("6", "ON", "OFF")),
        ("name", OPT_STRING),
        name="NullTest",
    )
    value = {"home": None, "work": None, "status_a": "ON", "status_b": "OFF", "name": None}
    back_schema, back_value = round_trip(record, value, ENHANCED)
    tags = [tag_of(back_schema, f) for f in ("home", "work", "status_a", "status_b")]
    assert tags == ["2", "3", "5", "6"]
    assert back_value == value


def test_field_level_params_null_value_for_shared_type() -> None:
    home, work = _optional_addresses()
    parent = struct(("home", home), ("work", work), name="Parent")
    back_schema, back_value = round_trip(parent, {"home": None, "work": None})
    assert (tag_of(back_schema, "home"), tag_of(back_schema, "work")) == ("2", "3")
    assert back_value == {"home": None, "work": None}


def test_field_level_params_not_written_on_first_occurrence() -> None:
    parent = struct(
        ("home", tagged("Address", "2", ("street", STRING))),
        ("work", tagged("Address", "3", ("street", STRING))),
        name="Person",
    )
    home, work = from_connect_schema(parent)["fields"]
    assert "connect.parameters" not in home
    assert work["connect.parameters"] == {TAG: "3"}


def test_field_level_params_not_written_when_empty() -> None:
    internal = struct(("street", STRING), name="Address", parameters={FIELD_DEFAULT_FLAG: "true"})
    parent = struct(
        ("home", internal),
        ("work", tagged("Address", "3", ("street", STRING))),
        name="Person",
    )
    home, work = from_connect_schema(parent)["fields"]
    assert "connect.parameters" not in home
    assert work["connect.parameters"] == {TAG: "3"}


def test_field_level_params_strict_all_types_round_trip() -> None:
    symbols = ("UNKNOWN", "ACTIVE", "INACTIVE")
    city_zip = (("city", OPT_STRING), ("zip", OPT_STRING))
    addr10, addr11, addr12 = (
        tagged("Address", tag, *city_zip, optional=True) for tag in ("10", "11", "12")
    )
    meta = tagged(
        "Metadata",
        "20",
        ("source", OPT_STRING),
        ("ts", ConnectSchema(Type.INT64, optional=True)),
        optional=True,
    )

    def opt(t: Type) -> ConnectSchema:
        return ConnectSchema(t, optional=True)

    mega = struct(
        ("f_int32", OPT_INT32),
        ("f_int64", opt(Type.INT64)),
        ("f_float32", opt(Type.FLOAT32)),
        ("f_float64", opt(Type.FLOAT64)),
        ("f_bool", opt(Type.BOOLEAN)),
        ("f_string", OPT_STRING),
        ("f_bytes", opt(Type.BYTES)),
        ("primary_status", status("5", *symbols)),
        ("secondary_status", status("6", *symbols)),
        ("home_addr", addr10),
        ("work_addr", addr11),
        ("billing_addr", addr12),
        ("tags", array(STRING, optional=True)),
        ("scores_list", array(INT32, optional=True)),
        ("extra_addrs", array(addr10, optional=True)),
        ("scores_map", map_of(STRING, INT32, optional=True)),
        ("addr_lookup", map_of(STRING, addr10, optional=True)),
        ("nickname", OPT_STRING),
        ("age", OPT_INT32),
        ("meta", meta),
        name="MegaRecord",
    )
    value = {
        "f_int32": 42,
        "f_int64": 123456789,
        "f_float32": 3.140000104904175,  # Java's 3.14f
        "f_float64": 2.718281828,
        "f_bool": True,
        "f_string": "hello",
        "f_bytes": bytes([1, 2, 3]),
        "primary_status": "ACTIVE",
        "secondary_status": "INACTIVE",
        "home_addr": {"city": "SF", "zip": "94105"},
        "work_addr": {"city": "NYC", "zip": "10001"},
        "billing_addr": {"city": "London", "zip": "SW1A"},
        "tags": ["eng", "sr", "backend"],
        "scores_list": [95, 88, 72],
        "extra_addrs": [{"city": "Tokyo", "zip": "100"}, {"city": "Berlin", "zip": "10115"}],
        "scores_map": {"math": 95, "science": 88},
        "addr_lookup": {"hq": {"city": "Austin", "zip": "73301"}},
        "nickname": "Ali",
        "age": 30,
        "meta": {"source": "api", "ts": 1700000000},
    }
    back_schema, back_value = round_trip(mega, value, ENHANCED)
    tags = [
        tag_of(back_schema, f)
        for f in ("primary_status", "secondary_status", "home_addr", "work_addr", "billing_addr")
    ]
    assert tags == ["5", "6", "10", "11", "12"]
    assert back_value == value
