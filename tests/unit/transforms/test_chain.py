"""Chains built from connector configs: ordering, predicates and negate (Kafka's
TransformationStage), filtering, config problems and record errors; and the predicates
themselves (Kafka's HasHeaderKeyTest and TopicNameMatchesTest)."""

from __future__ import annotations

import pytest

from s3connect.connect.records import SinkRecord
from s3connect.errors import RecordError, TransformationError
from s3connect.transforms.base import Predicate, Transformation
from s3connect.transforms.chain import Stage, build_chain
from s3connect.transforms.registry import PREDICATES, TRANSFORMATIONS
from tests.unit.transforms.xformhelp import NOW_MS, STRING, K, P, one, one_problems, problems, rec

FILTER_TOMBSTONES = {
    "transforms": "dropTombstones",
    "transforms.dropTombstones.type": K + "Filter",
    "transforms.dropTombstones.predicate": "isTombstone",
    "predicates": "isTombstone",
    "predicates.isTombstone.type": P + "RecordIsTombstone",
}


def test_an_empty_config_gives_an_empty_chain() -> None:
    chain = build_chain({"name": "sink", "topics": "a"})
    record = rec("v")
    assert len(chain) == 0 and chain.apply(record) is record
    assert not chain.renames_topics and chain.deterministic and not chain.may_drop_records
    assert len(build_chain({"transforms": " "})) == 0


def test_transforms_run_in_order() -> None:
    config = {
        "transforms": "insert, route",
        "transforms.insert.type": K + "InsertField$Value",
        "transforms.insert.topic.field": "t",
        "transforms.route.type": K + "RegexRouter",
        "transforms.route.regex": "(.*)",
        "transforms.route.replacement": "copy_of_$1",
    }
    out = build_chain(config).apply(rec({"a": 1}, topic="orders"))
    assert out is not None
    assert out.topic == "copy_of_orders" and out.value == {"a": 1, "t": "orders"}
    config["transforms"] = "route,insert"
    out = build_chain(config).apply(rec({"a": 1}, topic="orders"))
    assert out is not None and out.value == {"a": 1, "t": "copy_of_orders"}


def test_a_predicate_guards_its_transform() -> None:
    chain = build_chain(FILTER_TOMBSTONES)
    assert chain.apply(rec(None)) is None
    kept = rec("v")
    assert chain.apply(kept) is kept
    assert chain.may_drop_records and not chain.renames_topics


def test_negate_runs_the_transform_where_the_predicate_is_false() -> None:
    chain = build_chain({**FILTER_TOMBSTONES, "transforms.dropTombstones.negate": "TRUE"})
    assert chain.apply(rec("v")) is None
    tombstone = rec(None)
    assert chain.apply(tombstone) is tombstone


def test_a_filter_stops_the_chain() -> None:
    config = {
        "transforms": "drop,boom",
        "transforms.drop.type": K + "Filter",
        "transforms.boom.type": K + "Cast$Value",
        "transforms.boom.spec": "int8",
    }
    assert build_chain(config).apply(rec(["not castable"])) is None


def test_topic_name_matches_and_has_header_key_guard_masks() -> None:
    config = {
        "transforms": "mask,tag",
        "transforms.mask.type": K + "MaskField$Value",
        "transforms.mask.fields": "ssn",
        "transforms.mask.predicate": "isPeople",
        "transforms.tag.type": K + "InsertHeader",
        "transforms.tag.header": "seen",
        "transforms.tag.value.literal": "yes",
        "transforms.tag.predicate": "notSeen",
        "transforms.tag.negate": "true",
        "predicates": "isPeople,notSeen",
        "predicates.isPeople.type": P + "TopicNameMatches",
        "predicates.isPeople.pattern": "people-.*",
        "predicates.notSeen.type": P + "HasHeaderKey",
        "predicates.notSeen.name": "seen",
    }
    chain = build_chain(config)
    out = chain.apply(rec({"ssn": "123"}, topic="people-eu"))
    assert out is not None and out.value == {"ssn": ""}
    assert out.headers == (("seen", b"yes"),)  # tagged: it had no "seen" header
    out = chain.apply(rec({"ssn": "123"}, topic="orders", headers=(("seen", b"x"),)))
    assert out is not None and out.value == {"ssn": "123"}
    assert out.headers == (("seen", b"x"),)


