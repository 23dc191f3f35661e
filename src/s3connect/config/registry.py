"""Schema Registry keys of the sink's Schema Registry converters
(``<side>.converter.schema.registry.url`` and basic auth), and the converters' other
``<side>.converter.*`` properties."""

from __future__ import annotations

import re
from dataclasses import dataclass

from s3connect.config.converters import SINK_CONVERTER_CLASSES, ConvertersConfig
from s3connect.config.reader import KeyReader
from s3connect.convert.registry.client import (
    REGISTRY_CONVERTER_CLASSES,
    SUBJECT_NAME_STRATEGIES,
    ReadSettings,
    RegistrySettings,
    display_url,
)

__all__ = ["RegistryConfig"]

_DUAL_SCHEMA_ID = "io.confluent.kafka.serializers.schema.id.DualSchemaIdDeserializer"
_DEFAULT_READ = ReadSettings()
# Schema Registry converter settings that change the Connect data: accepted at their default.
_SR_CONVERTER_DEFAULTS = {
    "connect.meta.data": "true",
    "enhanced.avro.schema.support": "false",
    "enhanced.protobuf.schema.support": "false",
    "generalized.sum.type.support": "false",
    "scrub.invalid.names": "false",
    "use.latest.with.metadata": "",
    "specific.avro.reader": "false",
    "avro.use.logical.type.converters": "false",
    "context.name.strategy": "io.confluent.kafka.serializers.context.NullContextNameStrategy",
    "key.schema.id.deserializer": _DUAL_SCHEMA_ID,
    "value.schema.id.deserializer": _DUAL_SCHEMA_ID,
    "int.for.enums": "false",
    "optional.for.nullables": "false",
    "optional.for.proto2": "true",
    "wrapper.for.nullables": "false",
    "wrapper.for.raw.primitives": "true",
    "use.optional.for.nonrequired": "false",
    "flatten.singleton.unions": "true",
    "preserve.additional.properties": "false",
    "generate.struct.for.nulls": "false",
    "generate.index.for.unions": "true",
    "flatten.unions": "false",
}


@dataclass(frozen=True, kw_only=True)
class RegistryConfig:
    """The Schema Registry of each Schema Registry converter (None for the others)."""

    key: RegistrySettings | None = None
    """``key.converter.schema.registry.url`` and basic auth."""
    value: RegistrySettings | None = None
    """``value.converter.schema.registry.url`` and basic auth."""
    key_read: ReadSettings = _DEFAULT_READ
    """The key converter's subject name strategy, ``use.latest.version``, trailing data."""
    value_read: ReadSettings = _DEFAULT_READ
    """The value converter's subject name strategy, ``use.latest.version``, trailing data."""

    @classmethod
    def read(cls, r: KeyReader, converters: ConvertersConfig) -> RegistryConfig:
        """Read the registry keys of ``converters``' Schema Registry converters, then the other
        ``<side>.converter.*`` keys (settings that change the data only at their default)."""
        sides = {
            side: name
            for side, name in (("key", converters.key), ("value", converters.value))
            if name in REGISTRY_CONVERTER_CLASSES
        }
        settings = {side: _read_registry(r, side, name) for side, name in sides.items()}
        reading = {side: _read_settings(r, side, name) for side, name in sides.items()}
        for side in ("key", "value"):
            _read_properties(r, side, sides.get(side))
        return cls(
            key=settings.get("key"),
            value=settings.get("value"),
            key_read=reading.get("key", _DEFAULT_READ),
            value_read=reading.get("value", _DEFAULT_READ),
        )

    def describe(self, masked: bool = True) -> dict[str, str]:
        """The keys under their names (registry URLs without credentials when ``masked``)."""
        d: dict[str, str] = {}
        for side, registry in (("key", self.key), ("value", self.value)):
            if registry is not None:
                prefix = f"{side}.converter."
                d[prefix + "schema.registry.url"] = registry.display_url if masked else registry.url
                d[prefix + "basic.auth.credentials.source"] = registry.credentials_source
                if registry.user_info is not None:
                    d[prefix + "basic.auth.user.info"] = registry.user_info
        return d


