"""``schema.compatibility`` end to end: JSON envelopes of two schema versions -> Avro objects.

One partition interleaves version 1 and version 2 (version 1 plus a field with a default) of one
named schema. Each mode's object keys (start offsets), writer schemas and records are traced by
hand through Confluent's ``TopicPartitionWriter`` + ``StorageSchemaCompatibility``:
NONE rotates on every change; BACKWARD and FULL rotate on a newer version and give older records
the new field's default; FORWARD rotates on an older version and drops the new field from newer
records. Contents are read back with fastavro, independently of s3connect.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from confluent_kafka import Producer

from s3connect.formats.factory import read_file
from tests.integration.sinkhelp import (
    envelope,
    objects,
    offsets_by_key,
    produce,
    read_avro,
    read_json_lines,
    run,
    sink_keys,
)

pytestmark = pytest.mark.integration

AVRO_FORMAT = "io.confluent.connect.s3.format.avro.AvroFormat"
SCHEMAS = {"value.converter.schemas.enable": "true"}
DEFAULT_EMAIL = "unknown@example.com"


def user_schema(version: int) -> dict[str, Any]:
    """The Connect schema of the JSON envelope: v2 adds ``email`` with a default."""
    fields: list[dict[str, Any]] = [
        {"field": "id", "type": "int32", "optional": False},
        {"field": "name", "type": "string", "optional": False},
    ]
    if version == 2:
        fields.append(
            {"field": "email", "type": "string", "optional": False, "default": DEFAULT_EMAIL}
        )
    return {
        "type": "struct",
        "name": "com.example.User",
        "version": version,
        "optional": False,
        "fields": fields,
    }


def avro_schema(version: int) -> dict[str, Any]:
    """AvroData.fromConnectSchema(user_schema(version)) with connect.meta.data=true."""
    fields: list[dict[str, Any]] = [
        {"name": "id", "type": "int"},
        {"name": "name", "type": "string"},
    ]
    if version == 2:
        fields.append(
            {
                "name": "email",
                "type": {"type": "string", "connect.default": DEFAULT_EMAIL},
                "default": DEFAULT_EMAIL,
            }
        )
    return {
        "type": "record",
        "name": "User",
        "namespace": "com.example",
        "fields": fields,
        "connect.version": version,
        "connect.name": "com.example.User",
    }


VERSIONS = [1, 2, 1, 1, 2, 1, 2, 2, 1, 1]  # of offsets 0..9; flush.size=4


def payload(offset: int) -> dict[str, Any]:
    out: dict[str, Any] = {"id": offset, "name": f"user-{offset}"}
    if VERSIONS[offset] == 2:
        out["email"] = f"user-{offset}@example.com"
    return out


def as_v1(offset: int) -> dict[str, Any]:
    return {"id": offset, "name": f"user-{offset}"}


def as_v2(offset: int) -> dict[str, Any]:
    email = f"user-{offset}@example.com" if VERSIONS[offset] == 2 else DEFAULT_EMAIL
    return {**as_v1(offset), "email": email}


# mode -> {start offset: (file schema version, offsets of its records)}; offsets not listed stay
# in open files. Traced by hand (see the module docstring):
#   NONE:     0|1|2 3|4|5|6 7|  (8 9 open)  every version change rotates
#   BACKWARD: 0|1 2 3 4|5|6 7 8 9|          v2 rotates a v1 file; v1 joins a v2 file
#   FORWARD:  0 1 2 3|4|5 6 7 8|  (9 open)  v1 rotates a v2 file; v2 joins a v1 file
EXPECTED: dict[str, dict[int, tuple[int, list[int]]]] = {
    "NONE": {
        0: (1, [0]), 1: (2, [1]), 2: (1, [2, 3]), 4: (2, [4]), 5: (1, [5]), 6: (2, [6, 7]),
    },
    "BACKWARD": {0: (1, [0]), 1: (2, [1, 2, 3, 4]), 5: (1, [5]), 6: (2, [6, 7, 8, 9])},
    "FORWARD": {0: (1, [0, 1, 2, 3]), 4: (2, [4]), 5: (1, [5, 6, 7, 8])},
}  # fmt: skip
EXPECTED["FULL"] = EXPECTED["BACKWARD"]


@pytest.mark.parametrize("mode", ["NONE", "BACKWARD", "FORWARD", "FULL"])
def test_schema_compatibility_modes(
    spark: Any, s3: Any, bucket: str, make_topic: Any, producer: Producer, tmp_path: Path,
    mode: str,
) -> None:  # fmt: skip
    t = make_topic(f"evolve-{mode.lower()}")
    produce(producer, t, [envelope(payload(o), user_schema(v)) for o, v in enumerate(VERSIONS)])
    summary = run(
        spark,
        sink_keys(t, bucket, tmp_path, **SCHEMAS, **{
            "format.class": AVRO_FORMAT, "flush.size": "4", "schema.compatibility": mode,
        }),
    )  # fmt: skip
    expected = EXPECTED[mode]
    key = f"topics/{t}/partition=0/{t}+0+{{:010d}}.avro"
    got = objects(s3, bucket)
    assert list(got) == [key.format(start) for start in expected]
    for start, (version, offsets) in expected.items():
        schema, _codec, records = read_avro(got[key.format(start)])
        assert schema == avro_schema(version), start
        assert records == [as_v1(o) if version == 1 else as_v2(o) for o in offsets], start
    assert offsets_by_key(summary.objects) == {
        key.format(start): (offsets[0], offsets[-1], len(offsets))
        for start, (_version, offsets) in expected.items()
    }


def test_projection_resumes_from_the_checkpoint(
    spark: Any, s3: Any, bucket: str, make_topic: Any, producer: Producer, tmp_path: Path
) -> None:
    # FORWARD leaves offset 9 (v1) open; the next run restores that file (its schema from the
    # rotator state, its record from the checkpointed state) and projects new v2 records onto v1.
    t = make_topic("evolve-resume")
    keys = sink_keys(t, bucket, tmp_path, **SCHEMAS, **{
        "format.class": AVRO_FORMAT, "flush.size": "4", "schema.compatibility": "FORWARD",
    })  # fmt: skip
    produce(producer, t, [envelope(payload(o), user_schema(v)) for o, v in enumerate(VERSIONS)])
    run(spark, keys)
    key = f"topics/{t}/partition=0/{t}+0+{{:010d}}.avro"
    assert list(objects(s3, bucket)) == [key.format(0), key.format(4), key.format(5)]
    later = {10: 2, 11: 1, 12: 2}
    produce(producer, t, [
        envelope({**as_v1(o), **({"email": "x@example.com"} if v == 2 else {})}, user_schema(v))
        for o, v in later.items()
    ])  # fmt: skip
    summary = run(spark, keys)
    got = objects(s3, bucket)
    assert list(got) == [key.format(s) for s in (0, 4, 5, 9)]
    schema, _codec, records = read_avro(got[key.format(9)])
    assert schema == avro_schema(1)
    assert records == [as_v1(o) for o in (9, 10, 11, 12)]
    assert offsets_by_key(summary.objects) == {key.format(9): (9, 12, 4)}


def test_switching_between_schemaless_and_schema_values_rotates(
    spark: Any, s3: Any, bucket: str, make_topic: Any, producer: Producer, tmp_path: Path
) -> None:
    # Confluent's shouldRotateForNullSchema (older releases failed the task: "Switch between
    # schema-based and schema-less data is not supported"): a JSON envelope with "schema": null
    # is schemaless data, and each switch starts a new file.
    t = make_topic("switch")
    schema = user_schema(1)
    schemas: list[dict[str, Any] | None] = [schema, schema, None, None, schema, None]
    produce(producer, t, [envelope(as_v1(o), s) for o, s in enumerate(schemas)])
    summary = run(
        spark, sink_keys(t, bucket, tmp_path, **SCHEMAS, **{"flush.size": "10"})
    )  # fmt: skip
    key = f"topics/{t}/partition=0/{t}+0+{{:010d}}.json"
    got = objects(s3, bucket)
    assert list(got) == [key.format(0), key.format(2), key.format(4)]  # offset 5 stays open
    assert read_json_lines(got[key.format(0)]) == [as_v1(0), as_v1(1)]
    assert read_json_lines(got[key.format(2)]) == [as_v1(2), as_v1(3)]
    assert read_json_lines(got[key.format(4)]) == [as_v1(4)]
    assert offsets_by_key(summary.objects) == {
        key.format(0): (0, 1, 2),
        key.format(2): (2, 3, 2),
        key.format(4): (4, 4, 1),
    }


def test_schemaless_values_among_schema_values_into_avro_are_anything_records(
    spark: Any, s3: Any, bucket: str, make_topic: Any, producer: Producer, tmp_path: Path
) -> None:
    # Confluent's AvroFormat writes schemaless values in AvroData's Anything record, each
    # switch starting a new file; the source reads them back as schemaless values.
    t = make_topic("switch-avro")
    schema = user_schema(1)
    schemas: list[dict[str, Any] | None] = [schema, schema, None, None, schema, None]
    produce(producer, t, [envelope(as_v1(o), s) for o, s in enumerate(schemas)])
    keys = sink_keys(t, bucket, tmp_path, **SCHEMAS, **{
        "flush.size": "10", "format.class": "io.confluent.connect.s3.format.avro.AvroFormat",
    })  # fmt: skip
    summary = run(spark, keys)
    key = f"topics/{t}/partition=0/{t}+0+{{:010d}}.avro"
    got = objects(s3, bucket)
    assert list(got) == [key.format(0), key.format(2), key.format(4)]  # offset 5 stays open
    assert read_avro(got[key.format(0)])[2] == [as_v1(0), as_v1(1)]
    anything = read_avro(got[key.format(2)])[0]
    assert (anything["name"], anything["namespace"]) == ("Anything", "io.confluent.connect.avro")
    back = read_file("avro", got[key.format(2)], ".avro")
    assert back.schema is None
    assert back.values == [as_v1(2), as_v1(3)]
    assert read_file("avro", got[key.format(4)], ".avro").values == [as_v1(4)]
    assert offsets_by_key(summary.objects) == {
        key.format(0): (0, 1, 2),
        key.format(2): (2, 3, 2),
        key.format(4): (4, 4, 1),
    }
