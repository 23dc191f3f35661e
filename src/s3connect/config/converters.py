"""Converter keys: ``key.converter`` / ``value.converter`` and their ``schemas.enable``, with the
sink's ``schema.compatibility`` (Confluent Cloud's ``input.data.format`` too)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Literal, cast

from s3connect.config.parsing import bool_text
from s3connect.config.reader import KeyReader, resolve_class
from s3connect.convert.registry.client import REGISTRY_CONVERTER_CLASSES

__all__ = [
    "CONVERTER_CLASSES",
    "HEADER_CONVERTER_CLASSES",
    "SINK_CONVERTER_CLASSES",
    "ConvertersConfig",
    "JsonConverterKeys",
    "SourceConvertersConfig",
    "read_json_converter",
]

CONVERTER_CLASSES: Mapping[str, str] = MappingProxyType(
    {
        "json": "org.apache.kafka.connect.json.JsonConverter",
        "string": "org.apache.kafka.connect.storage.StringConverter",
        "bytearray": "org.apache.kafka.connect.converters.ByteArrayConverter",
        "short": "org.apache.kafka.connect.converters.ShortConverter",
        "integer": "org.apache.kafka.connect.converters.IntegerConverter",
        "long": "org.apache.kafka.connect.converters.LongConverter",
        "float": "org.apache.kafka.connect.converters.FloatConverter",
        "double": "org.apache.kafka.connect.converters.DoubleConverter",
        "boolean": "org.apache.kafka.connect.converters.BooleanConverter",
    }
)
"""Short converter name -> Kafka Connect converter class."""

_TYPED = ("short", "integer", "long", "float", "double", "boolean")
"""Kafka's number and Boolean converters (also header converters)."""

SINK_CONVERTER_CLASSES: Mapping[str, str] = MappingProxyType(
    {**CONVERTER_CLASSES, **REGISTRY_CONVERTER_CLASSES}
)
"""The sink's converters: Kafka's and Confluent's Schema Registry ones (``avro``,
``jsonschema``, ``protobuf``)."""

HEADER_CONVERTER_CLASSES: Mapping[str, str] = MappingProxyType(
    {
        "simple": "org.apache.kafka.connect.storage.SimpleHeaderConverter",
        "string": CONVERTER_CLASSES["string"],
        "bytearray": CONVERTER_CLASSES["bytearray"],
        **{name: CONVERTER_CLASSES[name] for name in _TYPED},
    }
)
"""The sink's header converters (what a headers file writes of each header value)."""

ConverterName = Literal[
    "json", "string", "bytearray", "short", "integer", "long", "float", "double", "boolean"
]
HeaderConverterName = Literal[
    "simple", "string", "bytearray", "short", "integer", "long", "float", "double", "boolean"
]
SinkConverterName = Literal[
    "json", "string", "bytearray", "short", "integer", "long", "float", "double", "boolean",
    "avro", "jsonschema", "protobuf",
]  # fmt: skip
CompatibilityMode = Literal["NONE", "BACKWARD", "FORWARD", "FULL"]

# Confluent Cloud's input.data.format -> converter.
_CLOUD_INPUTS = {
    "JSON": "json",
    "STRING": "string",
    "BYTES": "bytearray",
    "AVRO": "avro",
    "JSON_SR": "jsonschema",
    "PROTOBUF": "protobuf",
}


