"""Kafka Connect's connector-level config, ported from Apache Kafka (trunk at the mirror's HEAD,
4.1 line): ``ConnectorConfigTest`` (``transforms`` / ``predicates`` checks and messages, the
enriched config's implicit keys) and the sink config checks of ``AbstractHerderTest``
(``testConfigValidationInvalidTopics``) and ``ConnectorValidationIntegrationTest`` (problem
counts for topics, transforms and predicates; the DLQ checks are in
tests/unit/sink/test_kafka_error_handling.py).

Kafka's test plugins (``SimpleTransformation`` setting the partition to ``magic.number``,
``TestPredicate`` matching partition ``int``) are not classes a config can name here; the
built-ins stand in: ``InsertField$Value`` with a static field, ``Cast$Value`` (a required key
with a checked value) and ``TopicNameMatches`` (a required, checked ``pattern``).
"""

from __future__ import annotations

from typing import Any

import pytest

from s3connect.config.sink import SinkConfig
from s3connect.connect.records import SinkRecord
from s3connect.errors import ConfigError
from tests.unit.transforms.xformhelp import K, P, rec

SINK = {
    "name": "test",
    "connector.class": "io.confluent.connect.s3.S3SinkConnector",
    "topics": "orders",
    "kafka.bootstrap.servers": "localhost:9092",
    "checkpoint.location": "/tmp/ckpt",
    "s3.bucket.name": "bucket",
    "format.class": "json",
    "flush.size": "3",
}
MAGIC = {"transforms.a.static.field": "magic", "transforms.a.static.value": "42"}
"""``SimpleTransformation``'s ``magic.number=42``: InsertField$Value puts it in the value."""
SIMPLE = {"transforms": "a", "transforms.a.type": K + "InsertField$Value", **MAGIC}
TEST_PREDICATE = {
    "predicates": "my-pred",
    "predicates.my-pred.type": P + "TopicNameMatches",
    "predicates.my-pred.pattern": "matching",
}
"""``TestPredicate`` with ``int=84``: matches the records of topic ``matching``."""


def config(props: dict[str, Any]) -> SinkConfig:
    return SinkConfig.from_mapping({**SINK, **props})


def problems(props: dict[str, Any], drop: tuple[str, ...] = ()) -> str:
    with pytest.raises(ConfigError) as info:
        SinkConfig.from_mapping({k: v for k, v in {**SINK, **props}.items() if k not in drop})
    return str(info.value)


def count(message: str) -> int:
    """The number of problems a ConfigError message lists."""
    return message.count("\n  - ")


def magic(record: SinkRecord | None) -> Any:
    assert record is not None and isinstance(record.value, dict)
    return record.value.get("magic")


# --------------------------------------------------------------------------- ConnectorConfigTest


def test_no_transforms() -> None:
    c = config({})
    assert c.name == "test" and not c.transforms.active and len(c.transforms.chain()) == 0


def test_dangling_transform_alias() -> None:
    assert "Not a Transformation" in problems({"transforms": "dangler"})


def test_empty_connector_name() -> None:
    assert "String may not be empty" in problems({"name": ""})


def test_wrong_transformation_type() -> None:
    text = problems({"transforms": "a", "transforms.a.type": "uninstantiable"})
    assert "Class uninstantiable could not be found" in text


def test_unconfigured_transform() -> None:
    text = problems({"transforms": "a", "transforms.a.type": K + "Cast$Value"})
    assert 'Missing required configuration "transforms.a.spec" which' in text


def test_misconfigured_transform() -> None:
    text = problems(
        {"transforms": "a", "transforms.a.type": K + "Cast$Value", "transforms.a.spec": "int9"}
    )
    assert (
        "Invalid value [int9] for configuration transforms.a.spec: "
        "Invalid type found in casting spec: int9" in text
    )


def test_single_transform() -> None:
    stages = config(SIMPLE).transforms.chain().stages
    assert len(stages) == 1
    assert stages[0].transformation.class_name == K + "InsertField$Value"
    assert magic(stages[0].apply(rec({}))) == "42"


def test_multiple_transforms_one_dangling() -> None:
    text = problems({**SIMPLE, "transforms": "a, b"})
    assert count(text) == 1 and "transforms.b.type" in text


