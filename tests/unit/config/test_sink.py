"""Unit tests for s3connect.config.sink: parsing, Confluent defaults, validation and masking."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from s3connect.config.format import FORMAT_CLASSES
from s3connect.config.masking import HIDDEN
from s3connect.config.parsing import load_config_file, parse_config_text
from s3connect.config.partitioner import PARTITIONER_CLASSES
from s3connect.config.properties import parse_properties
from s3connect.config.sink import SinkConfig
from s3connect.errors import ConfigError

DATA = Path(__file__).resolve().parents[2] / "data" / "config"

MINIMAL = {
    "topics": "orders",
    "kafka.bootstrap.servers": "localhost:9092",
    "checkpoint.location": "/tmp/ckpt",
    "s3.bucket.name": "bucket",
    "format.class": "json",
    "flush.size": "3",
}


def build() -> SinkConfig:
    return SinkConfig.from_mapping(MINIMAL)


def with_keys(extra: dict[str, object], drop: tuple[str, ...] = ()) -> SinkConfig:
    mapping: dict[str, object] = {k: v for k, v in MINIMAL.items() if k not in drop}
    mapping.update(extra)
    return SinkConfig.from_mapping(mapping)


def problems(extra: dict[str, object], drop: tuple[str, ...] = ()) -> str:
    with pytest.raises(ConfigError) as info:
        with_keys(extra, drop)
    return str(info.value)


# --------------------------------------------------------------------------- defaults


def test_confluent_defaults() -> None:
    c = build()
    assert c.name == "S3-sink"
    assert c.topics.names == ("orders",)
    assert c.topics.regex is None
    assert c.s3.region == "us-west-2"
    assert c.s3.store_url is None
    assert c.s3.path_style_access is True
    assert c.s3.access_key_id is None and c.s3.secret_access_key is None
    assert c.s3.part_size == 26214400
    assert c.s3.part_retries == 3
    assert c.s3.retry_backoff_ms == 200
    assert c.layout.topics_dir == "topics"
    assert (c.layout.directory_delim, c.layout.file_delim) == ("/", "+")
    assert c.layout.filename_offset_zero_pad_width == 10
    assert c.format.name == "json"
    assert (c.format.avro_codec, c.format.parquet_codec) == ("null", "snappy")
    assert (c.format.compression_type, c.format.compression_level) == ("none", -1)
    assert c.format.bytearray_extension == ".bin"
    assert c.format.bytearray_separator == "\n"
    assert c.format.json_decimal_format == "BASE64"
    assert (
        c.format.schema_cache_size,
        c.format.enhanced_avro_schema_support,
        c.format.connect_meta_data,
    ) == (
        1000,
        True,  # StorageSinkConnectorConfig's default since storage-common 10.0.0 (CC-1360)
        True,
    )
    assert c.format.allow_optional_map_keys is False
    assert c.rotation.flush_size == 3
    assert (c.rotation.rotate_interval_ms, c.rotation.rotate_schedule_interval_ms) == (-1, -1)
    assert c.rotation.rotate_file_on_partition_change is True
    assert c.rotation.partitioner_max_open_files == -1
    assert c.partitioner.schema_partition_affix_type == "NONE"
    assert c.errors.report_null_values_to_dlq is True
    assert c.partitioner.name == "default"
    assert c.partitioner.field_names == ()
    assert (
        c.partitioner.path_format,
        c.partitioner.duration_ms,
        c.partitioner.locale,
        c.partitioner.timezone,
    ) == ("", -1, "", "")
    assert (c.partitioner.timestamp_extractor, c.partitioner.timestamp_field) == (
        "Wallclock",
        "timestamp",
    )
    assert c.partitioner.behavior_on_null_values == "fail"
    assert (c.converters.key, c.converters.value) == ("json", "json")
    assert c.converters.key_schemas_enable is True and c.converters.value_schemas_enable is True
    assert c.converters.schema_compatibility == "NONE"
    assert c.streaming.trigger == "availableNow" and c.streaming.trigger_interval_ms is None
    assert c.streaming.max_offsets_per_trigger is None
    assert c.streaming.commit_log_table is None
    assert c.kafka.starting_offsets == "earliest"
    assert dict(c.kafka.options) == {}
    assert c.ignored_keys == ()


def test_config_is_immutable() -> None:
    c = build()
    with pytest.raises(dataclasses.FrozenInstanceError):
        c.rotation.flush_size = 5  # type: ignore[misc]
    with pytest.raises(TypeError):
        c.kafka.options["x"] = "y"  # type: ignore[index]


# --------------------------------------------------------------------------- input forms


def test_flat_envelope_and_properties_give_equal_configs() -> None:
    flat = SinkConfig.from_file(DATA / "sink-flat.json")
    envelope = SinkConfig.from_file(DATA / "sink-envelope.json")
    props = SinkConfig.from_file(DATA / "sink.properties")
    assert flat == envelope == props
    assert flat.name == "s3-sink-orders"
    assert flat.topics.names == ("orders", "payments")
    assert flat.format.name == "avro" and flat.format.avro_codec == "snappy"
    assert flat.partitioner.name == "time"
    assert flat.partitioner.path_format == "'year'=YYYY/'month'=MM/'day'=dd/'hour'=HH"
    assert flat.partitioner.duration_ms == 3600000
    assert (
        flat.partitioner.locale,
        flat.partitioner.timezone,
        flat.partitioner.timestamp_extractor,
    ) == ("en-US", "UTC", "Record")
    assert (flat.converters.key, flat.converters.value) == ("string", "json")
    assert flat.converters.value_schemas_enable is False
    assert flat.rotation.flush_size == 1000 and flat.rotation.rotate_interval_ms == 600000
    assert flat.s3.region == "eu-west-1"
    assert flat.ignored_keys == ("tasks.max",)


def test_load_config_file_gives_strings() -> None:
    raw = load_config_file(DATA / "sink-flat.json")
    assert raw["flush.size"] == "1000"
    assert raw["value.converter.schemas.enable"] == "false"
    assert raw == load_config_file(DATA / "sink.properties")


def test_load_config_file_missing() -> None:
    with pytest.raises(ConfigError, match=r"config file .*nope\.json cannot be read"):
        load_config_file(DATA / "nope.json")


def test_parse_config_text_detects_format() -> None:
    assert parse_config_text('{"a": 1, "b": true, "c": ["x", "y"]}') == {
        "a": "1",
        "b": "true",
        "c": "x,y",
    }
    assert parse_config_text("a=1\nb: true") == {"a": "1", "b": "true"}


def test_envelope_name_goes_into_config_and_must_match() -> None:
    assert parse_config_text('{"name": "n", "config": {"x": "1"}}') == {"x": "1", "name": "n"}
    with pytest.raises(ConfigError, match="name=other is invalid: the envelope's name is n"):
        parse_config_text('{"name": "n", "config": {"name": "other"}}')
    with pytest.raises(ConfigError, match="unexpected keys bogus"):
        parse_config_text('{"name": "n", "config": {}, "bogus": 1}')


def test_bad_json() -> None:
    with pytest.raises(ConfigError, match="config JSON is invalid"):
        parse_config_text("{nope", "json")
    with pytest.raises(ConfigError, match="must be an object"):
        parse_config_text("[1]", "json")


def test_properties_parser_java_semantics() -> None:
    props = load_config_file(DATA / "escapes.properties")
    assert props == {
        "key with spaces": "value with trailing space ",
        "colon:key": "v1",
        "tab\tkey": "a\tb",
        "unicode": "café",
        "sep": "\n",
        "multi": "onetwothree",
        "even": "ends with backslash\\",
        "empty": "",
        "justkey": "",
        "hash": "a#b",
        "after": "comment",
    }


def test_properties_separators_and_malformed_unicode() -> None:
    assert parse_properties("a b\nc:=d\ne = = f\r\ng\\") == {
        "a": "b",
        "c": "=d",
        "e": "= f",
        "g": "",
    }
    with pytest.raises(ConfigError, match="malformed"):
        parse_properties("a=\\u12")


def test_overrides_on_top_as_pairs_or_mapping() -> None:
    c = SinkConfig.from_mapping(MINIMAL, ["flush.size=10", "topics.dir=a=b"])
    assert c.rotation.flush_size == 10 and c.layout.topics_dir == "a=b"
    c = SinkConfig.from_mapping(MINIMAL, {"flush.size": 7})
    assert c.rotation.flush_size == 7
    with pytest.raises(ConfigError, match=r"override 'flush\.size' is invalid: must be key=value"):
        SinkConfig.from_mapping(MINIMAL, ["flush.size"])


def test_native_types_accepted() -> None:
    c = with_keys({"flush.size": 5, "s3.path.style.access.enabled": False, "topics": ["a", "b"]})
    assert (
        c.rotation.flush_size == 5
        and c.s3.path_style_access is False
        and c.topics.names == ("a", "b")
    )


def test_whitespace_trimmed_like_kafka_but_not_separator() -> None:
    c = with_keys({"flush.size": " 4 ", "topics.dir": " out ", "format.bytearray.separator": " | "})
    assert c.rotation.flush_size == 4 and c.layout.topics_dir == "out"
    assert c.format.bytearray_separator == " | "


def test_blank_topics_dir_allowed() -> None:
    assert with_keys({"topics.dir": ""}).layout.topics_dir == ""


# --------------------------------------------------------------------------- class names


@pytest.mark.parametrize("short", sorted(FORMAT_CLASSES))
def test_format_class_and_short_name_equivalent(short: str) -> None:
    cls = FORMAT_CLASSES[short]
    assert with_keys({"format.class": cls}) == with_keys({"format.class": short})
    assert with_keys({"format.class": cls.rsplit(".", 1)[-1]}).format.name == short
    assert with_keys({"format.class": short.upper()}).format_class == cls


@pytest.mark.parametrize("short", sorted(PARTITIONER_CLASSES))
def test_partitioner_class_and_short_name_equivalent(short: str) -> None:
    extra = {
        "partition.field.name": "region",
        "path.format": "YYYY",
        "partition.duration.ms": "60000",
        "locale": "en",
        "timezone": "UTC",
    }
    by_class = with_keys({**extra, "partitioner.class": PARTITIONER_CLASSES[short]})
    by_short = with_keys({**extra, "partitioner.class": short})
    assert by_class == by_short
    assert by_class.partitioner.name == short
    assert by_class.partitioner_class == PARTITIONER_CLASSES[short]


def test_header_converter() -> None:
    assert build().converters.header == "simple"
    string = with_keys({"header.converter": "org.apache.kafka.connect.storage.StringConverter"})
    assert string.converters.header == "string"
    assert string.converters.describe()["header.converter"] == (
        "org.apache.kafka.connect.storage.StringConverter"
    )
    assert with_keys({"header.converter": "ByteArrayConverter"}).converters.header == "bytearray"
    assert "header.converter" not in build().converters.describe()
    message = problems({"header.converter": "org.apache.kafka.connect.json.JsonConverter"})
    assert "header.converter" in message
    assert "org.apache.kafka.connect.storage.SimpleHeaderConverter" in message


def test_converter_class_names() -> None:
    c = with_keys(
        {
            "key.converter": "org.apache.kafka.connect.converters.ByteArrayConverter",
            "value.converter": "StringConverter",
        }
    )
    assert (c.converters.key, c.converters.value) == ("bytearray", "string")
    assert with_keys({"value.converter": "bytearray"}).converters.value == "bytearray"


@pytest.mark.parametrize("short", ["short", "integer", "long", "float", "double", "boolean"])
def test_kafka_number_and_boolean_converters(short: str) -> None:
    full = f"org.apache.kafka.connect.converters.{short.capitalize()}Converter"
    c = with_keys(
        {"key.converter": full, "value.converter": full.rsplit(".", 1)[1], "header.converter": full}
    )
    assert (c.converters.key, c.converters.value, c.converters.header) == (short, short, short)
    assert c.converters.describe()["key.converter"] == full
    assert c.converters.describe()["header.converter"] == full
    message = problems({"value.converter": "org.apache.kafka.connect.converters.ByteConverter"})
    assert "org.apache.kafka.connect.converters.LongConverter" in message
    assert "org.apache.kafka.connect.converters.BooleanConverter" in message


def test_timestamp_extractor_class_names() -> None:
    full = (
        "io.confluent.connect.storage.partitioner.TimeBasedPartitioner"
        "$RecordFieldTimestampExtractor"
    )
    assert with_keys({"timestamp.extractor": full}).partitioner.timestamp_extractor == "RecordField"
    assert with_keys({"timestamp.extractor": "Record"}).partitioner.timestamp_extractor == "Record"
    assert (
        "timestamp.extractor=Custom is invalid: Invalid timestamp extractor: Custom: must be one "
        "of Wallclock, Record, RecordField" in (problems({"timestamp.extractor": "Custom"}))
    )


def test_framework_keys_accepted() -> None:
    c = with_keys(
        {
            "connector.class": "io.confluent.connect.s3.S3SinkConnector",
            "storage.class": "io.confluent.connect.s3.storage.S3Storage",
            "tasks.max": "4",
            "name": "x",
        }
    )
    assert c.name == "x" and c.ignored_keys == ("tasks.max",)
    assert (
        "storage.class=HdfsStorage is invalid: must be io.confluent.connect.s3.storage.S3Storage"
        in (problems({"storage.class": "HdfsStorage"}))
    )
    assert "connector.class=Foo is invalid" in problems({"connector.class": "Foo"})


# --------------------------------------------------------------------------- partitioners


def test_daily_and_hourly_fix_path_and_duration() -> None:
    daily = with_keys({"partitioner.class": "daily", "locale": "en", "timezone": "UTC"})
    assert daily.partitioner.path_format == "'year'=YYYY/'month'=MM/'day'=dd"
    assert daily.partitioner.duration_ms == 86400000
    hourly = with_keys(
        {"partitioner.class": "hourly", "locale": "en", "timezone": "UTC", "path.format": "x"}
    )
    assert hourly.partitioner.path_format == "'year'=YYYY/'month'=MM/'day'=dd/'hour'=HH"
    assert hourly.partitioner.duration_ms == 3600000
    assert hourly.ignored_keys == ("path.format",)


def test_daily_uses_directory_delim() -> None:
    c = with_keys(
        {"partitioner.class": "daily", "locale": "en", "timezone": "UTC", "directory.delim": "|"}
    )
    assert c.partitioner.path_format == "'year'=YYYY|'month'=MM|'day'=dd"


def test_time_partitioner_requirements() -> None:
    msg = problems({"partitioner.class": "TimeBasedPartitioner"})
    assert "path.format is missing: required" in msg
    assert "partition.duration.ms is missing: required" in msg
    assert "locale is missing: required" in msg
    assert "timezone is missing: required" in msg
    assert "(4 problems)" in msg


def test_time_partitioner_bad_values() -> None:
    msg = problems(
        {
            "partitioner.class": "time",
            "path.format": "'y'=yyyy/QQ",
            "partition.duration.ms": "-1",
            "locale": "en",
            "timezone": "Mars/Olympus",
        }
    )
    assert "path.format='y'=yyyy/QQ is invalid: Illegal pattern component: Q" in msg
    assert "partition.duration.ms=-1 is invalid: must be an integer > 0" in msg
    # TimezoneValidator's message is Joda's.
    assert (
        "timezone=Mars/Olympus is invalid: The datetime zone id 'Mars/Olympus' is not recognised"
        in msg
    )


def test_path_format_trailing_delim_stripped_and_quotes() -> None:
    c = with_keys(
        {
            "partitioner.class": "time",
            "path.format": "'dt'=YYYY-MM-dd/'it''s'/",
            "partition.duration.ms": "3600000",
            "locale": "en",
            "timezone": "+02:00",
        }
    )
    # Kept as given: the partitioner strips one trailing delimiter, once (as Confluent's).
    assert c.partitioner.path_format == "'dt'=YYYY-MM-dd/'it''s'/"
    assert c.partitioner.timezone == "+02:00"
    doubled = with_keys(
        {
            "partitioner.class": "time",
            "path.format": "'y'=YYYY//",
            "partition.duration.ms": "3600000",
            "locale": "en",
            "timezone": "UTC",
        }
    )
    assert doubled.partitioner.path_format == "'y'=YYYY//"


def test_field_partitioner_needs_field() -> None:
    assert "partition.field.name is missing: required" in problems({"partitioner.class": "field"})
    c = with_keys({"partitioner.class": "field", "partition.field.name": "a, b"})
    assert c.partitioner.field_names == ("a", "b")


def test_unknown_partitioner_class() -> None:
    assert "partitioner.class=com.acme.P is invalid: must be one of default, field" in problems(
        {"partitioner.class": "com.acme.P"}
    )


def test_rotate_schedule_needs_timezone() -> None:
    msg = problems({"rotate.schedule.interval.ms": "600000"})
    assert "timezone configuration must be set when using rotate.schedule.interval.ms" in msg
    c = with_keys({"rotate.schedule.interval.ms": "600000", "timezone": "Europe/Paris"})
    assert c.rotation.rotate_schedule_interval_ms == 600000


# --------------------------------------------------------------------------- Confluent Cloud


def test_cloud_config() -> None:
    c = SinkConfig.from_file(DATA / "cloud.json")
    assert c.format.name == "json"
    assert c.format.compression_type == "gzip" and c.format.compression_level == 6
    assert c.partitioner.name == "hourly"
    assert c.partitioner.path_format == "'year'=YYYY/'month'=MM/'day'=dd/'hour'=HH"
    assert (c.partitioner.timezone, c.partitioner.locale, c.partitioner.timestamp_extractor) == (
        "UTC",
        "en",
        "Record",
    )
    assert c.rotation.rotate_interval_ms == 3600000
    assert c.rotation.flush_size == 1000
    assert c.converters.value == "json" and c.converters.value_schemas_enable is False
    assert dict(c.kafka.options) == {
        "security.protocol": "SASL_SSL",
        "sasl.mechanism": "PLAIN",
        "sasl.jaas.config": "org.apache.kafka.common.security.plain.PlainLoginModule required "
        'username="MYKEY" password="MYSECRET";',
    }
    text = repr(c)
    assert "MYSECRET" not in text and "AWSSECRET" not in text


def test_cloud_time_interval_with_path_format_and_timestamp_field() -> None:
    c = with_keys(
        {
            "time.interval": "DAILY",
            "path.format": "'dt'=YYYY-MM-dd",
            "timestamp.field": "ts",
            "output.data.format": "AVRO",
            "compression.codec": "AVRO - deflate",
        },
        drop=("format.class", "flush.size"),
    )
    assert c.partitioner.name == "time" and c.partitioner.duration_ms == 86400000
    assert c.partitioner.path_format == "'dt'=YYYY-MM-dd"
    assert (c.partitioner.timestamp_extractor, c.partitioner.timestamp_field) == (
        "RecordField",
        "ts",
    )
    assert c.format.name == "avro" and c.format.avro_codec == "deflate"
    assert c.rotation.flush_size == 1000


def test_cloud_conflicts_and_bad_values() -> None:
    msg = problems(
        {
            "output.data.format": "PARQUET",
            "format.class": "avro",
            "time.interval": "WEEKLY",
            "input.data.format": "PROTOBUF",
        }
    )
    assert "format.class=avro and output.data.format=PARQUET disagree" in msg
    assert "time.interval=WEEKLY is invalid: must be HOURLY or DAILY" in msg
    assert (
        "value.converter.schema.registry.url is missing: required, the Schema Registry base URL "
        "for io.confluent.connect.protobuf.ProtobufConverter"
    ) in msg
    msg = problems({"compression.codec": "AVRO - snappy"})
    assert "compression.codec=AVRO - snappy is invalid: its format must match" in msg
    assert "compression.codec=JSON - zip is invalid" in problems(
        {"compression.codec": "JSON - zip"}
    )
    assert "kafka.api.key and kafka.api.secret must be set together" in problems(
        {"kafka.api.key": "k"}
    )


def test_cloud_input_formats() -> None:
    assert with_keys({"input.data.format": "BYTES"}).converters.value == "bytearray"
    assert with_keys({"input.data.format": "STRING"}).converters.value == "string"


# --------------------------------------------------------------------------- validation


def test_flush_size_message() -> None:
    msg = problems({"flush.size": "abc"})
    assert msg == (
        "invalid connector config (1 problem):\n"
        "  - flush.size=abc is invalid: Not a number of type INT"
    )


@pytest.mark.parametrize("value", ["0", "-5"])
def test_flush_size_below_one_rotates_every_record(value: str) -> None:
    # Confluent's flush.size has no validator; rotateOnSize (recordCount >= flushSize) then
    # commits a file per record, as flush.size=1 does.
    assert with_keys({"flush.size": value}).rotation.flush_size == 1


def test_required_keys_all_reported() -> None:
    with pytest.raises(ConfigError) as info:
        SinkConfig.from_mapping({})
    msg = str(info.value)
    assert msg.startswith("invalid connector config (7 problems):")
    assert "  - topics: Must configure one of topics or topics.regex" in msg
    assert "  - topics.regex: Must configure one of topics or topics.regex" in msg
    for key in (
        "kafka.bootstrap.servers",
        "checkpoint.location",
        "s3.bucket.name",
        "format.class",
        "flush.size",
    ):
        assert f"  - {key} is missing: required" in msg


def test_topics_and_regex() -> None:
    c = with_keys({"topics.regex": "orders-.*"}, drop=("topics",))
    assert c.topics.regex == "orders-.*" and c.topics.names == ()
    assert c.spark_kafka_options()["subscribePattern"] == "orders-.*"
    assert "topics and topics.regex are mutually exclusive options, but both are set." in (
        problems({"topics.regex": "x"})
    )
    assert "topics.regex=( is invalid" in problems({"topics.regex": "("}, drop=("topics",))
    assert "topics=a,b c is invalid: b c not a legal topic name" in problems({"topics": "a,b c"})


@pytest.mark.parametrize(
    ("key", "value", "expected"),
    [
        ("s3.part.size", "1024", "Part size must be at least: 5242880 bytes (5MB)"),
        ("s3.part.size", "2147483648", "Not a number of type INT"),
        ("s3.part.retries", "-1", "Value must be at least 0"),
        ("s3.retry.backoff.ms", "x", "Not a number of type LONG"),
        ("s3.compression.level", "10", "Value must be no more than 9"),
        ("s3.compression.type", "zstd", "Value must be one of: [none, gzip]"),
        ("avro.codec", "xz", "String must be one of: null, deflate, snappy, bzip2"),
        (
            "parquet.codec",
            "lzma",
            "Value must be one of: [none, gzip, snappy, lz4, brotli, lz4_raw, zstd, lzo]",
        ),
        ("filename.offset.zero.pad.width", "-1", "must be an integer >= 1"),
        (
            "filename.offset.zero.pad.width",
            "0",
            "must be an integer >= 1 (Confluent's file name format "
            '"%0" + width + "d" fails for 0)',
        ),
        ("s3.path.style.access.enabled", "yes", "Expected value to be either true or false"),
        ("s3.region", "US WEST", "must be an AWS region"),
        ("store.url", "ftp://x", "must be an http://, https:// or file:// URL"),
        ("behavior.on.null.values", "drop", "String must be one of: ignore, fail, write"),
        (
            "json.decimal.format",
            "HEX",
            "String must be one of (case insensitive): BASE64, NUMERIC",
        ),
        ("trigger", "often", 'must be "availableNow" or a processing-time interval'),
        ("max.offsets.per.trigger", "0", "must be an integer > 0"),
        ("starting.offsets", "middle", "must be earliest, latest or a JSON object"),
        ("file.delim", "", "must not be empty"),
        ("key.converter", "com.acme.C", "must be one of json, string, bytearray"),
    ],
)
def test_invalid_value_messages(key: str, value: str, expected: str) -> None:
    shown = value if value else "''"
    assert f"{key}={shown} is invalid: {expected}" in problems({key: value})


def test_gzip_only_for_json_and_bytearray() -> None:
    msg = problems({"format.class": "avro", "s3.compression.type": "gzip"})
    assert (
        "format.class, s3.compression.type: Compression Type gzip not valid for data format "
        "class: ( io.confluent.connect.s3.format.avro.AvroFormat )."
    ) in msg
    assert with_keys({"format.class": "bytearray", "s3.compression.type": "gzip"}).format.name == (
        "bytearray"
    )


def test_store_url_without_a_scheme_is_https() -> None:
    # S3Storage: "if (url.getScheme() == null) url = https://" + url
    c = with_keys({"store.url": "s3.eu-west-1.amazonaws.com"})
    assert c.s3.store_url == "https://s3.eu-west-1.amazonaws.com"
    assert with_keys({"store.url": "minio:9000/"}).s3.store_url == "https://minio:9000/"


def test_typed_values() -> None:
    c = with_keys(
        {
            "s3.region": "EU-Central-1",
            "store.url": "file:///tmp/out",
            "parquet.codec": "zstd",
            "behavior.on.null.values": "IGNORE",
            "trigger": "1 minute",
            "max.offsets.per.trigger": "5000",
            "commit.log.table": "main.ops.s3_commits",
            "schema.compatibility": "NONE",
        }
    )
    assert c.s3.region == "eu-central-1" and c.s3.store_url == "file:///tmp/out"
    assert c.format.parquet_codec == "zstd" and c.partitioner.behavior_on_null_values == "ignore"
    assert (c.streaming.trigger, c.streaming.trigger_interval_ms) == ("60 seconds", 60000)
    assert c.streaming.max_offsets_per_trigger == 5000
    assert c.streaming.commit_log_table == "main.ops.s3_commits"


@pytest.mark.parametrize(
    ("text", "spark", "ms"),
    [
        ("availableNow", "availableNow", None),
        ("AvailableNow", "availableNow", None),
        ("30s", "30 seconds", 30000),
        ("10 seconds", "10 seconds", 10000),
        ("500ms", "500 milliseconds", 500),
        ("2 hours", "7200 seconds", 7200000),
    ],
)
def test_trigger_forms(text: str, spark: str, ms: int | None) -> None:
    c = with_keys({"trigger": text})
    assert (c.streaming.trigger, c.streaming.trigger_interval_ms) == (spark, ms)


def test_unknown_keys_listed() -> None:
    msg = problems({"flush.sise": "3", "zzz": "1", "value.converter.foo": "x"})
    assert (
        "unknown keys (not Confluent S3 sink or s3connect keys): "
        "flush.sise, value.converter.foo, zzz" in msg
    )


@pytest.mark.parametrize(
    ("key", "value"),
    [
        (
            "s3.credentials.provider.class",
            "com.amazonaws.auth.EnvironmentVariableCredentialsProvider",
        ),
        ("parquet.codec", "lzo"),
        ("parquet.codec", "lz4_raw"),
    ],
)
def test_later_features_not_supported_yet(key: str, value: str) -> None:
    assert f"{key}={value} is not supported yet" in problems({key: value})


@pytest.mark.parametrize(
    ("value", "expected"),
    [("NONE", "NONE"), ("BACKWARD", "BACKWARD"), ("FORWARD", "FORWARD"), (" FULL ", "FULL")],
)
def test_schema_compatibility_modes(value: str, expected: str) -> None:
    c = with_keys({"schema.compatibility": value})
    assert c.converters.schema_compatibility == expected
    assert c.describe()["schema.compatibility"] == expected


@pytest.mark.parametrize(
    ("key", "value", "spelled"),
    [
        ("schema.compatibility", "backward", "BACKWARD"),
        ("avro.codec", "SNAPPY", "snappy"),
        ("parquet.codec", "GZIP", "gzip"),
        ("s3.compression.type", "Gzip", "gzip"),
    ],
)
def test_case_sensitive_choices_name_the_spelling(key: str, value: str, spelled: str) -> None:
    # StorageSchemaCompatibility.getCompatibility reads the exact name (else NONE, silently);
    # ValidString, ParquetCodecRecommender and CompressionTypeValidator compare exactly.
    assert f"(case-sensitive, as Confluent reads it: {spelled!r})" in problems({key: value})


def test_schema_compatibility_rejects_unknown_mode() -> None:
    assert (
        "schema.compatibility=TRANSITIVE is invalid: must be one of NONE, BACKWARD, FORWARD, FULL"
        in problems({"schema.compatibility": "TRANSITIVE"})
    )


def test_later_keys_at_confluent_default_accepted() -> None:
    c = with_keys(
        {
            "store.kafka.keys": "false",
            "s3.ssea.name": "",
            "errors.tolerance": "none",
            "errors.log.enable": "false",
            "behavior.on.null.values": "fail",
            "value.converter.decimal.format": "BASE64",
        }
    )
    assert c.partitioner.behavior_on_null_values == "fail"


def test_keys_headers_and_tombstones() -> None:
    c = with_keys(
        {
            "store.kafka.keys": "true",
            "store.kafka.headers": "true",
            "keys.format.class": "io.confluent.connect.s3.format.bytearray.ByteArrayFormat",
            "headers.format.class": "json",
            "behavior.on.null.values": "write",
            "tombstone.encoded.partition": "deleted",
        }
    )
    assert (c.keys_headers.store_kafka_keys, c.keys_headers.store_kafka_headers) == (True, True)
    assert (c.keys_headers.keys_format, c.keys_headers.headers_format) == ("bytearray", "json")
    assert (c.partitioner.behavior_on_null_values, c.keys_headers.tombstone_encoded_partition) == (
        "write",
        "deleted",
    )
    d = c.describe()
    assert d["keys.format.class"] == "io.confluent.connect.s3.format.bytearray.ByteArrayFormat"
    assert d["headers.format.class"] == "io.confluent.connect.s3.format.json.JsonFormat"
    assert d["tombstone.encoded.partition"] == "deleted"
    defaults = with_keys({})
    assert (
        defaults.keys_headers.store_kafka_keys,
        defaults.keys_headers.keys_format,
        defaults.keys_headers.headers_format,
    ) == (
        False,
        "avro",
        "avro",
    )
    assert defaults.keys_headers.tombstone_encoded_partition == "tombstone"


def test_keys_headers_rules_as_confluent_validator() -> None:
    msg = problems({"store.kafka.headers": "true", "headers.format.class": "bytearray"})
    assert "headers.format.class=bytearray is invalid" in msg
    assert "ByteArrayFormat cannot hold headers" in msg
    msg = problems({"behavior.on.null.values": "write"})
    assert "Writing Kafka record keys to storage is mandatory" in msg
    msg = problems(
        {"store.kafka.keys": "true", "s3.compression.type": "gzip", "format.class": "json"}
    )
    assert "Compression Type gzip not valid for keys format class" in msg
    assert "behavior.on.null.values=drop is invalid" in problems(
        {"behavior.on.null.values": "drop"}
    )


def test_sr_converter_with_registry_url_is_valid() -> None:
    c = with_keys(
        {
            "value.converter": "io.confluent.connect.avro.AvroConverter",
            "value.converter.schema.registry.url": "http://sr:8081",
        }
    )
    assert c.converters.value == "avro"
    assert c.registry.value is not None
    assert c.registry.value.url == "http://sr:8081"


def test_kafka_options() -> None:
    c = with_keys(
        {
            "kafka.security.protocol": "SASL_SSL",
            "kafka.sasl.jaas.config": 'x password="pw";',
            "consumer.override.max.poll.records": "100",
            "kafka.auto.offset.reset": "latest",
        }
    )
    assert dict(c.kafka.options) == {
        "max.poll.records": "100",
        "security.protocol": "SASL_SSL",
        "sasl.jaas.config": 'x password="pw";',
    }
    assert c.kafka.starting_offsets == "latest"
    assert c.spark_kafka_options() == {
        "kafka.bootstrap.servers": "localhost:9092",
        "kafka.max.poll.records": "100",
        "kafka.security.protocol": "SASL_SSL",
        "kafka.sasl.jaas.config": 'x password="pw";',
        "subscribe": "orders",
        "startingOffsets": "latest",
    }
    assert "kafka.enable.auto.commit=true is invalid: Spark's Kafka source sets this" in problems(
        {"kafka.enable.auto.commit": "true"}
    )


# --------------------------------------------------------------------------- secrets


def test_secrets_masked_in_repr_str_and_describe() -> None:
    c = with_keys(
        {
            "aws.access.key.id": "AKIA",
            "aws.secret.access.key": "TOPSECRET",
            "kafka.sasl.jaas.config": 'password="JAASPW";',
            "kafka.ssl.key.password": "KEYPW",
        }
    )
    assert c.s3.secret_access_key == "TOPSECRET"
    for text in (repr(c), str(c)):
        assert "TOPSECRET" not in text and "JAASPW" not in text and "KEYPW" not in text
        assert "aws.secret.access.key='[hidden]'" in text
    d = c.describe()
    assert d["aws.secret.access.key"] == HIDDEN
    assert d["kafka.sasl.jaas.config"] == HIDDEN
    assert d["kafka.ssl.key.password"] == HIDDEN
    assert d["aws.access.key.id"] == "AKIA"
    assert c.describe(masked=False)["aws.secret.access.key"] == "TOPSECRET"


def test_secrets_never_in_error_messages() -> None:
    msg = problems(
        {
            "aws.secret.access.key": "TOPSECRET",
            "s3.sse.customer.key": "SSEKEY",
            "kafka.api.secret": "APISECRET",
        }
    )
    assert "TOPSECRET" not in msg and "SSEKEY" not in msg and "APISECRET" not in msg
    assert "s3.sse.customer.key=[hidden] is invalid: must be a base64-encoded 256-bit key" in msg


# --------------------------------------------------------------------------- describe


def test_describe_uses_confluent_names_and_round_trips() -> None:
    c = SinkConfig.from_file(DATA / "sink-flat.json")
    d = c.describe()
    assert d["format.class"] == "io.confluent.connect.s3.format.avro.AvroFormat"
    assert d["partitioner.class"] == (
        "io.confluent.connect.storage.partitioner.TimeBasedPartitioner"
    )
    assert d["key.converter"] == "org.apache.kafka.connect.storage.StringConverter"
    assert d["flush.size"] == "1000"
    assert d["s3.path.style.access.enabled"] == "true"
    assert d["topics"] == "orders,payments"
    assert "store.url" not in d
    assert SinkConfig.from_mapping(c.describe(masked=False)) == c
    cloud = SinkConfig.from_file(DATA / "cloud.json")
    assert SinkConfig.from_mapping(cloud.describe(masked=False)) == cloud


def test_path_format_checked_with_locale_and_zone() -> None:
    time = {
        "partitioner.class": "time",
        "partition.duration.ms": "3600000",
        "timezone": "Europe/Paris",
    }
    msg = problems({**time, "path.format": "MMM", "locale": "xx"})
    assert "path.format=MMM is invalid: locale 'xx' has no built-in month/day/era names" in msg
    assert (
        with_keys({**time, "path.format": "MMM", "locale": "fr"}).partitioner.path_format == "MMM"
    )
    msg = problems({**time, "path.format": "'h'=HH/QQ", "locale": "en"})
    assert "path.format='h'=HH/QQ is invalid: Illegal pattern component: QQ" in msg


# --------------------------------------------------------------------------- S3 security options

SSE_C_B64 = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8="  # bytes 0..31
ASSUME_ROLE_CLASS = "io.confluent.connect.s3.auth.AwsAssumeRoleCredentialsProvider"
STS = "s3.credentials.provider.sts."
DEFAULT_CHAIN_CLASS = "com.amazonaws.auth.DefaultAWSCredentialsProviderChain"


def test_s3_security_defaults_are_confluents() -> None:
    c = build()
    assert (c.s3.ssea_name, c.s3.sse_kms_key_id, c.s3.sse_customer_key) == ("", "", None)
    assert c.s3.acl_canned is None
    assert c.s3.object_tagging is False
    assert c.s3.object_behavior_on_tagging_error == "ignore"
    assert c.s3.credentials_provider == "default"
    d = c.describe()
    assert d["s3.credentials.provider.class"] == DEFAULT_CHAIN_CLASS
    assert d["s3.object.tagging"] == "false"


@pytest.mark.parametrize("ssea", ["AES256", "aws:kms", "aws:kms:dsse", ""])
def test_ssea_allowed_values(ssea: str) -> None:
    assert with_keys({"s3.ssea.name": ssea}).s3.ssea_name == ssea


@pytest.mark.parametrize("acl", ["log-delivery-write", " ", "Private"])
def test_canned_acls_outside_the_sdks_object_acls_are_refused(acl: str) -> None:
    assert f"s3.acl.canned={acl} is invalid: Value must be one of: [private" in problems(
        {"s3.acl.canned": acl}
    )


@pytest.mark.parametrize("value", ["a,,b", "a,", ",a", ".a", "a..b", "a. .b", " "])
def test_partition_field_names_are_validated_as_confluent_does(value: str) -> None:
    # PartitionerConfig.PartitionFieldNameValidator, for every partitioner (a blank value is
    # no list at all)
    keys = {"partitioner.class": "field", "partition.field.name": value}
    if value.strip():
        assert "partition.field.name=" in problems(keys) and "field name" in problems(keys)
    else:
        assert "partition.field.name is missing" in problems(keys)
    assert with_keys({"partition.field.name": "a.b, c"}).partitioner.field_names == ("a.b", "c")


@pytest.mark.parametrize("ssea", ["aes256", "KMS", "aws:kms:dsse2"])
def test_ssea_is_validated_case_sensitively(ssea: str) -> None:
    assert (
        f"s3.ssea.name={ssea} is invalid: String must be one of: , AES256, aws:kms, aws:kms:dsse"
        in problems({"s3.ssea.name": ssea})
    )


def test_kms_key_id_with_kms_and_ignored_otherwise() -> None:
    c = with_keys({"s3.ssea.name": "aws:kms", "s3.sse.kms.key.id": "alias/k"})
    assert c.s3.sse_kms_key_id == "alias/k" and c.ignored_keys == ()
    assert with_keys({"s3.sse.kms.key.id": "alias/k"}).ignored_keys == ("s3.sse.kms.key.id",)


def test_sse_customer_key_validated_and_masked() -> None:
    c = with_keys({"s3.ssea.name": "AES256", "s3.sse.customer.key": SSE_C_B64})
    assert c.s3.sse_customer_key == SSE_C_B64
    for text in (repr(c), str(c), str(c.describe())):
        assert SSE_C_B64 not in text
    assert c.describe()["s3.sse.customer.key"] == HIDDEN
    assert SinkConfig.from_mapping(c.describe(masked=False)) == c
    assert with_keys({"s3.sse.customer.key": SSE_C_B64}).ignored_keys == ("s3.sse.customer.key",)
    short = "c2hvcnQta2V5"  # "short-key"
    msg = problems({"s3.ssea.name": "AES256", "s3.sse.customer.key": short})
    assert "s3.sse.customer.key=[hidden] is invalid: must be a base64-encoded 256-bit key" in msg
    assert short not in msg


@pytest.mark.parametrize(
    "acl",
    [
        "private",
        "public-read",
        "public-read-write",
        "authenticated-read",
        "bucket-owner-read",
        "bucket-owner-full-control",
        "aws-exec-read",
    ],
)
def test_canned_acls_accepted(acl: str) -> None:
    c = with_keys({"s3.acl.canned": acl})
    assert c.s3.acl_canned == acl and c.describe()["s3.acl.canned"] == acl


@pytest.mark.parametrize("acl", ["Private", "public", "bucket-owner"])
def test_canned_acl_rejected(acl: str) -> None:
    msg = problems({"s3.acl.canned": acl})
    assert f"s3.acl.canned={acl} is invalid: Value must be one of: [private, public-read," in msg


def test_object_tagging_keys() -> None:
    c = with_keys({"s3.object.tagging": "true", "s3.object.behavior.on.tagging.error": "FAIL"})
    assert c.s3.object_tagging is True and c.s3.object_behavior_on_tagging_error == "fail"
    assert (
        "s3.object.tagging=yes is invalid: Expected value to be either true or false"
        in problems({"s3.object.tagging": "yes"})
    )
    assert (
        "s3.object.behavior.on.tagging.error=skip is invalid: String must be one of: ignore, fail"
        in (problems({"s3.object.behavior.on.tagging.error": "skip"}))
    )


@pytest.mark.parametrize(
    ("value", "why"),
    [
        ("5242880", None),
        ("2147483647", None),
        ("5242879", "Part size must be at least: 5242880 bytes (5MB)"),
        ("2147483648", "Not a number of type INT"),
    ],
)
def test_part_size_bounds_are_confluents_part_range(value: str, why: str | None) -> None:
    """PartRange: at least 5 MiB, at most Integer.MAX_VALUE (the INT type's limit)."""
    if why is None:
        assert with_keys({"s3.part.size": value}).s3.part_size == int(value)
    else:
        assert f"s3.part.size={value} is invalid: {why}" in problems({"s3.part.size": value})


def test_assume_role_provider() -> None:
    c = with_keys(
        {
            "s3.credentials.provider.class": ASSUME_ROLE_CLASS,
            STS + "role.arn": "arn:aws:iam::123456789012:role/writer",
            STS + "role.session.name": "sink-1",
            STS + "role.external.id": "ext-42",
            STS + "region": "eu-west-1",
            "sts.endpoint.url": "http://127.0.0.1:9000",
        }
    )
    assert c.s3.credentials_provider == "assume_role"
    assert (
        c.s3.sts_role_arn,
        c.s3.sts_role_session_name,
        c.s3.sts_role_external_id,
        c.s3.sts_region,
    ) == (
        "arn:aws:iam::123456789012:role/writer",
        "sink-1",
        "ext-42",
        "eu-west-1",
    )
    assert c.describe()["s3.credentials.provider.class"] == ASSUME_ROLE_CLASS
    assert SinkConfig.from_mapping(c.describe(masked=False)) == c


def test_assume_role_requires_its_keys() -> None:
    msg = problems({"s3.credentials.provider.class": ASSUME_ROLE_CLASS})
    for key in ("role.arn", "role.session.name", "role.external.id"):
        assert (
            f"{STS}{key} is missing: Missing required configuration "
            f'"sts.{key}" which has no default value.'
        ) in msg


def test_assume_role_values_validated() -> None:
    msg = problems(
        {
            "s3.credentials.provider.class": ASSUME_ROLE_CLASS,
            STS + "role.arn": "writer",
            STS + "role.session.name": "has space",
            STS + "role.external.id": "x",
            "sts.endpoint.url": "localhost:9000",
        }
    )
    assert f"{STS}role.arn=writer is invalid: must be a role ARN" in msg
    assert f"{STS}role.session.name=has space is invalid" in msg
    assert f"{STS}role.external.id=x is invalid" in msg
    assert "sts.endpoint.url=localhost:9000 is invalid" in msg


def test_sts_keys_ignored_with_default_chain() -> None:
    c = with_keys(
        {
            "s3.credentials.provider.class": DEFAULT_CHAIN_CLASS,
            STS + "role.arn": "arn:aws:iam::123456789012:role/writer",
        }
    )
    assert c.s3.credentials_provider == "default"
    assert c.ignored_keys == (STS + "role.arn",)


def test_other_credentials_providers_not_supported_yet() -> None:
    msg = problems(
        {"s3.credentials.provider.class": "com.amazonaws.auth.profile.ProfileCredentialsProvider"}
    )
    assert (
        "s3.credentials.provider.class=com.amazonaws.auth.profile.ProfileCredentialsProvider"
        in (msg)
    )
    assert "is not supported yet" in msg


# --------------------------------------------------------------------------- errors / DLQ


def test_error_handling_defaults_are_kafka_connects() -> None:
    c = build()
    assert (c.errors.tolerance, c.errors.log_enable, c.errors.log_include_messages) == (
        "none",
        False,
        False,
    )
    assert (
        c.errors.dlq_topic,
        c.errors.dlq_replication_factor,
        c.errors.dlq_context_headers,
        c.errors.dlq_table,
    ) == (
        None,
        3,
        False,
        None,
    )


def test_errors_tolerance_is_spelled_as_kafka_spells_it() -> None:
    # ConnectorConfig validates it with ConfigDef.ValidString.in("none", "all"): case-sensitive.
    with pytest.raises(ConfigError, match=r"errors.tolerance=ALL is invalid: must be one of none"):
        with_keys({"errors.tolerance": "ALL"})
    assert with_keys({"errors.tolerance": " all "}).errors.tolerance == "all"


def test_error_handling_keys() -> None:
    c = with_keys(
        {
            "errors.tolerance": "all",
            "errors.log.enable": "true",
            "errors.log.include.messages": "true",
            "errors.deadletterqueue.topic.name": "dlq-s3-sink",
            "errors.deadletterqueue.topic.replication.factor": 1,
            "errors.deadletterqueue.context.headers.enable": True,
            "dlq.table": "/tmp/dlq",
        }
    )
    assert c.errors.tolerance == "all"
    assert c.errors.log_enable and c.errors.log_include_messages and c.errors.dlq_context_headers
    assert (c.errors.dlq_topic, c.errors.dlq_replication_factor, c.errors.dlq_table) == (
        "dlq-s3-sink",
        1,
        "/tmp/dlq",
    )
    d = c.describe()
    assert d["errors.tolerance"] == "all"
    assert d["errors.deadletterqueue.topic.name"] == "dlq-s3-sink"
    assert d["dlq.table"] == "/tmp/dlq"
    assert SinkConfig.from_mapping({**d, "checkpoint.location": "/tmp/ckpt"}) == c


@pytest.mark.parametrize(
    ("extra", "expected"),
    [
        (
            {"errors.tolerance": "some"},
            "errors.tolerance=some is invalid: must be one of none, all",
        ),
        (
            {"errors.deadletterqueue.topic.replication.factor": "0"},
            "errors.deadletterqueue.topic.replication.factor=0 is invalid: must be a positive",
        ),
        (
            {"errors.deadletterqueue.topic.name": "orders"},
            "topics=orders is invalid: The DLQ topic 'orders' may not be included in the list "
            "of topics ('topics=[orders]') consumed by the connector",
        ),
        (
            {"errors.deadletterqueue.topic.name": "bad topic"},
            "errors.deadletterqueue.topic.name=bad topic is invalid: must be a legal topic name",
        ),
        (
            {"errors.log.enable": "yes"},
            "errors.log.enable=yes is invalid: Expected value to be either true or false",
        ),
    ],
)
def test_error_handling_invalid(extra: dict[str, object], expected: str) -> None:
    assert expected in problems(extra)


def test_dlq_topic_matching_topics_regex_is_refused() -> None:
    text = problems(
        {"topics.regex": "orders.*", "errors.deadletterqueue.topic.name": "orders-dlq"},
        drop=("topics",),
    )
    assert (
        "topics.regex=orders.* is invalid: The DLQ topic 'orders-dlq' may not be matched by the "
        "regex for the topics ('topics.regex=orders.*') consumed by the connector"
    ) in text


def test_extra_object_tags() -> None:
    c = with_keys(
        {"s3.object.tagging": "true", "s3.object.tagging.key.value.pairs": "a:1, b : x:y"}
    )
    # Confluent's getS3Tag: split(":"), then (kv[0], kv[1]): "b:x:y" tags b with "x"
    assert c.s3.object_tagging_extra == (("a", "1"), ("b", "x"))
    assert c.describe()["s3.object.tagging.key.value.pairs"] == "a:1,b:x"
    assert build().s3.object_tagging_extra == ()
    # getS3Tag puts each pair into a HashMap: a key given again takes its later value
    again = with_keys({"s3.object.tagging.key.value.pairs": "a:1,b:2,a:3"})
    assert again.s3.object_tagging_extra == (("b", "2"), ("a", "3"))


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("novalue", "'novalue' is not key:value"),
        (":v", "':v' is not key:value"),
        ("startOffset:9", "tag 'startOffset' is an offset tag"),
        (",".join(f"k{i}:v" for i in range(8)), "at most 7 extra tags"),
    ],
)
def test_extra_object_tags_invalid(value: str, expected: str) -> None:
    text = problems({"s3.object.tagging.key.value.pairs": value})
    assert f"s3.object.tagging.key.value.pairs={value} is invalid" in text
    assert expected in text