@dataclass(frozen=True, kw_only=True)
class ConvertersConfig:
    """The sink's converters (Kafka bytes -> Connect data) and how it takes a value schema
    change (Confluent's ``StorageSchemaCompatibility``)."""

    key: SinkConverterName = "json"
    value: SinkConverterName = "json"
    key_schemas_enable: bool = True
    value_schemas_enable: bool = True
    schema_compatibility: CompatibilityMode = "NONE"
    header: HeaderConverterName = "simple"
    key_replace_null_with_default: bool = True
    """``key.converter.replace.null.with.default`` (JsonConverter): a null read for a schema
    with a default is the default."""
    value_replace_null_with_default: bool = True
    """``value.converter.replace.null.with.default`` (JsonConverter)."""

    @classmethod
    def read(cls, r: KeyReader) -> ConvertersConfig:
        """Read the keys (a Schema Registry converter's own keys: see ``RegistryConfig``)."""
        compatibility = r.choice(  # StorageSchemaCompatibility reads the exact name
            "schema.compatibility", "NONE", ("NONE", "BACKWARD", "FORWARD", "FULL"), exact=True
        )
        allowed = (
            f"must be one of {', '.join(SINK_CONVERTER_CLASSES)} or their converter classes "
            f"({', '.join(SINK_CONVERTER_CLASSES.values())})"
        )
        names: dict[str, str] = {}
        for side in ("key", "value"):
            key = f"{side}.converter"
            names[side] = "json"
            value = r.get(key)
            if value is not None:
                short = resolve_class(value, SINK_CONVERTER_CLASSES)
                if short is None:
                    r.invalid(key, value, allowed)
                else:
                    names[side] = short
        value_schemas_default = _read_cloud_input(r, names)
        json_keys = {side: read_json_converter(r, side, names[side], sink=True) for side in names}
        return cls(
            key=cast(SinkConverterName, names["key"]),
            value=cast(SinkConverterName, names["value"]),
            key_schemas_enable=r.boolean("key.converter.schemas.enable", True),
            value_schemas_enable=r.boolean("value.converter.schemas.enable", value_schemas_default),
            schema_compatibility=cast(CompatibilityMode, compatibility),
            header=_read_header_converter(r),
            key_replace_null_with_default=json_keys["key"].replace_null_with_default,
            value_replace_null_with_default=json_keys["value"].replace_null_with_default,
        )

    def describe(self) -> dict[str, str]:
        """The keys under their names, class names in full."""
        return {
            "key.converter": SINK_CONVERTER_CLASSES[self.key],
            "key.converter.schemas.enable": bool_text(self.key_schemas_enable),
            "value.converter": SINK_CONVERTER_CLASSES[self.value],
            "value.converter.schemas.enable": bool_text(self.value_schemas_enable),
            "schema.compatibility": self.schema_compatibility,
            **({} if self.header == "simple" else {"header.converter": self.header_class}),
            **_describe_replace("key", self.key, self.key_replace_null_with_default),
            **_describe_replace("value", self.value, self.value_replace_null_with_default),
        }

    @property
    def header_class(self) -> str:
        """``header.converter``'s class name."""
        return HEADER_CONVERTER_CLASSES[self.header]


def _read_header_converter(r: KeyReader) -> HeaderConverterName:
    """``header.converter``: Kafka's ``SimpleHeaderConverter`` (the default), ``StringConverter``,
    ``ByteArrayConverter``, the number converters or ``BooleanConverter``; others
    (JsonConverter, the registry's) are refused."""
    value = r.get("header.converter")
    if value is None:
        return "simple"
    short = resolve_class(value, HEADER_CONVERTER_CLASSES)
    if short is None:
        r.invalid(
            "header.converter", value,
            "must be one of " + ", ".join(HEADER_CONVERTER_CLASSES.values())
            + " (other header converters are not supported)",
        )  # fmt: skip
        return "simple"
    return cast(HeaderConverterName, short)


def _read_cloud_input(r: KeyReader, names: dict[str, str]) -> bool:
    """Confluent Cloud's ``input.data.format`` as the value converter; returns the default of
    ``value.converter.schemas.enable`` (Cloud's JSON input is schemaless)."""
    idf = r.get("input.data.format")
    if idf is None:
        return True
    mapped = _CLOUD_INPUTS.get(idf.strip().upper())
    if mapped is None:
        r.invalid(
            "input.data.format", idf, "must be one of AVRO, JSON_SR, PROTOBUF, JSON, STRING, BYTES"
        )
    elif r.has("value.converter") and names["value"] != mapped:
        r.problem(
            f"input.data.format={idf.strip()} and value.converter="
            f"{r.raw_text('value.converter').strip()} disagree: set only one of them"
        )
    else:
        names["value"] = mapped
        return mapped != "json"
    return True