def _read_registry(r: KeyReader, side: str, converter: str) -> RegistrySettings | None:
    """``<side>.converter.schema.registry.url`` and basic auth of a Schema Registry converter."""
    prefix = f"{side}.converter."
    what = f"for {SINK_CONVERTER_CLASSES[converter]}"
    url = r.optional(prefix + "schema.registry.url")
    if url is None:
        r.missing(prefix + "schema.registry.url", f"the Schema Registry base URL {what}")
        return None
    if not all(re.match(r"^https?://\S+$", u.strip()) for u in url.split(",")):
        r.invalid(prefix + "schema.registry.url", display_url(url), "must be http(s) URLs")
    source = r.choice(
        prefix + "basic.auth.credentials.source", "URL", ("URL", "USER_INFO", "SASL_INHERIT")
    )
    if source == "SASL_INHERIT":
        r.later(prefix + "basic.auth.credentials.source", source, "only URL and USER_INFO")
    user_info = r.optional(prefix + "basic.auth.user.info")
    if source == "USER_INFO":
        if user_info is None:
            r.missing(prefix + "basic.auth.user.info", f"user:password with USER_INFO {what}")
        elif ":" not in user_info:
            r.invalid(prefix + "basic.auth.user.info", user_info, "must be user:password")
        elif "@" in url.split("//", 1)[-1].split("/", 1)[0]:
            r.problem(
                f"{prefix}schema.registry.url has user info and "
                f"{prefix}basic.auth.credentials.source=USER_INFO: keep the credentials in one "
                "place"
            )
    elif user_info is not None:
        r.ignore(prefix + "basic.auth.user.info")
    return RegistrySettings(url=url, credentials_source=source, user_info=user_info)


def _read_settings(r: KeyReader, side: str, converter: str) -> ReadSettings:
    """The settings that change what the converter reads: its side's subject name strategy
    (the other side's has no effect), ``use.latest.version`` and, for Avro,
    ``avro.fail.on.trailing.data``; the record name strategies and ``use.latest.version`` with
    AvroConverter only."""
    prefix = f"{side}.converter."
    key = f"{prefix}{side}.subject.name.strategy"
    strategy = (r.get(key) or SUBJECT_NAME_STRATEGIES[0]).strip()
    avro = converter == "avro"
    if strategy not in SUBJECT_NAME_STRATEGIES:
        r.later(key, strategy, "only " + ", ".join(SUBJECT_NAME_STRATEGIES))
    elif strategy != SUBJECT_NAME_STRATEGIES[0] and not avro:
        r.later(key, strategy, "only TopicNameStrategy but with AvroConverter")
    other = f"{prefix}{'value' if side == 'key' else 'key'}.subject.name.strategy"
    if r.get(other) is not None:
        r.ignore(other)  # a key converter reads key.subject.name.strategy only, and vice versa
    latest = r.boolean(prefix + "use.latest.version", False)
    if latest and not avro:
        r.later(prefix + "use.latest.version", "true", "only false but with AvroConverter")
    trailing = r.boolean(prefix + "avro.fail.on.trailing.data", False)
    if r.has(prefix + "avro.fail.on.trailing.data") and not avro:
        r.ignore(prefix + "avro.fail.on.trailing.data")
    return ReadSettings(strategy, latest, trailing and avro)


def _read_properties(r: KeyReader, side: str, converter: str | None) -> None:
    """The ``<side>.converter.*`` keys not read yet (``converter``: the side's Schema Registry
    converter, if any): accepted at their default, ignored, or left unread (reported as
    unknown)."""
    prefix = f"{side}.converter."
    if converter == "jsonschema":  # JsonSchemaDataConfig validates it (it changes writing only)
        r.choice(prefix + "decimal.format", "BASE64", ("BASE64", "NUMERIC"),
                 why="String must be one of (case insensitive): BASE64, NUMERIC")  # fmt: skip
        if r.has(prefix + "decimal.format"):
            r.ignore(prefix + "decimal.format")
    for key in r.unread(prefix):
        suffix = key[len(prefix) :]
        value = r.get(key) or ""
        if converter and suffix in _SR_CONVERTER_DEFAULTS:
            if value.strip().lower() != _SR_CONVERTER_DEFAULTS[suffix].lower():
                r.later(key, value, f"only the default {_SR_CONVERTER_DEFAULTS[suffix]}")
        elif converter:
            r.ignore(key)
        elif suffix.startswith(("schema.registry.", "basic.auth.")):
            r.ignore(key)  # the converter is not a Schema Registry one
        else:
            r.used.discard(key)  # reported as unknown