# --------------------------------------------------------------------------- config providers


def test_the_overviews_secrets_example_resolves_and_stays_hidden(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("S3CONNECT_SECRET_AWS_ACCESS_KEY", "AKIA-SENTINEL")
    monkeypatch.setenv("S3CONNECT_SECRET_AWS_SECRET_KEY", "secret-SENTINEL")
    c = with_keys(
        {
            "aws.access.key.id": "${secrets:aws/access-key}",
            "aws.secret.access.key": "${secrets:aws/secret-key}",
        }
    )
    assert (c.s3.access_key_id, c.s3.secret_access_key) == ("AKIA-SENTINEL", "secret-SENTINEL")
    shown = c.describe(masked=True)
    assert shown["aws.secret.access.key"] == HIDDEN
    assert "secret-SENTINEL" not in repr(c) and "secret-SENTINEL" not in str(shown)


def test_env_file_and_directory_providers_and_a_secret_scope(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SINK_BUCKET", "from-env")
    (tmp_path / "kafka.properties").write_text("bootstrap=broker:9093\n")
    (tmp_path / "dir").mkdir()
    (tmp_path / "dir" / "topics").write_text("a,b")
    scope = {("kafka", "jaas"): "org.apache.kafka.common.security.plain.PlainLoginModule required;"}
    c = SinkConfig.from_mapping(
        {
            **MINIMAL,
            "s3.bucket.name": "${env:SINK_BUCKET}",
            "kafka.bootstrap.servers": f"${{file:{tmp_path}/kafka.properties:bootstrap}}",
            "topics": f"${{directory:{tmp_path}/dir:topics}}",
            "kafka.sasl.jaas.config": "${secrets:kafka/jaas}",
        },
        secret_lookup=lambda s, k: scope[(s, k)],
    )
    assert c.s3.bucket_name == "from-env"
    assert c.kafka.bootstrap_servers == "broker:9093"
    assert c.topics.names == ("a", "b")
    assert c.kafka.options["sasl.jaas.config"].startswith("org.apache.kafka")
    assert c.describe()["kafka.sasl.jaas.config"] == HIDDEN


def test_an_unresolvable_reference_fails_naming_key_and_provider_not_the_value(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("S3CONNECT_SECRET_AWS_SECRET_KEY", raising=False)
    monkeypatch.setenv("S3CONNECT_SECRETS_DIR", "/nonexistent")
    monkeypatch.setenv("PARTLY", "visible-SENTINEL")
    text = problems(
        {
            "aws.secret.access.key": "${secrets:aws/secret-key}",
            "s3.bucket.name": "${env:NOT_SET_ANYWHERE}",
            "topics": "${env:PARTLY}-${env:ALSO_NOT_SET}",
        }
    )
    assert "aws.secret.access.key" in text and "secrets" in text
    assert "s3.bucket.name" in text and "NOT_SET_ANYWHERE" in text
    assert "topics" in text and "visible-SENTINEL" not in text


def test_worker_style_provider_keys_are_accepted_and_not_config_keys(tmp_path: Path) -> None:
    (tmp_path / "s3.properties").write_text("bucket=from-file\n")
    c = with_keys(
        {
            "config.providers": "mine",
            "config.providers.mine.class": (
                "org.apache.kafka.common.config.provider.FileConfigProvider"
            ),
            "config.providers.mine.param.allowed.paths": str(tmp_path),
            "s3.bucket.name": f"${{mine:{tmp_path}/s3.properties:bucket}}",
        }
    )
    assert c.s3.bucket_name == "from-file"
    assert not any(k.startswith("config.providers") for k in c.describe())


# --------------------------------------------------------------------------- transforms

ROUTER = "org.apache.kafka.connect.transforms.RegexRouter"


def _router(regex: str, replacement: str) -> dict[str, object]:
    return {
        "transforms": "route",
        "transforms.route.type": ROUTER,
        "transforms.route.regex": regex,
        "transforms.route.replacement": replacement,
    }


def test_a_transform_chain_is_read_checked_and_described() -> None:
    keys = {
        **_router("(.*)", "archive-$1"),
        "transforms": "mask,route",
        "transforms.mask.type": "org.apache.kafka.connect.transforms.MaskField$Value",
        "transforms.mask.fields": "ssn",
        "transforms.mask.predicate": "notTombstone",
        "predicates": "notTombstone",
        "predicates.notTombstone.type": (
            "org.apache.kafka.connect.transforms.predicates.RecordIsTombstone"
        ),
    }
    c = with_keys(keys)
    assert len(c.transforms.chain()) == 2
    assert {k: v for k, v in c.describe().items() if k.startswith(("transforms", "pred"))} == {
        k: str(v) for k, v in keys.items()
    }


def test_transform_problems_name_their_keys() -> None:
    text = problems({"transforms": "a,b", "transforms.b.type": "com.example.Nope"})
    assert 'Missing required configuration "transforms.a.type"' in text
    assert (
        "Invalid value com.example.Nope for configuration transforms.b.type: Class "
        "com.example.Nope could not be found." in text
    )


@pytest.mark.parametrize(
    ("extra", "drop", "clash"),
    [
        ({"topics": "a,b", **_router(".*", "all")}, (), "topics 'a' and 'b' can both become 'all'"),
        ({"topics": "a,all", **_router("a", "all")}, (), "can both become 'all'"),
        ({"topics.regex": "a.*", **_router("(.*)", "x-$1")}, ("topics",), "topics.regex"),
        (
            {
                "topics": "a,b",
                "transforms": "t",
                "transforms.t.type": "io.confluent.connect.transforms.ExtractTopic$Value",
                "transforms.t.field": "table",
            },
            (),
            "the 2 topics",
        ),
    ],
)
def test_a_rename_that_can_give_two_partitions_one_object_name_is_refused(
    extra: dict[str, object], drop: tuple[str, ...], clash: str
) -> None:
    text = problems(extra, drop)
    assert "objects are named after the renamed topic" in text and clash in text


@pytest.mark.parametrize(
    "extra",
    [
        {"topics": "a,b", **_router("(.*)", "archive-$1")},
        {"topics": "orders", **_router(".*", "all")},  # one topic: its partitions stay apart
        {
            "topics": "a,b",
            "transforms": "daily",
            "transforms.daily.type": "org.apache.kafka.connect.transforms.TimestampRouter",
        },  # ${topic}-${timestamp}, yyyyMMdd: one length, so topics stay apart
    ],
)
def test_renames_that_keep_topic_partitions_apart_are_accepted(extra: dict[str, object]) -> None:
    assert with_keys(extra).transforms.chain().renames_topics


# --------------------------------------------------------------------------- more Confluent keys


def test_rotate_file_on_partition_change_is_a_confluent_key() -> None:
    c = with_keys({"rotate.file.on.partition.change": "FALSE"})
    assert c.rotation.rotate_file_on_partition_change is False
    assert c.describe()["rotate.file.on.partition.change"] == "false"
    assert build().describe()["rotate.file.on.partition.change"] == "true"
    assert (
        "rotate.file.on.partition.change=yes is invalid: Expected value to be either true or false"
        in problems({"rotate.file.on.partition.change": "yes"})
    )


@pytest.mark.parametrize(("value", "expected"), [("-1", -1), ("1", 1), (" 5 ", 5)])
def test_partitioner_max_open_files(value: str, expected: int) -> None:
    c = with_keys({"partitioner.max.open.files": value})
    assert c.rotation.partitioner_max_open_files == expected
    assert c.describe()["partitioner.max.open.files"] == str(expected)


@pytest.mark.parametrize("value", ["0", "-2", "x", "2147483648"])
def test_partitioner_max_open_files_refuses_what_would_loop_or_is_no_int(value: str) -> None:
    msg = problems({"partitioner.max.open.files": value})
    assert (
        f"partitioner.max.open.files={value} is invalid: must be -1 (no limit) or an integer >= 1"
        in msg
    )
    assert "commit no files forever" in msg


def test_report_null_values_to_dlq_and_the_error_reporter() -> None:
    c = with_keys({"report.null.values.to.dlq": "false"})
    assert c.errors.report_null_values_to_dlq is False
    assert c.describe()["report.null.values.to.dlq"] == "false"
    assert build().describe()["report.null.values.to.dlq"] == "true"
    assert not build().errors.has_reporter  # errors.tolerance alone gives no reporter
    for reporter in (
        {"errors.deadletterqueue.topic.name": "dlq"},
        {"errors.log.enable": "true"},
        {"dlq.table": "main.s3connect.dlq"},
    ):
        assert with_keys(reporter).errors.has_reporter
    assert "report.null.values.to.dlq=1 is invalid" in problems({"report.null.values.to.dlq": "1"})


@pytest.mark.parametrize("value", ["NONE", "PREFIX", "SUFFIX", " SUFFIX "])
def test_schema_partition_affix_type(value: str) -> None:
    c = with_keys({"s3.schema.partition.affix.type": value})
    assert c.partitioner.schema_partition_affix_type == value.strip()
    assert c.describe()["s3.schema.partition.affix.type"] == value.strip()


@pytest.mark.parametrize("value", ["prefix", "none", "BOTH", "Suffix"])
def test_schema_partition_affix_type_is_case_sensitive(value: str) -> None:
    # testSchemaPartitionerAffixTypeExceptionOnWrongValue: ValidString.in(SUFFIX, PREFIX, NONE).
    msg = problems({"s3.schema.partition.affix.type": value})
    assert (
        f"s3.schema.partition.affix.type={value} is invalid: "
        "String must be one of: SUFFIX, PREFIX, NONE"
    ) in msg
    assert "not supported yet" not in msg


def test_avro_data_keys_enhanced_by_default_and_optional_map_keys() -> None:
    c = with_keys({"allow.optional.map.keys": "true", "enhanced.avro.schema.support": "false"})
    assert c.format.allow_optional_map_keys is True
    assert c.format.enhanced_avro_schema_support is False
    d = c.describe()
    assert (d["allow.optional.map.keys"], d["enhanced.avro.schema.support"]) == ("true", "false")
    defaults = build().describe()
    assert (defaults["allow.optional.map.keys"], defaults["enhanced.avro.schema.support"]) == (
        "false",
        "true",
    )


def test_schemas_cache_config_and_its_old_name() -> None:
    assert with_keys({"schemas.cache.config": "50"}).format.schema_cache_size == 50
    assert with_keys({"schema.cache.size": "60"}).format.schema_cache_size == 60
    both = with_keys({"schemas.cache.config": "50", "schema.cache.size": "60"})
    assert both.format.schema_cache_size == 50  # the current name wins
    assert both.ignored_keys == ("schema.cache.size",)
    d = both.describe()
    assert d["schemas.cache.config"] == "50" and "schema.cache.size" not in d
    assert with_keys({"schemas.cache.config": "-5"}).format.schema_cache_size == -5  # Kafka INT
    assert "schemas.cache.config=many is invalid: Not a number of type INT" in problems(
        {"schemas.cache.config": "many"}
    )


def test_keys_without_effect_max_write_duration_and_schema_generator() -> None:
    generator = "io.confluent.connect.storage.hive.schema.DefaultSchemaGenerator"
    c = with_keys({"max.write.duration.ms": "60000", "schema.generator.class": generator})
    assert c.ignored_keys == ("max.write.duration.ms", "schema.generator.class")
    assert "max.write.duration.ms" not in c.describe()
    assert "max.write.duration.ms=soon is invalid: Not a number of type LONG" in problems(
        {"max.write.duration.ms": "soon"}
    )


def test_new_keys_round_trip_through_describe() -> None:
    c = with_keys(
        {
            "rotate.file.on.partition.change": "false",
            "partitioner.max.open.files": "7",
            "report.null.values.to.dlq": "false",
            "s3.schema.partition.affix.type": "SUFFIX",
            "allow.optional.map.keys": "true",
            "enhanced.avro.schema.support": "false",
            "schemas.cache.config": "10",
        }
    )
    assert SinkConfig.from_mapping(c.describe(masked=False)) == c


def test_no_config_group_shows_a_secret_in_its_repr() -> None:
    c = with_keys(
        {
            "aws.secret.access.key": "SENTINEL-s3",
            "s3.ssea.name": "AES256",
            "s3.sse.customer.key": "MDEyMzQ1Njc4OTAxMjM0NTY3ODkwMTIzNDU2Nzg5MDE=",
            "s3.proxy.url": "http://proxy:3128",
            "s3.proxy.password": "SENTINEL-proxy",
            "kafka.sasl.jaas.config": "PlainLoginModule required password='SENTINEL-jaas';",
            "value.converter": "io.confluent.connect.avro.AvroConverter",
            "value.converter.schema.registry.url": "http://registry:8081",
            "value.converter.basic.auth.credentials.source": "USER_INFO",
            "value.converter.basic.auth.user.info": "u:SENTINEL-info",
        }
    )
    shown = repr([c.s3, c.kafka, c.registry, c])
    assert "SENTINEL" not in shown and "MDEyMzQ1" not in shown


def test_connect_meta_data_reaches_the_writers_avro_data() -> None:
    keys = {"format.class": "avro", "connect.meta.data": "false"}
    assert with_keys(keys).format.avro_data.connect_meta_data is False
    assert with_keys({"format.class": "avro"}).format.avro_data.connect_meta_data is True


@pytest.mark.parametrize(
    ("keys", "expected"),
    [
        (
            {"s3.wan.mode": "maybe"},
            "s3.wan.mode=maybe is invalid: Expected value to be either true or false",
        ),
        (
            {"s3.send.digest": "x"},
            "s3.send.digest=x is invalid: Expected value to be either true or false",
        ),
        ({"retry.backoff.ms": "abc"}, "retry.backoff.ms=abc is invalid: Not a number of type LONG"),
        (
            {"s3.elastic.buffer.init.capacity": "10"},
            "init.capacity=10 is invalid: Value must be at least 4096",
        ),
        ({"s3.wan.mode": "true"}, "accelerate mode and path style access are being enabled"),
    ],
)
def test_keys_without_effect_keep_confluents_types_and_checks(
    keys: dict[str, str], expected: str
) -> None:
    # Connect refuses these configs (ConfigDef types, Range.atLeast(4096),
    # S3SinkConnectorValidator.validateWanModeAndPathStyleCompatibility)
    assert expected in problems(keys)
    assert problems(keys).count("\n  - ") == 1


def test_wan_mode_with_virtual_hosted_style_is_accepted_without_effect() -> None:
    c = with_keys({"s3.wan.mode": "true", "s3.path.style.access.enabled": "false"})
    assert "s3.wan.mode" in c.ignored_keys


@pytest.mark.parametrize(("value", "expected"), [("-1", -1), ("-5", -1), ("0", 0), ("250", 250)])
def test_errors_retry_timeout_negative_means_forever(value: str, expected: int) -> None:
    # Kafka's LONG without a validator; RetryWithToleranceOperator: "errorRetryTimeout >= 0 ?
    # startTime + errorRetryTimeout : Long.MAX_VALUE"
    assert with_keys({"errors.retry.timeout": value}).errors.retry_timeout_ms == expected


def test_json_converter_config_keys() -> None:
    """JsonConverterConfig's keys under the converter prefixes: replace.null.with.default is
    used, decimal.format (what the converter writes) and schemas.cache.size have no effect."""
    c = with_keys(
        {
            "value.converter.replace.null.with.default": "false",
            "value.converter.decimal.format": "NuMeRiC",
            "key.converter.schemas.cache.size": "5",
        }
    )
    assert c.converters.value_replace_null_with_default is False
    assert c.converters.key_replace_null_with_default is True
    assert c.converters.describe()["value.converter.replace.null.with.default"] == "false"
    assert "value.converter.decimal.format" in c.ignored_keys
    assert "key.converter.schemas.cache.size" in c.ignored_keys
    text = problems(
        {
            "value.converter.decimal.format": "HEX",
            "key.converter.schemas.cache.size": "many",
            "value.converter.replace.null.with.default": "maybe",
        }
    )
    assert "value.converter.decimal.format=HEX is invalid: must be one of BASE64, NUMERIC" in text
    assert "key.converter.schemas.cache.size=many is invalid" in text
    assert "value.converter.replace.null.with.default=maybe is invalid" in text


def test_replace_null_with_default_reaches_the_converter() -> None:
    from s3connect.sink.converters import build_converter
    from s3connect.sink.lines import line_plan

    envelope = b'{"schema":{"type":"string","optional":true,"default":"d"},"payload":null}'
    keys = {"format.class": "io.confluent.connect.s3.format.avro.AvroFormat"}
    kept = with_keys(keys)
    dropped = with_keys({**keys, "value.converter.replace.null.with.default": "false"})
    assert build_converter(kept, is_key=False).to_connect("t", envelope)[0] == "d"
    assert build_converter(dropped, is_key=False).to_connect("t", envelope)[0] is None
    assert line_plan(kept) is not None
    assert line_plan(dropped) is None  # the envelope line paths replace nulls