@dataclass(frozen=True, kw_only=True)
class SourceConvertersConfig:
    """The source's converters: how records are serialized back (Connect data -> Kafka bytes)."""

    key: ConverterName = "json"
    value: ConverterName = "json"
    key_schemas_enable: bool = True
    value_schemas_enable: bool = True
    value_decimal_format: str = "BASE64"
    """``value.converter.decimal.format``: JsonConverter's BASE64 or NUMERIC decimals."""
    key_decimal_format: str = "BASE64"
    """``key.converter.decimal.format``."""
    key_replace_null_with_default: bool = True
    """``key.converter.replace.null.with.default``: a null written for a schema with a default
    is the default."""
    value_replace_null_with_default: bool = True
    """``value.converter.replace.null.with.default``."""

    @classmethod
    def read(cls, r: KeyReader) -> SourceConvertersConfig:
        """Read the keys (Kafka's converters only)."""
        names: dict[str, str] = {}
        schemas: dict[str, bool] = {}
        for side in ("key", "value"):
            key = f"{side}.converter"
            value = r.get(key)
            names[side] = "json"
            if value is not None:
                short = resolve_class(value, CONVERTER_CLASSES)
                if short is None:
                    r.invalid(
                        key,
                        value,
                        f"must be one of {', '.join(CONVERTER_CLASSES)} or their converter "
                        f"classes ({', '.join(CONVERTER_CLASSES.values())})",
                    )
                else:
                    names[side] = short
            schemas[side] = r.boolean(f"{key}.schemas.enable", True)
        json_keys = {side: read_json_converter(r, side, names[side], sink=False) for side in names}
        return cls(
            key=cast(ConverterName, names["key"]),
            value=cast(ConverterName, names["value"]),
            key_schemas_enable=schemas["key"],
            value_schemas_enable=schemas["value"],
            value_decimal_format=json_keys["value"].decimal_format,
            key_decimal_format=json_keys["key"].decimal_format,
            key_replace_null_with_default=json_keys["key"].replace_null_with_default,
            value_replace_null_with_default=json_keys["value"].replace_null_with_default,
        )

    def describe(self) -> dict[str, str]:
        """The keys under their names, class names in full."""
        return {
            "key.converter": CONVERTER_CLASSES[self.key],
            "key.converter.schemas.enable": bool_text(self.key_schemas_enable),
            "value.converter": CONVERTER_CLASSES[self.value],
            "value.converter.schemas.enable": bool_text(self.value_schemas_enable),
            "value.converter.decimal.format": self.value_decimal_format,
            **_describe_key_format(self.key_decimal_format),
            **_describe_replace("key", self.key, self.key_replace_null_with_default),
            **_describe_replace("value", self.value, self.value_replace_null_with_default),
        }


@dataclass(frozen=True)
class JsonConverterKeys:
    """A side's ``JsonConverterConfig`` keys that change what the product does."""

    replace_null_with_default: bool = True
    decimal_format: str = "BASE64"


def read_json_converter(
    r: KeyReader, side: str, converter: str, *, sink: bool
) -> JsonConverterKeys:
    """``<side>.converter.<key>`` for the keys of Kafka's ``JsonConverterConfig`` when the side's
    converter is JsonConverter, validated as its ``ConfigDef`` (``schemas.enable`` is read
    apart): ``replace.null.with.default`` (reading and writing), ``decimal.format`` (BASE64 or
    NUMERIC, any case: it only changes what the converter writes, so nothing in the sink) and
    ``schemas.cache.size`` (an INT; a cache size, no change in output). Other converters ignore
    them, as Kafka's do."""
    prefix = f"{side}.converter."
    keys = [prefix + k for k in ("replace.null.with.default", "decimal.format", _CACHE_SIZE)]
    if converter != "json":
        for key in keys:
            if r.get(key) is not None:
                r.ignore(key)
        return JsonConverterKeys()
    replace_key, format_key, cache_key = keys
    replace = r.boolean(replace_key, True)
    decimal_format = r.choice(format_key, "BASE64", ("BASE64", "NUMERIC"))
    if sink and r.get(format_key) is not None:
        r.ignore(format_key)
    if r.get(cache_key) is not None:
        r.integer(cache_key, 1000, -(2**31), 2**31 - 1, "must be an integer (Kafka's INT)")
        r.ignore(cache_key)
    return JsonConverterKeys(replace, decimal_format)


_CACHE_SIZE = "schemas.cache.size"


def _describe_key_format(decimal_format: str) -> dict[str, str]:
    return {} if decimal_format == "BASE64" else {"key.converter.decimal.format": decimal_format}


def _describe_replace(side: str, converter: str, replace: bool) -> dict[str, str]:
    if converter != "json" or replace:
        return {}
    return {f"{side}.converter.replace.null.with.default": bool_text(replace)}