def test_class_names_are_kafkas_exactly() -> None:
    assert K + "InsertField$Value" in TRANSFORMATIONS
    assert "io.confluent.connect.transforms.ExtractTopic$Header" in TRANSFORMATIONS
    assert len(TRANSFORMATIONS) == 29
    assert sorted(PREDICATES) == [
        P + "HasHeaderKey",
        P + "RecordIsTombstone",
        P + "TopicNameMatches",
    ]
    text = one_problems("InsertField")  # no $Key / $Value
    assert (
        "Invalid value org.apache.kafka.connect.transforms.InsertField for configuration "
        "transforms.t.type: This class is abstract and cannot be created. Did you mean "
        "org.apache.kafka.connect.transforms.InsertField$Key, "
        "org.apache.kafka.connect.transforms.InsertField$Value?" in text
    )
    assert (
        one_problems("com.example.Custom").count("org.apache.kafka.connect.transforms.Cast$Key")
        == 1
    )


def test_all_problems_are_reported_at_once() -> None:
    text = problems(
        {
            "transforms": "mask,cast,ghost,mask",
            "transforms.mask.type": K + "MaskField$Value",
            "transforms.mask.replacement": "",
            "transforms.mask.predicate": "nope",
            "transforms.cast.type": K + "Cast$Value",
            "transforms.cast.spec": "a:blob",
            "transforms.cast.speck": "typo",
            "transforms.cast.negate": "true",
            "transforms.old.type": K + "Filter",
            "predicates": "p",
            "predicates.p.type": P + "TopicNameMatches",
            "predicates.p.pattern": "[",
        }
    )
    assert text.startswith("invalid transforms config (")
    for expected in (
        "Invalid value [mask, cast, ghost, mask] for configuration transforms: Duplicate "
        "alias provided.",
        'Missing required configuration "transforms.mask.fields"',
        "Invalid value  for configuration transforms.mask.replacement: String must be non-empty",
        "Invalid value nope for configuration transforms.mask.predicate: must be an alias "
        "listed in predicates (p)",
        "Invalid value [a:blob] for configuration transforms.cast.spec: Invalid type found "
        "in casting spec: blob",
        "Invalid value typo for configuration transforms.cast.speck: not a key of "
        "org.apache.kafka.connect.transforms.Cast$Value "
        "(its keys: negate, predicate, replace.null.with.default, spec)",
        "Config 'transforms.cast.negate' was provided but there is no config "
        "'transforms.cast.predicate' defining a predicate to be negated.",
        'Missing required configuration "transforms.ghost.type" which has no default value. ('
        "Not a Transformation; a transformation class: ",
        "Invalid value org.apache.kafka.connect.transforms.Filter for configuration "
        "transforms.old.type: not a key of "
        "an alias listed in transforms",
        "Invalid value [ for configuration predicates.p.pattern: Invalid regex",
    ):
        assert expected in text, expected


def test_predicate_config_errors() -> None:
    text = problems(
        {
            "predicates": "h,t,x",
            "predicates.h.type": P + "HasHeaderKey",
            "predicates.h.name": "",
            "predicates.t.type": P + "TopicNameMatches",
            "predicates.x.type": P + "Nope",
        }
    )
    assert "Invalid value  for configuration predicates.h.name: String must be non-empty" in text
    assert 'Missing required configuration "predicates.t.pattern"' in text
    assert (
        "Invalid value org.apache.kafka.connect.transforms.predicates.Nope for "
        "configuration predicates.x.type: "
        "Class org.apache.kafka.connect.transforms.predicates.Nope could not be found." in text
    )
    text = problems(
        {
            "predicates": "r",
            "predicates.r.type": P + "RecordIsTombstone",
            "predicates.r.pattern": "x",
        }
    )
    assert (
        "Invalid value x for configuration predicates.r.pattern: not a key of "
        "org.apache.kafka.connect.transforms.predicates.RecordIsTombstone (it has no keys)" in text
    )
    text = problems(
        {
            "transforms": "f",
            "transforms.f.type": K + "Filter",
            "transforms.f.negate": "maybe",
            "transforms.f.predicate": "p",
            "predicates": "p",
            "predicates.p.type": P + "RecordIsTombstone",
        }
    )
    assert (
        "Invalid value maybe for configuration transforms.f.negate: Expected value to be "
        "either true or false" in text
    )


def test_an_unused_predicate_is_still_checked() -> None:
    assert 'Missing required configuration "predicates.p.type"' in problems({"predicates": "p"})


