"""Partitioners and timestamp extractors; time buckets were checked against Joda 2.14."""

from __future__ import annotations

from datetime import UTC, datetime
from decimal import Decimal
from typing import Any
from urllib.parse import unquote

import pytest

from s3connect.connect.records import SinkRecord
from s3connect.connect.schema import ConnectSchema, Field, Type
from s3connect.errors import ConfigError, PartitionError
from s3connect.sink.partitioners import (
    DailyPartitioner,
    DefaultPartitioner,
    FieldPartitioner,
    HourlyPartitioner,
    RecordFieldTimestampExtractor,
    RecordTimestampExtractor,
    SchemaPartitioner,
    TimeBasedPartitioner,
    WallclockTimestampExtractor,
    encode_path_value,
)

TS = ConnectSchema(Type.INT64, name="org.apache.kafka.connect.data.Timestamp")
ADDRESS = ConnectSchema(
    Type.STRUCT,
    fields=(Field("country", ConnectSchema(Type.STRING)), Field("zip", ConnectSchema(Type.INT32))),
)
SCHEMA = ConnectSchema(
    Type.STRUCT,
    fields=(
        Field("region", ConnectSchema(Type.STRING, optional=True)),
        Field("shard", ConnectSchema(Type.INT16)),
        Field("active", ConnectSchema(Type.BOOLEAN)),
        Field("price", ConnectSchema(Type.FLOAT64)),
        Field("created", TS),
        Field("created_ms", ConnectSchema(Type.INT64)),
        Field("created_iso", ConnectSchema(Type.STRING)),
        Field("address", ADDRESS),
    ),
)


def struct_record(**overrides: Any) -> SinkRecord:
    value: dict[str, Any] = {
        "region": "eu-west",
        "shard": 7,
        "active": True,
        "price": 1.5,
        "created": datetime(2024, 3, 10, 7, 30, tzinfo=UTC),
        "created_ms": 1710055800000,
        "created_iso": "2024-03-10T03:30:00-04:00",
        "address": {"country": "DE", "zip": 10115},
    }
    value.update(overrides)
    return SinkRecord("orders", 2, 99, 1710052200000, None, value, value_schema=SCHEMA)


def map_record(value: Any, timestamp: int | None = 1710052200000) -> SinkRecord:
    return SinkRecord("clicks", 1, 5, timestamp, None, value)


def test_default_partitioner() -> None:
    p = DefaultPartitioner()
    assert p.encode_partition(struct_record(), 0) == "partition=2"
    assert p.partitioned_path("orders", "partition=2") == "orders/partition=2"
    assert DefaultPartitioner("_").partitioned_path("t", "partition=0") == "t_partition=0"


def test_field_partitioner_struct_multiple_and_nested() -> None:
    p = FieldPartitioner(["region", "shard", "active", "address.country", "address.zip"])
    assert p.encode_partition(struct_record(), 0) == (
        "region=eu-west/shard=7/active=true/address.country=DE/address.zip=10115"
    )
    assert FieldPartitioner(["shard", "region"], "_").encode_partition(struct_record(), 0) == (
        "shard=7_region=eu-west"
    )


def test_field_partitioner_struct_null_prints_null_like_confluent() -> None:
    assert FieldPartitioner(["region"]).encode_partition(struct_record(region=None), 0) == (
        "region=null"
    )


@pytest.mark.parametrize(
    ("field", "match"),
    [
        ("price", "Field 'price' of type double"),
        ("created", "Field 'created' of type int64 org.apache.kafka.connect.data.Timestamp"),
        ("address", "Field 'address' of type struct"),
        ("missing", "Field 'missing' is not present in the schema"),
        ("address.street", "Field 'address.street' is not present in the schema"),
    ],
)
def test_field_partitioner_struct_errors_name_field_and_record(field: str, match: str) -> None:
    with pytest.raises(PartitionError, match=match) as info:
        FieldPartitioner([field]).encode_partition(struct_record(), 0)
    assert "(topic='orders', partition=2, offset=99)" in str(info.value)
    assert (info.value.topic, info.value.partition, info.value.offset) == ("orders", 2, 99)
    # FieldPartitioner throws a DataException for a field the schema lacks, past the task's
    # errant-record reporting (it stops the task); a value it cannot encode is reportable.
    assert info.value.reportable is ("not present" not in match)


def test_field_partitioner_map_values() -> None:
    value = {
        "a": 1,
        "b": True,
        "c": 1.0e10,
        "d": 0.5,
        "e": Decimal("1.50"),
        "n": {"x.y": {"z": "deep"}},
    }
    p = FieldPartitioner(["a", "b", "c", "d", "e", 'n."x.y".z'])
    assert p.encode_partition(map_record(value), 0) == (
        'a=1/b=true/c=1.0E10/d=0.5/e=1.50/n."x.y".z=deep'
    )


