"""RegexRouter, TimestampRouter (Kafka's RegexRouterTest, TimestampRouterTest) and Confluent's
ExtractTopic (its documented examples)."""

from __future__ import annotations

import pytest

from s3connect.errors import TransformationError
from s3connect.transforms.extract_topic import parse_json_path
from s3connect.transforms.regex_router import RegexRoute
from tests.unit.transforms.xformhelp import INT32, STRING, apply, one, one_problems, rec, struct

ET = "io.confluent.connect.transforms.ExtractTopic"


@pytest.mark.parametrize(
    ("regex", "replacement", "topic", "expected"),
    [
        ("foo", "bar", "foo", "bar"),
        ("foo", "bar", "orig", "orig"),
        ("(.*)", "$1", "orig", "orig"),
        ("(.*)", "prefix-$1", "orig", "prefix-orig"),
        ("(.*)", "$1-suffix", "orig", "orig-suffix"),
        ("(.*)-(\\d\\d\\d\\d\\d\\d\\d\\d)", "$1", "index-20160117", "index"),
        ("(?<name>.*)-x", "${name}", "a-x", "a"),
        (".*", "copy_of_$0", "orders", "copy_of_orders"),
        ("a|ab", "X", "ab", "Xb"),  # matches() the whole topic, replaceFirst() the first match
    ],
)
def test_regex_router(regex: str, replacement: str, topic: str, expected: str) -> None:
    chain = one("RegexRouter", {"regex": regex, "replacement": replacement})
    out = chain.apply(rec("v", topic=topic))
    assert out is not None and out.topic == expected
    assert RegexRoute(regex, replacement).apply(topic) == expected
    assert chain.renames_topics


def test_regex_router_config_errors() -> None:
    text = one_problems("RegexRouter", {"regex": "(", "replacement": "x"})
    assert "Invalid value ( for configuration transforms.t.regex: Invalid regex" in text
    text = one_problems("RegexRouter", {"regex": "(.*)", "replacement": "$2"})
    assert "Invalid value $2 for configuration transforms.t.replacement: No group 2" in text
    text = one_problems("RegexRouter", {})
    assert (
        'Missing required configuration "transforms.t.regex"' in text
        and 'Missing required configuration "transforms.t.replacement"' in text
    )


def test_timestamp_router_defaults() -> None:
    out = apply("TimestampRouter", {}, rec(None, topic="test", timestamp=1483425001864))
    assert out.topic == "test-20170103"


def test_timestamp_router_formats() -> None:
    props = {
        "topic.format": "${timestamp}/${topic}/${topic}",
        "timestamp.format": "yyyy-MM-dd'T'HH",
    }
    out = apply("TimestampRouter", props, rec(None, topic="t", timestamp=1483425001864))
    assert out.topic == "2017-01-03T06/t/t"


def test_timestamp_router_needs_a_timestamp() -> None:
    with pytest.raises(TransformationError) as info:
        one("TimestampRouter").apply(rec(None, topic="t", offset=5))
    assert "Timestamp missing on record" in str(info.value)
    assert info.value.class_name == "org.apache.kafka.connect.transforms.TimestampRouter"


def test_timestamp_router_bad_format() -> None:
    text = one_problems("TimestampRouter", {"timestamp.format": "yyyy-'MM"})
    assert (
        "Invalid value yyyy-'MM for configuration transforms.t.timestamp.format: not a "
        "SimpleDateFormat pattern: "
        "Unterminated quote" in text
    )


# ExtractTopic (io.confluent.connect.transforms.ExtractTopic)


def test_extract_topic_whole_key() -> None:
    out = apply(f"{ET}$Key", {}, rec("v", key="new-topic"))
    assert out.topic == "new-topic"


def test_extract_topic_value_field() -> None:
    schema = struct(("f1", INT32), ("f2", STRING))
    out = apply(f"{ET}$Value", {"field": "f2"}, rec({"f1": 1, "f2": "topic-b"}, schema))
    assert out.topic == "topic-b"
    assert apply(f"{ET}$Value", {"field": "f2"}, rec({"f2": "topic-c"})).topic == "topic-c"


def test_extract_topic_missing_or_null() -> None:
    with pytest.raises(TransformationError) as info:
        one(f"{ET}$Value", {"field": "f3"}).apply(rec({"f2": "x"}))
    assert "field 'f3' of the value is missing or null" in str(info.value)
    record = rec({"f3": None}, topic="orig")
    skip = {"field": "f3", "skip.missing.or.null": "true"}
    assert apply(f"{ET}$Value", skip, record).topic == "orig"
    assert (
        apply(f"{ET}$Key", {"skip.missing.or.null": "true"}, rec("v", topic="orig")).topic == "orig"
    )


def test_extract_topic_json_path() -> None:
    props = {"field": '$["f1"]["f3"]', "field.format": "JSON_PATH", "skip.missing.or.null": "true"}
    key_schema = struct(("f1", struct(("f3", STRING))))
    out = apply(f"{ET}$Key", props, rec("v", key={"f1": {"f3": "nested"}}, key_schema=key_schema))
    assert out.topic == "nested"
    out = apply(
        f"{ET}$Key", {**props, "field": "$.f1.list[1]"}, rec("v", key={"f1": {"list": ["a", "b"]}})
    )
    assert out.topic == "b"
    assert parse_json_path("$['a.b'][0].c") == ("a.b", 0, "c")


def test_extract_topic_header() -> None:
    headers = (("h", b"first"), ("other", b"x"), ("h", b"second"))
    assert apply(f"{ET}$Header", {"field": "h"}, rec("v", headers=headers)).topic == "second"
    with pytest.raises(TransformationError):
        one(f"{ET}$Header", {"field": "missing"}).apply(rec("v", headers=headers))


def test_extract_topic_needs_strings() -> None:
    with pytest.raises(TransformationError) as info:
        one(f"{ET}$Value", {"field": "n"}).apply(rec({"n": 5}))
    assert "field 'n' of the value is a java.lang.Long, not a string" in str(info.value)
    assert info.value.class_name == f"{ET}$Value"


def test_extract_topic_config_errors() -> None:
    assert 'Missing required configuration "transforms.t.field"' in one_problems(f"{ET}$Header")
    text = one_problems(f"{ET}$Header", {"field": "h", "field.format": "JSON_PATH"})
    assert "ExtractTopic$Header supports only PLAIN" in text
    text = one_problems(f"{ET}$Value", {"field": "$..deep", "field.format": "JSON_PATH"})
    assert (
        "Invalid value $..deep for configuration transforms.t.field: not a supported JSON path"
        in text
    )
    text = one_problems(f"{ET}$Value", {"field.format": "XML"})
    assert (
        "Invalid value XML for configuration transforms.t.field.format: String must be one "
        "of: PLAIN, JSON_PATH" in text
    )