def test_record_errors_name_the_transform_and_the_record() -> None:
    config = {
        "transforms": "route,mask",
        "transforms.route.type": K + "RegexRouter",
        "transforms.route.regex": ".*",
        "transforms.route.replacement": "renamed",
        "transforms.mask.type": K + "MaskField$Value",
        "transforms.mask.fields": "a",
    }
    with pytest.raises(TransformationError) as info:
        build_chain(config).apply(rec(None, topic="orders", partition=3, offset=42))
    error = info.value
    assert isinstance(error, RecordError)
    assert str(error) == (
        "transform 'mask' failed: Only Map objects supported in absence of schema for "
        "[mask fields], found: null (topic='orders', partition=3, offset=42)"
    )
    assert (error.topic, error.partition, error.offset) == ("orders", 3, 42)
    assert error.stage == "TRANSFORMATION"
    assert error.class_name == K + "MaskField$Value"


def test_flags() -> None:
    assert one("TimestampRouter").renames_topics
    assert one("io.confluent.connect.transforms.ExtractTopic$Key").renames_topics
    assert not one("InsertField$Value", {"timestamp.field": "ts"}).renames_topics
    assert one("InsertField$Value", {"timestamp.field": "ts"}).deterministic
    assert one("TimestampConverter$Value", {"target.type": "string", "format": "yy"}).nondeterminism
    assert build_chain(FILTER_TOMBSTONES, now_ms=NOW_MS).deterministic


def test_values_that_are_not_strings_are_accepted_as_kafka_does() -> None:
    config = {
        "transforms": ["v2k"],
        "transforms.v2k.type": K + "ValueToKey",
        "transforms.v2k.fields": ["a", "b"],
        "transforms.v2k.replace.null.with.default": False,
    }
    out = build_chain(config).apply(rec({"a": 1, "b": 2, "c": 3}))
    assert out is not None and out.key == {"a": 1, "b": 2}


# The predicates themselves


def _predicate(type_: str, **props: str) -> object:
    config = {"predicates": "p", "predicates.p.type": P + type_}
    config.update({f"predicates.p.{k}": v for k, v in props.items()})
    config.update(
        {"transforms": "f", "transforms.f.type": K + "Filter", "transforms.f.predicate": "p"}
    )
    chain = build_chain(config)
    return lambda record: chain.apply(record) is None


def test_has_header_key() -> None:
    test = _predicate("HasHeaderKey", name="foo")
    for names, expected in (
        (["foo"], True),
        (["foo", "bar"], True),
        (["bar", "foo", "bar", "foo"], True),
        (["bar"], False),
        (["bar", "bar"], False),
        ([], False),
    ):
        assert test(rec("v", headers=tuple((n, None) for n in names))) is expected  # type: ignore[operator]
    assert 'Missing required configuration "predicates.p.name"' in problems(
        {"predicates": "p", "predicates.p.type": P + "HasHeaderKey"}
    )


def test_topic_name_matches() -> None:
    test = _predicate("TopicNameMatches", pattern="my-prefix-.*")
    for topic, expected in (
        ("my-prefix-", True),
        ("my-prefix-foo", True),
        ("x-my-prefix-", False),
        ("x-my-prefix-foo", False),
        ("your-prefix-", False),
        ("your-prefix-foo", False),
    ):
        assert test(rec("v", topic=topic)) is expected  # type: ignore[operator]
    assert "Invalid regex" in problems(
        {
            "predicates": "p",
            "predicates.p.type": P + "TopicNameMatches",
            "predicates.p.pattern": "*",
        }
    )


def test_record_is_tombstone() -> None:
    test = _predicate("RecordIsTombstone")
    assert test(rec(None, STRING)) is True  # type: ignore[operator]
    assert test(rec("")) is False  # type: ignore[operator]


def test_pattern_may_not_be_empty_in_config() -> None:
    text = problems(
        {"predicates": "p", "predicates.p.type": P + "TopicNameMatches", "predicates.p.pattern": ""}
    )
    assert "Invalid value  for configuration predicates.p.pattern: String must be non-empty" in text


class _Fixed(Predicate):
    class_name = "fixed"

    def __init__(self, result: bool) -> None:
        self.result = result

    def test(self, record: SinkRecord) -> bool:
        return self.result


class _Replace(Transformation):
    class_name = "replace"

    def __init__(self, result: SinkRecord) -> None:
        self.result = result

    def apply(self, record: SinkRecord) -> SinkRecord | None:
        return self.result


@pytest.mark.parametrize(
    ("predicate_result", "negate", "transformed"),
    [(True, False, True), (True, True, False), (False, False, False), (False, True, True)],
)
def test_apply(predicate_result: bool, negate: bool, transformed: bool) -> None:
    """TransformationStageTest.apply: the transform runs where predicate XOR negate."""
    initial, result = rec("initial"), rec("transformed")
    stage = Stage("s", _Replace(result), _Fixed(predicate_result), "p", negate)
    assert stage.apply(initial) is (result if transformed else initial)