@pytest.mark.parametrize(
    ("value", "match"),
    [
        ({"a": None}, "The nested field named 'a' does not exist"),
        ({"a": [1]}, "Field 'a' of type list"),
        ("text", "Value is not of Struct or Map type"),
        (None, "Value is not of Struct or Map type"),
    ],
)
def test_field_partitioner_map_errors(value: Any, match: str) -> None:
    with pytest.raises(PartitionError, match=match):
        FieldPartitioner(["a"]).encode_partition(map_record(value), 0)


def test_field_partitioner_requires_a_field() -> None:
    with pytest.raises(ConfigError, match=r"partition\.field\.name"):
        FieldPartitioner([" "])


@pytest.mark.parametrize(
    ("raw", "encoded"),
    [
        # raw, as Confluent writes them (a "/" makes one folder more)
        ("eu-west 1", "eu-west 1"),
        ("50%", "50%"),
        ("a/b", "a/b"),
        ("..", ".."),  # "field=..": no ".." segment
        ("../etc", "../etc"),
        ("a%2Fb", "a%2Fb"),
        ("é/ü", "é/ü"),
        ("us_east", "us_east"),
        # a "." or ".." segment, or a control character: percent-encoded
        ("a/../b", "a%2F..%2Fb"),
        ("x/.", "x%2F."),
        ("100%/..", "100%25%2F.."),
        ("tab\there", "tab%09here"),
    ],
)
def test_field_values_are_raw_unless_they_would_climb_out_of_their_folder(
    raw: str, encoded: str
) -> None:
    assert encode_path_value(raw) == encoded
    if encoded != raw:
        assert unquote(encoded) == raw


def test_unsafe_value_encoded_in_partition() -> None:
    p = FieldPartitioner(["region"])
    assert p.encode_partition(struct_record(region="../x"), 0) == "region=../x"
    assert p.encode_partition(struct_record(region="x/.."), 0) == "region=x%2F.."


def test_extractors() -> None:
    rec = struct_record()
    assert WallclockTimestampExtractor().extract(rec, 123) == 123
    assert RecordTimestampExtractor().extract(rec, 0) == 1710052200000
    with pytest.raises(PartitionError, match="Unable to determine timestamp"):
        RecordTimestampExtractor().extract(map_record({}, timestamp=None), 0)
    assert RecordFieldTimestampExtractor("created").extract(rec, 0) == 1710055800000
    assert RecordFieldTimestampExtractor("created_ms").extract(rec, 0) == 1710055800000
    assert RecordFieldTimestampExtractor("created_iso").extract(rec, 0) == 1710055800000


def test_record_field_extractor_maps_and_errors() -> None:
    ext = RecordFieldTimestampExtractor("meta.ts")
    assert ext.extract(map_record({"meta": {"ts": 1710055800000}}), 0) == 1710055800000
    assert ext.extract(map_record({"meta": {"ts": 1710055800000.9}}), 0) == 1710055800000
    assert ext.extract(map_record({"meta": {"ts": "2024-03-10T07:30Z"}}), 0) == 1710055800000
    with pytest.raises(PartitionError, match=r"record field: meta\.ts"):
        ext.extract(map_record({"meta": {"ts": True}}), 0)
    with pytest.raises(PartitionError, match=r"Cannot parse|Invalid format"):
        ext.extract(map_record({"meta": {"ts": "2024-02-30"}}), 0)
    # Joda's IllegalArgumentException message, as Confluent's (testInvalidStringTimeStructExtract)
    with pytest.raises(
        PartitionError, match=r'^Invalid format: "x" \(timestamp.field \'region\'\)'
    ):
        RecordFieldTimestampExtractor("region").extract(struct_record(region="x"), 0)
    with pytest.raises(PartitionError, match="record field: price"):
        RecordFieldTimestampExtractor("price").extract(struct_record(), 0)


def hourly(zone: str) -> HourlyPartitioner:
    return HourlyPartitioner("en", zone, RecordTimestampExtractor())


def at(ts: int) -> SinkRecord:
    return SinkRecord("t", 0, 0, ts, None, None)


def test_hourly_utc() -> None:
    p = hourly("UTC")
    assert p.path_format == "'year'=YYYY/'month'=MM/'day'=dd/'hour'=HH"
    assert p.encode_partition(at(1710052200123), 0) == "year=2024/month=03/day=10/hour=06"
    assert p.partitioned_path("t", "year=2024") == "t/year=2024"