def test_multiple_transforms() -> None:
    stages = (
        config(
            {
                **SIMPLE,
                "transforms": "a, b",
                "transforms.b.type": K + "InsertField$Value",
                "transforms.b.static.field": "magic",
                "transforms.b.static.value": "84",
            }
        )
        .transforms.chain()
        .stages
    )
    assert len(stages) == 2
    assert magic(stages[0].apply(rec({}))) == "42"
    assert magic(stages[1].apply(rec({}))) == "84"


def test_abstract_transform() -> None:
    text = problems({"transforms": "a", "transforms.a.type": K + "ReplaceField"})
    assert "This class is abstract and cannot be created." in text


def test_abstract_key_value_transform() -> None:
    text = problems({"transforms": "a", "transforms.a.type": K + "Cast"})
    assert "This class is abstract and cannot be created." in text
    assert K + "Cast$Key" in text and K + "Cast$Value" in text
    assert (
        "Invalid value org.apache.kafka.connect.transforms.Cast for configuration "
        "transforms.a.type: This class is abstract and cannot be created. Did you mean "
        "org.apache.kafka.connect.transforms.Cast$Key, "
        "org.apache.kafka.connect.transforms.Cast$Value?"
    ) in text


def test_wrong_predicate_type() -> None:
    connector = "io.confluent.connect.s3.S3SinkConnector"
    text = problems(
        {
            **SIMPLE,
            "transforms.a.predicate": "my-pred",
            "predicates": "my-pred",
            "predicates.my-pred.type": connector,
        }
    )
    assert count(text) == 1
    assert f"Class class {connector} does not implement the Predicate interface" in text


def assert_transformation_stage_with_predicate(
    props: dict[str, str], expected_negated: bool
) -> None:
    stages = config(props).transforms.chain().stages
    assert len(stages) == 1
    stage = stages[0]
    assert magic(stage.apply(rec({}, topic="other"))) == ("42" if expected_negated else None)
    assert magic(stage.apply(rec({}, topic="matching"))) == (None if expected_negated else "42")
    assert stage.transformation.class_name == K + "InsertField$Value"


def test_single_conditional_transform() -> None:
    props = {
        **SIMPLE,
        **TEST_PREDICATE,
        "transforms.a.predicate": "my-pred",
        "transforms.a.negate": "true",
    }
    assert_transformation_stage_with_predicate(props, True)


def test_predicate_negation_defaults_to_false() -> None:
    props = {**SIMPLE, **TEST_PREDICATE, "transforms.a.predicate": "my-pred"}
    assert_transformation_stage_with_predicate(props, False)


def test_abstract_predicate() -> None:
    text = problems(
        {
            **SIMPLE,
            **TEST_PREDICATE,
            "transforms.a.predicate": "my-pred",
            "predicates.my-pred.type": P + "Predicate",
        }
    )
    assert "This class is abstract and cannot be created" in text


def test_misconfigured_predicate() -> None:
    text = problems(
        {
            **SIMPLE,
            **TEST_PREDICATE,
            "transforms.a.predicate": "my-pred",
            "transforms.a.negate": "true",
            "predicates.my-pred.pattern": "[",
        }
    )
    assert "Invalid value [ for configuration predicates.my-pred.pattern: Invalid regex" in text


def test_missing_predicate_alias_property() -> None:
    # Kafka accepts this config and fails when its tasks build the chain; refused at start here
    # (README, "Single message transforms").
    props = {**SIMPLE, **TEST_PREDICATE, "transforms.a.predicate": "my-pred"}
    del props["predicates"]
    text = problems(props)
    assert (
        "Invalid value my-pred for configuration transforms.a.predicate: must be an alias "
        "listed in predicates (none are)"
    ) in text


def test_missing_predicate_config() -> None:
    text = problems({**SIMPLE, "transforms.a.predicate": "my-pred", "predicates": "my-pred"})
    assert "Not a Predicate" in text


def test_negated_but_no_predicate() -> None:
    text = problems({**SIMPLE, "transforms.a.negate": "true"})
    assert "there is no config 'transforms.a.predicate' defining a predicate to be negated" in text


