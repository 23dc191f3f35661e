"""Ports of Confluent's partitioner tests (kafka-connect-storage-common, ``partitioner/src/test``):
``DefaultPartitionerTest``, ``FieldPartitionerTest``, ``FieldPartitionerValidatorTest``,
``TimeBasedPartitionerTest``, ``DailyPartitionerTest``, ``HourlyPartitionerTest`` and
``PartitionerConfigTest``, one test per Confluent test, asserting the same values.

Confluent's ``configure(Map)`` is our partitioners' constructors (their ``ConfigException`` is our
:class:`ConfigError`, worded as Kafka's ``Invalid value <v> for configuration <key>: <why>``);
``PartitionerConfig``/``FieldPartitionerValidator`` are our :class:`SinkConfig` (its problems read
``<key>=<value> is invalid: <why>`` with Confluent's ``<why>``). A ``PartitionException`` or
``DataException`` is our :class:`PartitionError` (its ``reason`` is the message without the
record's place; ``reportable`` is false for what Confluent throws past its errant-record reporter).

Not ported (Java-only): ``FieldPartitionerValidatorTest.testSubclassOfFieldPartitionerAddsError``
(a Java subclass of ``FieldPartitioner``; our plugins are Python classes built from the settings),
``TimeBasedPartitionerTest.testUnassignableTimestampExtractor`` (a Java class that is not a
``TimestampExtractor``; ours takes no extractor class but the three built-ins, see
``test_invalid_timestamp_extractor``), and the ``null`` values of ``testNullPathFormat``,
``testNullLocale`` and ``testNullTimezone`` (a Java ``null`` in the configure map; an absent key
is ``""``, ported as the empty ones).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from s3connect.config.sink import SinkConfig
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
    TimeBasedPartitioner,
    TimestampExtractor,
    WallclockTimestampExtractor,
)
from tests.unit.confluent_base import NEW_SCHEMA, PRIMITIVES, TOPIC

PARTITION = 12  # StorageSinkTestBase.PARTITION
TIMESTAMP = 12  # StorageSinkTestBase.TIMESTAMP
LA = "America/Los_Angeles"
PATH_FORMAT = "'year'=YYYY/'month'=M/'day'=d/'hour'=H/"  # TimeBasedPartitionerTest.PATH_FORMAT
DATE_TIME_MS = 1427961600000  # new DateTime(2015, APRIL, 2, 1, 0, America/Los_Angeles)
DATE_TIME_PATH = "year=2015/month=4/day=2/hour=1"  # validateEncodedPartition's path of it
TIMESTAMP_LOGICAL = "org.apache.kafka.connect.data.Timestamp"

STRING = ConnectSchema(Type.STRING)
INT64 = ConnectSchema(Type.INT64)


def schema_with_timestamp_field(ts_schema: ConnectSchema = INT64) -> ConnectSchema:
    """``createSchemaWithTimestampField``."""
    return ConnectSchema(
        Type.STRUCT,
        name="record",
        version=1,
        fields=(
            *PRIMITIVES,
            Field("string", ConnectSchema(Type.STRING, default="abc")),
            Field("timestamp", ts_schema),
        ),
    )


def record_with_timestamp_field(timestamp: Any) -> dict[str, Any]:
    """``createRecordWithTimestampField``."""
    return {
        "boolean": True,
        "int": 12,
        "long": 12,
        "float": 12.2,
        "double": 12.2,
        "string": "def",
        "timestamp": timestamp,
    }


def sink_record(timestamp: int, ts_schema: ConnectSchema = INT64, value: Any = None) -> SinkRecord:
    """``createSinkRecord(timestamp)`` (``TimeBasedPartitionerTest.createSinkRecord(schema,
    timestamp)`` with another timestamp field schema and value)."""
    schema = schema_with_timestamp_field(ts_schema)
    field_value = timestamp if value is None else value
    record = record_with_timestamp_field(field_value)
    return SinkRecord(TOPIC, PARTITION, 0, timestamp, None, record, value_schema=schema)


def valued(schema: ConnectSchema | None, value: Any, timestamp: int | None) -> SinkRecord:
    """``createValuedSinkRecord``."""
    return SinkRecord(TOPIC, PARTITION, 0, timestamp, None, value, value_schema=schema)


def struct(*fields: tuple[str, ConnectSchema]) -> ConnectSchema:
    return ConnectSchema(Type.STRUCT, name="record", fields=tuple(Field(n, s) for n, s in fields))


# ------------------------------------------------------------------- DefaultPartitionerTest


def test_default_partitioner() -> None:
    # DefaultPartitionerTest.testDefaultPartitioner
    encoded = DefaultPartitioner().encode_partition(sink_record(1391252400000), 0)
    assert encoded == "partition=12"


# --------------------------------------------------------------------- FieldPartitionerTest


def field_path(partitioner: FieldPartitioner, record: SinkRecord | None = None) -> str:
    """``getEncodedPatitionerPath``: ``createSinkRecord(TIMESTAMP)`` by default."""
    return partitioner.encode_partition(record or sink_record(TIMESTAMP), 0)


def one_field(name: str, schema: ConnectSchema, value: Any) -> SinkRecord:
    return valued(struct((name, schema)), {name: value}, None)


def test_boolean_partition() -> None:
    # FieldPartitionerTest.testBooleanPartition
    p = FieldPartitioner(["boolean"])
    assert field_path(p) == "boolean=true"
    assert field_path(p, one_field("boolean", ConnectSchema(Type.BOOLEAN), False)) == (
        "boolean=false"
    )


def test_number_partition() -> None:
    # FieldPartitionerTest.testNumberPartition: INT32, INT64, INT8, INT16
    assert field_path(FieldPartitioner(["int"])) == "int=12"
    assert field_path(FieldPartitioner(["long"])) == "long=12"
    byte = one_field("byte", ConnectSchema(Type.INT8), 42)
    assert field_path(FieldPartitioner(["byte"]), byte) == "byte=42"
    short = one_field("short", ConnectSchema(Type.INT16), 1234)
    assert field_path(FieldPartitioner(["short"]), short) == "short=1234"


def test_unsupported_type_partition() -> None:
    # FieldPartitionerTest.testUnsupportedTypePartition: FLOAT32, FLOAT64, ARRAY refused with
    # a PartitionException "Error encoding partition." (ours: that, then which field and type).
    array = one_field("array", ConnectSchema(Type.ARRAY, value_schema=STRING), ["item1", "item2"])
    for name, record in (("float", None), ("double", None), ("array", array)):
        with pytest.raises(PartitionError) as info:
            field_path(FieldPartitioner([name]), record)
        assert info.value.reason.startswith("Error encoding partition.")
        assert f"Field '{name}'" in info.value.reason
        assert info.value.reportable  # a PartitionException: the errant-record reporter's


def test_string_partition() -> None:
    # FieldPartitionerTest.testStringPartition: every string raw, "/" included (one folder more).
    p = FieldPartitioner(["string"])
    assert field_path(p) == "string=def"
    special = "test/with\\special:chars=and+spaces"
    assert field_path(p, one_field("string", STRING, special)) == (
        "string=test/with\\special:chars=and+spaces"
    )
    assert field_path(p, one_field("string", STRING, "")) == "string="


def test_not_struct_partition() -> None:
    # FieldPartitionerTest.testNotStructPartition (ours also takes maps, documented)
    with pytest.raises(PartitionError) as info:
        FieldPartitioner(["foo"]).encode_partition(valued(STRING, "foo", None), 0)
    assert info.value.reason.startswith("Error encoding partition.")


def test_missing_field_in_schema_throws() -> None:
    # FieldPartitionerTest.testMissingFieldInSchemaThrows: a DataException, past the reporter
    record = one_field("present", STRING, "value")
    with pytest.raises(PartitionError) as info:
        field_path(FieldPartitioner(["missing"]), record)
    assert info.value.reason == "Field 'missing' is not present in the schema."
    assert not info.value.reportable


def test_multi_partition() -> None:
    # FieldPartitionerTest.testMultiPartition
    assert field_path(FieldPartitioner(["string", "int"])) == "string=def/int=12"
    assert field_path(FieldPartitioner(["int", "string"])) == "int=12/string=def"


def test_null_partition() -> None:
    # FieldPartitionerTest.testNullPartition
    record = one_field("string", ConnectSchema(Type.STRING, optional=True), None)
    assert field_path(FieldPartitioner(["string"]), record) == "string=null"


def test_multi_partition_with_nulls() -> None:
    # FieldPartitionerTest.testMultiPartitionWithNulls
    schema = struct(
        ("string", ConnectSchema(Type.STRING, optional=True)),
        ("int", ConnectSchema(Type.INT32, optional=True)),
        ("boolean", ConnectSchema(Type.BOOLEAN, optional=True)),
    )
    record = valued(schema, {"string": "def", "int": None, "boolean": None}, None)
    p = FieldPartitioner(["string", "int", "boolean"])
    assert field_path(p, record) == "string=def/int=null/boolean=null"


def test_custom_delimiter_partition() -> None:
    # FieldPartitionerTest.testCustomDelimiterPartition
    assert field_path(FieldPartitioner(["string", "int"], "|")) == "string=def|int=12"


def nested_user(city_schema: ConnectSchema, address: Any, optional: bool = False) -> SinkRecord:
    address_schema = ConnectSchema(
        Type.STRUCT, name="address", optional=optional, fields=(Field("city", city_schema),)
    )
    user_schema = ConnectSchema(
        Type.STRUCT, name="user", fields=(Field("address", address_schema),)
    )
    schema = struct(("user", user_schema))
    return valued(schema, {"user": {"address": address}}, None)


def test_nested_string_partition() -> None:
    # FieldPartitionerTest.testNestedStringPartition
    record = nested_user(STRING, {"city": "NYC"})
    assert field_path(FieldPartitioner(["user.address.city"]), record) == "user.address.city=NYC"


def test_nested_null_partition() -> None:
    # FieldPartitionerTest.testNestedNullPartition
    record = nested_user(ConnectSchema(Type.STRING, optional=True), {"city": None})
    assert field_path(FieldPartitioner(["user.address.city"]), record) == "user.address.city=null"


def test_nested_missing_partition() -> None:
    # FieldPartitionerTest.testNestedMissingPartition: the optional struct on the way is null
    record = nested_user(ConnectSchema(Type.STRING, optional=True), None, optional=True)
    assert field_path(FieldPartitioner(["user.address.city"]), record) == "user.address.city=null"


def test_null_field_reads_its_default_as_struct_get() -> None:
    # Not a Confluent test: DataUtils reads fields with Struct.get, which gives a null field's
    # schema default (FieldPartitioner and RecordField alike).
    schema = struct(("s", ConnectSchema(Type.STRING, optional=True, default="abc")))
    assert field_path(FieldPartitioner(["s"]), valued(schema, {"s": None}, None)) == "s=abc"


# ------------------------------------------------- config: PartitionerConfigTest & validator

MINIMAL = {
    "topics": TOPIC,
    "kafka.bootstrap.servers": "localhost:9092",
    "checkpoint.location": "/tmp/ckpt",
    "s3.bucket.name": "bucket",
    "format.class": "json",
    "flush.size": "3",
}
FIELD = "io.confluent.connect.storage.partitioner.FieldPartitioner"
DEFAULT = "io.confluent.connect.storage.partitioner.DefaultPartitioner"


def config(**keys: str) -> SinkConfig:
    return SinkConfig.from_mapping({**MINIMAL, **{k.replace("_", "."): v for k, v in keys.items()}})


def config_problems(**keys: str) -> str:
    with pytest.raises(ConfigError) as info:
        config(**keys)
    return str(info.value)


def test_field_partitioner_missing_field_name_adds_error() -> None:
    # FieldPartitionerValidatorTest.testFieldPartitionerMissingFieldNameAddsError
    msg = config_problems(partitioner_class=FIELD)
    assert "partition.field.name is missing" in msg
    assert "Partition field name cannot be null or empty when using FieldPartitioner." in msg


def test_field_partitioner_empty_field_name_adds_error() -> None:
    # FieldPartitionerValidatorTest.testFieldPartitionerEmptyFieldNameAddsError
    msg = config_problems(partitioner_class=FIELD, **{"partition_field_name": "   "})
    assert msg.count("partition.field.name") == 1
    assert "Partition field name cannot be null or empty when using FieldPartitioner." in msg


def test_non_field_partitioner_does_not_add_error() -> None:
    # FieldPartitionerValidatorTest.testNonFieldPartitionerDoesNotAddError
    assert config(partitioner_class=DEFAULT).partitioner.name == "default"


def test_valid_partition_field_name_does_not_add_error() -> None:
    # FieldPartitionerValidatorTest.testValidPartitionFieldNameDoesNotAddError
    c = config(partitioner_class=FIELD, partition_field_name="validFieldName")
    assert c.partitioner.field_names == ("validFieldName",)


def test_invalid_timezone_throws_exception() -> None:
    # PartitionerConfigTest.testInvalidTimezoneThrowsException (any partitioner)
    assert "timezone=LLL is invalid" in config_problems(timezone="LLL")


def test_valid_timezone_accepted() -> None:
    # PartitionerConfigTest.testValidTimezoneAccepted
    assert config(timezone="CET").partitioner.timezone == "CET"


def test_timezone_validated_exception_message() -> None:
    # PartitionerConfigTest.testTimezoneValidatedExceptionMessage: Joda's message
    msg = config_problems(timezone="LLL")
    assert "timezone=LLL is invalid: The datetime zone id 'LLL' is not recognised" in msg
    with pytest.raises(ConfigError) as info:  # the partitioner's own check, Kafka's wording
        TimeBasedPartitioner(PATH_FORMAT, 3_600_000, "en_US", "LLL", RecordTimestampExtractor())
    assert str(info.value) == (
        "Invalid value LLL for configuration timezone: The datetime zone id 'LLL' is not recognised"
    )


@pytest.mark.parametrize(
    ("names", "expected"),
    [
        ("field", ("field",)),  # testFieldPartitionerWithFieldsAccepted
        ("a.b.c", ("a.b.c",)),  # testFieldPartitionerWithNestedFieldAccepted
        ("field1,nested.field2", ("field1", "nested.field2")),  # ...WithMultipleFieldsAccepted
    ],
)
def test_field_partitioner_with_fields_accepted(names: str, expected: tuple[str, ...]) -> None:
    # PartitionerConfigTest.testFieldPartitionerWithFieldsAccepted, ...WithNestedFieldAccepted,
    # ...WithMultipleFieldsAccepted
    assert config(partitioner_class=FIELD, partition_field_name=names).partitioner.field_names == (
        expected
    )


@pytest.mark.parametrize(
    "name",
    [
        "a..b",  # testFieldPartitionerWithEmptySegmentThrowsException
        ".field",  # testFieldPartitionerWithLeadingDotThrowsException
        "a.   .b",  # testFieldPartitionerWithWhitespaceSegmentThrowsException
        "..field",  # testFieldPartitionerWithMultipleDotsThrowsException
    ],
)
def test_field_partitioner_with_empty_segment_throws_exception(name: str) -> None:
    # PartitionerConfigTest.testFieldPartitionerWith{EmptySegment,LeadingDot,WhitespaceSegment,
    # MultipleDots}ThrowsException
    msg = config_problems(partitioner_class=FIELD, partition_field_name=name)
    assert f"partition.field.name={name} is invalid" in msg


def test_default_partitioner_with_invalid_field_name_throws_exception() -> None:
    # PartitionerConfigTest.testDefaultPartitionerWithInvalidFieldNameThrowsException
    assert "partition.field.name=a..b is invalid" in config_problems(partition_field_name="a..b")


def test_partition_field_name_empty_segment_exception_message() -> None:
    # PartitionerConfigTest.testPartitionFieldNameEmptySegmentExceptionMessage
    assert (
        "partition.field.name=a..b is invalid: Field name cannot contain an empty or "
        "whitespace-only path segment"
    ) in config_problems(partition_field_name="a..b")


def test_empty_partition_field_name_accepted() -> None:
    # PartitionerConfigTest.testEmptyPartitionFieldNameAccepted
    assert config(partition_field_name="").partitioner.field_names == ()


def test_field_names_split_as_java() -> None:
    # Not a Confluent test: PartitionFieldNameValidator splits with Java's String.split, which
    # drops trailing empty strings: "a." and "." (no segment at all) pass, "a,,b" does not.
    assert config(partition_field_name="a.,.").partitioner.field_names == ("a.", ".")
    assert "Field name cannot be null or empty" in config_problems(partition_field_name="a,,b")


# ---------------------------------------------------------------- TimeBasedPartitionerTest


def time_based(
    field: str | None = None, extractor: TimestampExtractor | None = None, **kwargs: Any
) -> TimeBasedPartitioner:
    """``configurePartitioner(new TimeBasedPartitioner<>(), field, overrides)`` over
    ``createConfig``: Record (RecordField with a field) extractor, hourly, PATH_FORMAT, en_US,
    Los Angeles."""
    if extractor is None:
        extractor = (
            RecordTimestampExtractor() if field is None else RecordFieldTimestampExtractor(field)
        )
    args: dict[str, Any] = {
        "path_format": PATH_FORMAT,
        "partition_duration_ms": 3_600_000,
        "locale": "en_US",
        "timezone": LA,
        "extractor": extractor,
    }
    args.update(kwargs)
    return TimeBasedPartitioner(**args)


def bi_hourly() -> TimeBasedPartitioner:
    """``BiHourlyPartitioner``: two hours, PATH_FORMAT, English, Los Angeles."""
    return time_based(partition_duration_ms=7_200_000, locale="en")


def config_error(**kwargs: Any) -> str:
    with pytest.raises(ConfigError) as info:
        time_based(**kwargs)
    return str(info.value)


def test_get_duration_ms() -> None:
    # TimeBasedPartitionerTest.testGetDurationMs
    assert bi_hourly().partition_duration_ms == 7_200_000


def test_non_postitive_duration() -> None:
    # TimeBasedPartitionerTest.testNonPostitiveDuration
    assert config_error(partition_duration_ms=-1).startswith(
        "Invalid value -1 for configuration partition.duration.ms"
    )
    assert "partition.duration.ms=-1 is invalid" in config_problems(
        partitioner_class="time",
        path_format=PATH_FORMAT,
        partition_duration_ms="-1",
        locale="en_US",
        timezone=LA,
    )


def test_get_path_format() -> None:
    # TimeBasedPartitionerTest.testGetPathFormat: BiHourlyPartitioner's getPathFormat() is
    # overridden to give PATH_FORMAT as written; ours keeps the format it uses (one trailing
    # delimiter dropped, as configure() does).
    assert bi_hourly().path_format == PATH_FORMAT[:-1]


def test_generate_partitioned_path() -> None:
    # TimeBasedPartitionerTest.testGeneratePartitionedPath: 01:00 falls in the 00:00 two-hour
    # bucket. Confluent's path ends with "/" only because BiHourlyPartitioner calls init() with
    # the unstripped format (a Java subclass hook): configure()'s format has no trailing "/".
    p = bi_hourly()
    encoded = p.encode_partition(sink_record(DATE_TIME_MS), 0)
    assert p.partitioned_path("topic", encoded) == "topic/year=2015/month=4/day=2/hour=0"


def test_invalid_path_format() -> None:
    # TimeBasedPartitionerTest.testInvalidPathFormat
    fmt = "year='YYYY'/month='MM'"
    assert config_error(path_format=fmt).startswith(
        f"Invalid value {fmt} for configuration path.format"
    )


@pytest.mark.parametrize("path", ["", "/"])
def test_empty_path_format(path: str) -> None:
    # TimeBasedPartitionerTest.testEmptyPathFormat, testRootPathFormat (testNullPathFormat: Java)
    assert config_error(path_format=path) == (
        f"Invalid value {path} for configuration path.format: Path format cannot be empty."
    )


def test_path_format_end_delim() -> None:
    # TimeBasedPartitionerTest.testPathFormatEndDelim, testRemovePathFormatEndDelim
    assert time_based(path_format="'year='YYYY/").path_format == "'year='YYYY"


def test_empty_locale() -> None:
    # TimeBasedPartitionerTest.testEmptyLocale (testNullLocale: Java's null)
    assert config_error(locale="") == (
        "Invalid value  for configuration locale: Locale cannot be empty."
    )


def test_empty_timezone() -> None:
    # TimeBasedPartitionerTest.testEmptyTimezone (testNullTimezone: Java's null)
    assert config_error(timezone="") == (
        "Invalid value  for configuration timezone: Timezone cannot be empty."
    )


def test_invalid_timestamp_extractor() -> None:
    # TimeBasedPartitionerTest.testInvalidTimestampExtractor ("Invalid timestamp extractor: X",
    # naming the key in ours). testUnassignableTimestampExtractor is about a Java class.
    cls = "io.confluent.connect.storage.partitioner.TimeBasedPartitioner$FutureTimestampExtractor"
    msg = config_problems(
        partitioner_class="hourly", locale="en_US", timezone=LA, timestamp_extractor=cls
    )
    assert f"timestamp.extractor={cls} is invalid: Invalid timestamp extractor: {cls}" in msg


def test_record_time_extractor_null_sink_record_time() -> None:
    # TimeBasedPartitionerTest.testRecordTimeExtractorNullSinkRecordTime, testNullSinkRecordTime
    with pytest.raises(PartitionError) as info:
        time_based().encode_partition(valued(STRING, "foo", None), 0)
    assert info.value.reason.startswith("Unable to determine timestamp using timestamp.extractor")


def test_record_field_not_struct_or_map() -> None:
    # TimeBasedPartitionerTest.testRecordFieldNotStructOrMap
    with pytest.raises(PartitionError) as info:
        time_based("bar").encode_partition(valued(STRING, "foo", 0), 0)
    assert info.value.reason.startswith("Error encoding partition.")


@pytest.mark.parametrize("field", ["int", "long"])
def test_int_time_extract(field: str) -> None:
    # TimeBasedPartitionerTest.testIntTimeExtract, testLongTimeExtract: the field holds 12 (ms);
    # local 1969-12-31T16:00:00.012 in buckets of Java's truncating division: 17:00.
    p = time_based(field)
    path = p.partitioned_path(TOPIC, p.encode_partition(sink_record(DATE_TIME_MS), 0))
    assert path == "test-topic/year=1969/month=12/day=31/hour=17"


@pytest.mark.parametrize("field", ["float", "double"])
def test_float_time_extract(field: str) -> None:
    # TimeBasedPartitionerTest.testFloatTimeExtract, testDoubleTimeExtract
    with pytest.raises(PartitionError) as info:
        time_based(field).encode_partition(sink_record(DATE_TIME_MS), 0)
    assert info.value.reason == f"Error extracting timestamp from record field: {field}"


def test_struct_record_field_array_extraction() -> None:
    # TimeBasedPartitionerTest.testStructRecordFieldArrayExtraction
    array = ConnectSchema(Type.ARRAY, value_schema=INT64)
    schema = ConnectSchema(Type.STRUCT, fields=(Field("array", array),))
    with pytest.raises(PartitionError) as info:
        time_based("array").encode_partition(valued(schema, {"array": [DATE_TIME_MS]}, 0), 0)
    assert info.value.reason == "Error extracting timestamp from record field: array"


def test_map_record_field_array_extraction() -> None:
    # TimeBasedPartitionerTest.testMapRecordFieldArrayExtraction
    array = ConnectSchema(Type.ARRAY, value_schema=INT64)
    schema = ConnectSchema(Type.MAP, key_schema=STRING, value_schema=array)
    with pytest.raises(PartitionError) as info:
        time_based("array").encode_partition(valued(schema, {"array": [DATE_TIME_MS]}, 0), 0)
    assert info.value.reason == "Error extracting timestamp from record field: array"


def test_invalid_string_time_struct_extract() -> None:
    # TimeBasedPartitionerTest.testInvalidStringTimeStructExtract: Joda's IllegalArgumentException
    with pytest.raises(PartitionError) as info:
        time_based("string").encode_partition(sink_record(DATE_TIME_MS), 0)
    assert info.value.reason.startswith('Invalid format: "def"')


def test_invalid_string_time_map_extract() -> None:
    # TimeBasedPartitionerTest.testInvalidStringTimeMapExtract: the struct in the map lacks
    # "string", whose default "abc" Struct.get gives, and "abc" is not a date-time.
    schema = ConnectSchema(Type.MAP, key_schema=STRING, value_schema=NEW_SCHEMA)
    header = {"boolean": True, "int": 12, "long": 12, "float": 12.2, "double": 12.2}
    with pytest.raises(PartitionError) as info:
        time_based("header.string").encode_partition(valued(schema, {"header": header}, 0), 0)
    assert info.value.reason.startswith('Invalid format: "abc"')


def test_string_time_extract() -> None:
    # TimeBasedPartitionerTest.testStringTimeExtract: ISODateTimeFormat.dateTime() of DATE_TIME
    schema = struct(("timestamp", STRING))
    record = valued(schema, {"timestamp": "2015-04-02T01:00:00.000-07:00"}, DATE_TIME_MS)
    assert time_based("timestamp").encode_partition(record, 0) == DATE_TIME_PATH


def map_schema(value_schema: ConnectSchema) -> ConnectSchema:
    return ConnectSchema(Type.MAP, key_schema=STRING, value_schema=value_schema)


def test_numeric_record_field_time_map() -> None:
    # TimeBasedPartitionerTest.testNumericRecordFieldTimeMap
    p = time_based("timestamp")
    assert isinstance(p.extractor, RecordFieldTimestampExtractor)
    int_max = valued(map_schema(ConnectSchema(Type.INT32)), {"timestamp": 2**31 - 1}, 2**31 - 1)
    assert p.encode_partition(int_max, 0) == "year=1970/month=1/day=25/hour=12"
    long = valued(map_schema(INT64), {"timestamp": DATE_TIME_MS}, DATE_TIME_MS)
    assert p.encode_partition(long, 0) == DATE_TIME_PATH


def test_record_field_time_date_extractor() -> None:
    # TimeBasedPartitionerTest.testRecordFieldTimeDateExtractor
    p = time_based("timestamp")
    assert isinstance(p.extractor, RecordFieldTimestampExtractor)
    now = 1700000000000  # Time.SYSTEM.milliseconds() as the Kafka timestamp: not used
    moment = datetime(2015, 4, 2, 8, tzinfo=UTC)  # 01:00 in Los Angeles
    timestamp_schema = ConnectSchema(Type.INT64, name=TIMESTAMP_LOGICAL)
    records = [
        sink_record(DATE_TIME_MS),
        sink_record(now, STRING, "2015-04-02T01:00:00-07:00"),  # dateTimeNoMillis
        sink_record(now, STRING, "2015-04-02T01:00:00.000-07:00"),  # dateTime
        sink_record(now, timestamp_schema, moment),  # a java.util.Date
    ]
    assert [p.encode_partition(r, 0) for r in records] == [DATE_TIME_PATH] * 4
    epoch_la = sink_record(now, ConnectSchema(Type.INT32), 28_800_000)  # 1970-01-01T00:00 LA
    assert p.encode_partition(epoch_la, 0) == "year=1970/month=1/day=1/hour=0"
    as_map = valued(map_schema(timestamp_schema), {"timestamp": moment}, DATE_TIME_MS)
    assert p.encode_partition(as_map, 0) == DATE_TIME_PATH  # Map - Date extraction


def test_nested_record_field_time_extractor() -> None:
    # TimeBasedPartitionerTest.testNestedRecordFieldTimeExtractor
    child = schema_with_timestamp_field()
    schema = ConnectSchema(Type.STRUCT, fields=(Field("nested", child),))
    value = {"nested": record_with_timestamp_field(DATE_TIME_MS)}
    record = valued(schema, value, DATE_TIME_MS)
    assert time_based("nested.timestamp").encode_partition(record, 0) == DATE_TIME_PATH


def test_record_field_time_string_extractor() -> None:
    # TimeBasedPartitionerTest.testRecordFieldTimeStringExtractor: fmt.print(millis) in the
    # JVM's zone (UTC), in a struct, then in a map{string->struct} as "header.timestamp".
    schema = struct(("timestamp", STRING))
    s = {"timestamp": "2015-04-02T08:00:00.000Z"}
    assert time_based("timestamp").encode_partition(valued(schema, s, 0), 0) == DATE_TIME_PATH
    header = valued(map_schema(schema), {"header": s}, DATE_TIME_MS)
    assert time_based("header.timestamp").encode_partition(header, 0) == DATE_TIME_PATH


MILLIS = [-(2**63), -1, 0, DATE_TIME_MS, 2**63 - 1]


@pytest.mark.parametrize("millis", MILLIS, ids=["min", "negative", "zero", "millis", "max"])
def test_record_field_time_as_millis_string_extractor_record(millis: int) -> None:
    # TimeBasedPartitionerTest.testRecordFieldTimeAsMillis{MinValue,NegativeValue,Zero,,MaxValue}
    # StringExtractorRecord
    record = valued(struct(("timestamp", STRING)), {"timestamp": str(millis)}, millis)
    assert time_based("timestamp").extractor.extract(record, 0) == millis


@pytest.mark.parametrize("millis", MILLIS, ids=["min", "negative", "zero", "millis", "max"])
def test_record_field_time_as_millis_string_extractor_map(millis: int) -> None:
    # TimeBasedPartitionerTest.testRecordFieldTimeAsMillis{MinValue,NegativeValue,Zero,,MaxValue}
    # StringExtractorMap
    record = valued(map_schema(STRING), {"timestamp": str(millis)}, millis)
    assert time_based("timestamp").extractor.extract(record, 0) == millis


def test_record_time_extractor() -> None:
    # TimeBasedPartitionerTest.testRecordTimeExtractor
    p = time_based()
    assert isinstance(p.extractor, RecordTimestampExtractor)
    record = sink_record(DATE_TIME_MS)
    assert p.encode_partition(record, 0) == DATE_TIME_PATH
    assert p.encode_partition(record, 123) == DATE_TIME_PATH


def test_wallclock_time_extractor() -> None:
    # TimeBasedPartitionerTest.testWallclockTimeExtractor: 15778800000 is 1970-07-02T08:00 PDT
    p = time_based(extractor=WallclockTimestampExtractor())
    record = sink_record(DATE_TIME_MS)
    assert p.encode_partition(record, 15778800000) == "year=1970/month=7/day=2/hour=8"


# -------------------------------------------------------- Daily- and HourlyPartitionerTest


def test_daily_partitioner() -> None:
    # DailyPartitionerTest.testDailyPartitioner: 2014-02-01T03:00 Los Angeles
    p = DailyPartitioner("en_US", LA, RecordTimestampExtractor())
    assert p.encode_partition(sink_record(1391252400000), 0) == "year=2014/month=02/day=01"


def test_hourly_partitioner() -> None:
    # HourlyPartitionerTest.testHourlyPartitioner
    p = HourlyPartitioner("en_US", LA, RecordTimestampExtractor())
    assert p.encode_partition(sink_record(1391252400000), 0) == "year=2014/month=02/day=01/hour=03"


def test_hourly_partioner_with_daylight_savings() -> None:
    # HourlyPartitionerTest.testHourlyPartionerWithDaylightSavings
    p = HourlyPartitioner("es_CL", "America/Santiago", RecordTimestampExtractor())
    assert p.encode_partition(sink_record(1715224653000), 0) == "year=2024/month=05/day=08/hour=23"
    assert p.encode_partition(sink_record(1706411853000), 0) == "year=2024/month=01/day=28/hour=00"