@pytest.mark.parametrize(
    ("ts", "expected"),
    [
        (1710052200000, "year=2024/month=03/day=10/hour=01"),  # 06:30Z = 01:30 EST
        (1710055800000, "year=2024/month=03/day=10/hour=03"),  # 07:30Z = 03:30 EDT
        (1730611800000, "year=2024/month=11/day=03/hour=01"),  # 05:30Z = 01:30 EDT
        (1730615400000, "year=2024/month=11/day=03/hour=01"),  # 06:30Z = 01:30 EST, same bucket
        (1730619000000, "year=2024/month=11/day=03/hour=02"),  # 07:30Z = 02:30 EST
    ],
)
def test_hourly_new_york_across_dst(ts: int, expected: str) -> None:
    assert hourly("America/New_York").encode_partition(at(ts), 0) == expected


def test_one_trailing_delimiter_is_stripped_once() -> None:
    p = TimeBasedPartitioner("'y'=YYYY//", 3_600_000, "en", "UTC", RecordTimestampExtractor())
    assert p.encode_partition(at(1710055800000), 0) == "y=2024/"  # as Joda formats 'y'=YYYY/


def test_field_partitioner_nulls_of_any_type_and_repeated_fields() -> None:
    # testMultiPartitionWithNulls: a null prints "null" whatever the field's type; the fields
    # are the configured list as it is (no duplicates dropped).
    schema = ConnectSchema(
        Type.STRUCT,
        fields=(
            Field("b", ConnectSchema(Type.BOOLEAN, optional=True)),
            Field("f", ConnectSchema(Type.FLOAT64, optional=True)),
        ),
    )
    record = SinkRecord("orders", 2, 99, None, None, {"b": None, "f": None}, value_schema=schema)
    assert FieldPartitioner(["b", "f", "b"]).encode_partition(record, 0) == "b=null/f=null/b=null"


def test_record_field_numeric_strings_and_named_longs_are_epoch_millis() -> None:
    # extractTimestampFromString: whole digits are epoch millis ("2024" is 2024 ms, not a year);
    # an int64 field is read as a long whatever its schema's name (only Timestamp is special).
    extract = RecordFieldTimestampExtractor("ts").extract
    as_map = [SinkRecord("t", 0, 0, None, None, {"ts": v}) for v in ("1710054000000", "2024")]
    assert [extract(r, 0) for r in as_map] == [1710054000000, 2024]
    named = ConnectSchema(Type.INT64, name="io.debezium.time.Timestamp")
    schema = ConnectSchema(Type.STRUCT, fields=(Field("ts", named),))
    record = SinkRecord("t", 0, 0, None, None, {"ts": 1710054000000}, value_schema=schema)
    assert extract(record, 0) == 1710054000000


def test_two_hour_buckets_in_the_spring_gap_move_forward() -> None:
    p = TimeBasedPartitioner(
        "'hour'=HH/", 7_200_000, "en", "America/New_York", RecordTimestampExtractor()
    )
    assert p.path_format == "'hour'=HH"
    assert p.encode_partition(at(1710055800000), 0) == "hour=03"  # local 02:00 does not exist
    assert p.encode_partition(at(1730615400000), 0) == "hour=00"


@pytest.mark.parametrize(
    ("zone", "ts", "expected"),
    [
        ("Europe/Berlin", 1711841400000, "year=2024/month=03/day=31"),
        ("Europe/Berlin", 1711924200000, "year=2024/month=04/day=01"),
        ("Europe/Berlin", 1729981800000, "year=2024/month=10/day=27"),
        ("America/Santiago", 1725771600000, "year=2024/month=09/day=08"),  # midnight DST gap
        ("UTC", -43200000, "year=1970/month=01/day=01"),  # Java division truncates toward 0
    ],
)
def test_daily_buckets(zone: str, ts: int, expected: str) -> None:
    p = DailyPartitioner("en", zone, RecordTimestampExtractor())
    assert p.encode_partition(at(ts), 0) == expected


def test_time_based_with_record_field_and_wallclock() -> None:
    p = DailyPartitioner("en", "Europe/Berlin", RecordFieldTimestampExtractor("created_iso"))
    assert p.encode_partition(struct_record(), 0) == "year=2024/month=03/day=10"
    w = TimeBasedPartitioner(
        "'minute'=mm", 900_000, "en", "Asia/Kolkata", WallclockTimestampExtractor()
    )
    assert w.encode_partition(struct_record(), 1710053400000) == "minute=15"