def test_enriched_config_def() -> None:
    # Every transform gets predicate (default null) and negate (default false) under its prefix.
    stage = (
        config({"transforms": "hdt", "transforms.hdt.type": K + "Filter"})
        .transforms.chain()
        .stages[0]
    )
    assert stage.predicate is None and stage.predicate_alias is None and stage.negate is False
    text = problems(
        {
            "transforms": "hdt",
            "transforms.hdt.type": K + "Filter",
            "transforms.hdt.must.exist.key": "x",
        }
    )
    assert (
        "transforms.hdt.must.exist.key: not a key of "
        "org.apache.kafka.connect.transforms.Filter (its keys: negate, predicate)" in text
    )


# --------------------------------------------------------------- sink config validation (herder)


def test_config_validation_invalid_topics() -> None:
    text = problems({"topics": "topic1,topic2", "topics.regex": "topic.*"})
    both = "topics and topics.regex are mutually exclusive options, but both are set."
    assert count(text) == 2
    assert f"topics=topic1,topic2 is invalid: {both}" in text
    assert f"topics.regex=topic.* is invalid: {both}" in text


def test_sink_connector_has_neither_topics_list_nor_topics_regex() -> None:
    text = problems({}, drop=("topics",))
    assert count(text) == 2
    assert "topics: Must configure one of topics or topics.regex" in text
    assert "topics.regex: Must configure one of topics or topics.regex" in text
    assert count(problems({"topics": " ", "topics.regex": ""})) == 2


def test_sink_connector_has_both_topics_list_and_topics_regex() -> None:
    assert count(problems({"topics": "t1", "topics.regex": "r.*"})) == 2


def test_connector_has_duplicate_transformations() -> None:
    text = problems({"transforms": "t, t", "transforms.t.type": K + "Filter"})
    assert count(text) == 1
    assert "Invalid value [t, t] for configuration transforms: Duplicate alias provided." in text


def test_connector_has_missing_transform_class() -> None:
    text = problems({"transforms": "t", "transforms.t.type": "WheresTheFruit"})
    assert count(text) == 1 and "Class WheresTheFruit could not be found" in text


def test_connector_has_invalid_transform_class() -> None:
    connector = "io.confluent.connect.s3.S3SinkConnector"
    text = problems({"transforms": "t", "transforms.t.type": connector})
    assert count(text) == 1
    assert f"Class class {connector} does not implement the Transformation interface" in text


def test_connector_has_negation_for_undefined_predicate() -> None:
    text = problems(
        {"transforms": "t", "transforms.t.type": K + "Filter", "transforms.t.negate": "true"}
    )
    assert count(text) == 1


def test_connector_has_duplicate_predicates() -> None:
    text = problems({"predicates": "p, p", "predicates.p.type": P + "RecordIsTombstone"})
    assert count(text) == 1
    assert "Invalid value [p, p] for configuration predicates: Duplicate alias provided." in text


def test_connector_has_missing_predicate_class() -> None:
    text = problems({"predicates": "p", "predicates.p.type": "WheresTheFruit"})
    assert count(text) == 1 and "Class WheresTheFruit could not be found" in text


def test_connector_has_invalid_predicate_class() -> None:
    connector = "io.confluent.connect.s3.S3SinkConnector"
    text = problems({"predicates": "p", "predicates.p.type": connector})
    assert count(text) == 1
    assert f"Class class {connector} does not implement the Predicate interface" in text


def one_problem_on(key: str, value: str) -> None:
    text = problems({key: value})
    assert count(text) == 1 and f"{key}={value} is invalid" in text


def test_connector_has_missing_converter_class() -> None:
    one_problem_on("key.converter", "WheresTheFruit")


def test_connector_has_invalid_converter_class_type() -> None:
    one_problem_on("key.converter", "io.confluent.connect.s3.S3SinkConnector")


def test_connector_has_abstract_converter() -> None:
    one_problem_on("key.converter", "org.apache.kafka.connect.storage.Converter")


def test_connector_has_missing_header_converter_class() -> None:
    one_problem_on("header.converter", "WheresTheFruit")


def test_connector_has_invalid_header_converter_class_type() -> None:
    one_problem_on("header.converter", "io.confluent.connect.s3.S3SinkConnector")


def test_connector_has_abstract_header_converter() -> None:
    one_problem_on("header.converter", "org.apache.kafka.connect.storage.HeaderConverter")
