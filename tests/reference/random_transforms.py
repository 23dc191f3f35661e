"""Random single message transform cases: a transform of Kafka's with a random config, and a
record value (a JSON envelope of a struct, or schemaless JSON) it is applied to."""

from __future__ import annotations

import json
import random
from typing import Any

__all__ = ["cases"]

_PRIMITIVES = {"i8": "int8", "i32": "int32", "i64": "int64", "f32": "float", "f64": "double",
               "s": "string", "b": "boolean"}  # fmt: skip
_CAST_TO = ["int8", "int16", "int32", "int64", "float32", "float64", "boolean", "string"]
_T = "org.apache.kafka.connect.transforms."


def _value(rng: random.Random, field: str) -> Any:
    kind = _PRIMITIVES.get(field)
    if kind == "int8":
        return rng.randint(-128, 127)
    if kind == "int32":
        return rng.choice([0, 1, -7, 300, 2**31 - 1, 1_700_000_000])
    if kind == "int64":
        return rng.choice([0, 1, -1, 1_700_000_000_123, 2**40 + 5])
    if kind in ("float", "double"):
        return rng.choice([0.0, 1.5, -2.25, 1e10, 0.1, 123.456])
    if kind == "string":
        return rng.choice(["", "abc", "42", "3.5", "true", "2024-01-02 03:04:05.678", "é😀"])
    return rng.random() < 0.5


def _envelope(rng: random.Random, fields: list[str]) -> dict[str, Any]:
    schema = [{"type": _PRIMITIVES[f], "optional": rng.random() < 0.3, "field": f} for f in fields]
    payload: dict[str, Any] = {f: _value(rng, f) for f in fields}
    nested = {"type": "struct", "optional": False, "field": "nested",
              "fields": [{"type": "int32", "optional": False, "field": "x"},
                         {"type": "string", "optional": True, "field": "y"}]}  # fmt: skip
    schema.append(nested)
    payload["nested"] = {"x": rng.randint(-5, 5), "y": rng.choice([None, "why"])}
    return {"schema": {"type": "struct", "optional": False, "name": "rec", "fields": schema},
            "payload": payload}  # fmt: skip


def _config(rng: random.Random, fields: list[str]) -> dict[str, str]:
    kind = rng.choice(["Cast", "Flatten", "ReplaceField", "MaskField", "InsertField",
                       "HoistField", "ExtractField", "TimestampConverter", "SetSchemaMetadata",
                       "RegexRouter", "TimestampRouter"])  # fmt: skip
    some = rng.sample(fields, rng.randint(1, len(fields)))
    if kind == "Cast":
        spec = ",".join(f"{f}:{rng.choice(_CAST_TO)}" for f in some)
        if rng.random() < 0.1:  # the whole value
            spec = rng.choice(["string", "float64", "int64"])
        return {"type": _T + "Cast$Value", "spec": spec}
    if kind == "Flatten":
        return {"type": _T + "Flatten$Value", "delimiter": rng.choice([".", "_"])}
    if kind == "ReplaceField":
        key = rng.choice(["exclude", "include", "renames"])
        value = ",".join(f"{f}:{f}_new" for f in some) if key == "renames" else ",".join(some)
        return {"type": _T + "ReplaceField$Value", key: value}
    if kind == "MaskField":
        config = {"type": _T + "MaskField$Value", "fields": ",".join(some)}
        if rng.random() < 0.3:
            config["replacement"] = rng.choice(["0", "***", "1.5", "42", "true"])
        return config
    if kind == "InsertField":
        config = {"type": _T + "InsertField$Value"}
        for key in rng.sample(["offset.field", "partition.field", "topic.field",
                               "timestamp.field", "static.field"], rng.randint(1, 3)):  # fmt: skip
            config[key] = key.split(".")[0] + rng.choice(["", "!"])
        if "static.field" in config:
            config["static.value"] = "v"
        return config
    if kind == "HoistField":
        return {"type": _T + "HoistField$Value", "field": "wrapped"}
    if kind == "ExtractField":
        if rng.random() < 0.3:  # a path into the nested struct
            return {"type": _T + "ExtractField$Value", "field.syntax.version": "V2",
                    "field": rng.choice(["nested.x", "nested.y", "nested"])}  # fmt: skip
        return {"type": _T + "ExtractField$Value", "field": rng.choice([*fields, "nested"])}
    if kind == "TimestampConverter":
        return {"type": _T + "TimestampConverter$Value", "field": rng.choice(["i64", "s", "i32"]),
                "target.type": rng.choice(["string", "unix", "Timestamp", "Date", "Time"]),
                "format": rng.choice(["yyyy-MM-dd HH:mm:ss.SSS", "EEE, d MMM yyyy HH:mm:ss Z"]),
                # not seconds: our dates end at year 9999 (1.7e12 seconds is beyond)
                "unix.precision": rng.choice(["milliseconds", "microseconds", "nanoseconds"]),
                }  # fmt: skip
    if kind == "SetSchemaMetadata":
        return {"type": _T + "SetSchemaMetadata$Value", "schema.name": "renamed",
                "schema.version": str(rng.randint(1, 9))}  # fmt: skip
    if kind == "RegexRouter":
        return {"type": _T + "RegexRouter", "regex": "(t)(.*)", "replacement": "x_$2_$1"}
    return {"type": _T + "TimestampRouter", "topic.format": "${topic}-${timestamp}",
            "timestamp.format": rng.choice(["yyyyMMdd", "yyyy-MM-dd'T'HH"])}  # fmt: skip


def cases(seed: int, count: int) -> list[dict[str, Any]]:
    """``count`` cases, half with a schema (an envelope), half schemaless."""
    rng = random.Random(seed)
    out = []
    for i in range(count):
        fields = rng.sample(sorted(_PRIMITIVES), rng.randint(2, len(_PRIMITIVES)))
        envelope = _envelope(rng, fields)
        schemas = i % 2 == 0
        value = envelope if schemas else envelope["payload"]
        out.append({"config": _config(rng, fields), "schemas": schemas, "value": value})
    return json.loads(json.dumps(out))