def test_custom_delim_presets() -> None:
    p = HourlyPartitioner("en", "UTC", RecordTimestampExtractor(), directory_delim="_")
    assert p.encode_partition(at(1710052200000), 0) == "year=2024_month=03_day=10_hour=06"


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"partition_duration_ms": 0}, "partition.duration.ms"),
        ({"path_format": "/"}, "path.format"),
        ({"path_format": "yyyy-q"}, "path.format.*Illegal pattern component: q"),
        ({"locale": ""}, "locale"),
        ({"timezone": ""}, "timezone"),
        ({"timezone": "Mars/Olympus"}, "timezone"),
    ],
)
def test_time_based_config_errors(kwargs: dict[str, Any], match: str) -> None:
    args: dict[str, Any] = {
        "path_format": "'year'=YYYY",
        "partition_duration_ms": 3_600_000,
        "locale": "en",
        "timezone": "UTC",
        "extractor": RecordTimestampExtractor(),
    }
    args.update(kwargs)
    with pytest.raises(ConfigError, match=match):
        TimeBasedPartitioner(**args)


def test_blank_is_javas_trim() -> None:
    """Confluent's ``StringUtils.isBlank`` trims with Java's ``trim`` (up to U+0020): a no-break
    space is a path format; a tab-only locale is blank."""
    p = TimeBasedPartitioner("\xa0", 3_600_000, "en", "UTC", RecordTimestampExtractor())
    assert p.encode_timestamp(0) == "\xa0"
    with pytest.raises(ConfigError, match="locale"):
        TimeBasedPartitioner("HH", 3_600_000, "\t", "UTC", RecordTimestampExtractor())


def test_a_bucket_in_year_1_of_an_instant_whose_local_time_is_year_0() -> None:
    # 0001-01-01T00:35:55Z is 0000-12-31 in New York (LMT -04:56:02); Java's division rounds the
    # bucket toward the epoch, into year 1, and Confluent prints it (Joda-Time 2.13.1's answer).
    fmt = "'year'=YYYY/'month'=MM/'day'=dd/'hour'=HH"
    p = TimeBasedPartitioner(fmt, 5364338894, "en", "America/New_York", RecordTimestampExtractor())
    assert p.encode_timestamp(-62135594644439) == "year=0001/month=01/day=06/hour=07"


def test_missing_record_timestamp_is_a_partition_error() -> None:
    with pytest.raises(PartitionError, match="offset=0"):
        hourly("UTC").encode_partition(SinkRecord("t", 0, 0, None, None, None), 0)


# --------------------------------------------------------------------------- SchemaPartitioner


def _named(name: str | None) -> SinkRecord:
    schema = ConnectSchema(Type.STRUCT, name=name, fields=(Field("i", ConnectSchema(Type.INT32)),))
    return SinkRecord("orders", 0, 5, 1488477600000, None, {"i": 1}, value_schema=schema)


@pytest.mark.parametrize(
    ("affix", "name", "expected"),
    [
        ("PREFIX", "com.acme.Order", "schema_name=com.acme.Order/partition=0"),
        ("SUFFIX", "com.acme.Order", "partition=0/schema_name=com.acme.Order"),
        ("PREFIX", None, "schema_name=null/partition=0"),  # unnamed schema
        ("SUFFIX", None, "partition=0/schema_name=null"),
    ],
)
def test_schema_partitioner_affixes_the_value_schema_name(
    affix: str, name: str | None, expected: str
) -> None:
    partitioner = SchemaPartitioner(DefaultPartitioner(), affix)
    assert partitioner.encode_partition(_named(name), 0) == expected
    assert partitioner.partitioned_path("orders", expected) == f"orders/{expected}"


def test_schema_partitioner_schemaless_value_and_delimiter() -> None:
    schemaless = SinkRecord("orders", 3, 5, None, None, {"region": "eu"})
    inner = FieldPartitioner("region", directory_delim="#")
    partitioner = SchemaPartitioner(inner, "PREFIX", directory_delim="#")
    assert partitioner.encode_partition(schemaless, 0) == "schema_name=null#region=eu"
    # The name as it is, as Confluent's SchemaPartitioner writes it.
    assert (
        SchemaPartitioner(DefaultPartitioner(), "SUFFIX").encode_partition(_named("a/b"), 0)
        == "partition=0/schema_name=a/b"
    )


def test_schema_partitioner_wraps_a_time_based_partitioner() -> None:
    hourly = HourlyPartitioner("en", "America/Los_Angeles", RecordTimestampExtractor())
    partitioner = SchemaPartitioner(hourly, "PREFIX")
    assert partitioner.encode_partition(_named("com.acme.Order"), 0) == (
        "schema_name=com.acme.Order/year=2017/month=03/day=02/hour=10"
    )


def test_schema_partitioner_needs_an_affix() -> None:
    with pytest.raises(ConfigError, match="needs PREFIX or SUFFIX"):
        SchemaPartitioner(DefaultPartitioner(), "NONE")
