"""The sink's key and value converters, built from its config."""

from __future__ import annotations

import base64
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from s3connect.config.sink import SinkConfig
from s3connect.connect.records import Header
from s3connect.convert.base import Converter
from s3connect.convert.factory import make_converter
from s3connect.convert.number import NUMBER_TYPES, BooleanConverter, NumberConverter
from s3connect.convert.registry.base import RegistryConverter
from s3connect.convert.registry.client import Registry, RegistrySettings, RetryPolicy
from s3connect.transforms.header_converter import to_connect_header
from s3connect.transforms.values import convert_to_string

__all__ = [
    "FAILING_HEADER_CONVERTERS",
    "HEADER_TEXTS",
    "build_converter",
    "header_text",
    "shared_registry",
    "with_headers",
]


ReadWithHeaders = Callable[[str, bytes | None, tuple[Header, ...]], tuple[Any, Any]]


def with_headers(converter: Converter) -> ReadWithHeaders:
    """``converter.to_connect`` given the record's headers too: Kafka Connect's
    ``toConnectData(topic, headers, value)``, whose headers the Schema Registry converters read
    (a schema id there); the others ignore them."""
    if isinstance(converter, RegistryConverter):
        return converter.to_connect

    def read(topic: str, data: bytes | None, headers: tuple[Header, ...]) -> tuple[Any, Any]:
        return converter.to_connect(topic, data)

    return read


def build_converter(config: SinkConfig, *, is_key: bool) -> Converter:
    """The key or value converter; a Schema Registry one gets its registry, the retries of
    ``errors.retry.timeout`` / ``errors.retry.delay.max.ms`` and its reading settings."""
    name = config.converters.key if is_key else config.converters.value
    registry = config.registry.key if is_key else config.registry.value
    if registry is not None:
        retry = RetryPolicy(config.errors.retry_timeout_ms, config.errors.retry_delay_max_ms)
        reading = config.registry.key_read if is_key else config.registry.value_read
        return make_converter(
            name,
            registry=shared_registry(registry, retry),
            is_key=is_key,
            read_settings=reading,
        )
    c = config.converters
    if is_key:
        return make_converter(
            name,
            schemas_enable=c.key_schemas_enable,
            is_key=True,
            replace_null_with_default=c.key_replace_null_with_default,
        )
    return make_converter(
        name,
        schemas_enable=c.value_schemas_enable,
        replace_null_with_default=c.value_replace_null_with_default,
    )


ClientFactory = Callable[[dict[str, Any]], Any]
_registries: dict[tuple[RegistrySettings, RetryPolicy, ClientFactory | None], Registry] = {}


def shared_registry(
    settings: RegistrySettings, retry: RetryPolicy, client_factory: ClientFactory | None = None
) -> Registry:
    """One client per registry, credentials, retries (and client factory) in a process: the
    tasks a Python worker runs share its caches (schemas by id, versions by subject), as a
    Connect task's converter keeps them for its life; a new client per task asked the registry
    again for every schema (about 55 ms per task and converter against the local stack)."""
    key = (settings, retry, client_factory)
    if key not in _registries:
        _registries[key] = Registry(settings, retry, client_factory=client_factory)
    return _registries[key]


@lru_cache(maxsize=4096)
def header_text(data: bytes | None) -> bytes | None:
    """A Kafka header's value as the headers file writes it: Kafka Connect's default
    ``SimpleHeaderConverter.toConnectHeader`` (UTF-8, malformed bytes replaced, then
    ``Values.parseString``), then Confluent's ``HeaderRecordView`` (``Values.convertToString``):
    ``1.50`` is written ``1.5``, ``[1, 2]`` ``[1,2]``; None for a null value (the text ``null``
    included), which the headers file refuses."""
    parsed = to_connect_header(data)
    converted = None if parsed is None else convert_to_string(*parsed)
    return None if converted is None else converted.encode("utf-8")


def _string_header_text(data: bytes | None) -> bytes | None:
    """``header.converter=StringConverter``: the value's text as it is (UTF-8, malformed bytes
    replaced), written unchanged by ``Values.convertToString``."""
    return None if data is None else bytes(data).decode("utf-8", "replace").encode("utf-8")


def _bytes_header_text(data: bytes | None) -> bytes | None:
    """``header.converter=ByteArrayConverter``: the value's bytes, which
    ``Values.convertToString`` writes in Base64."""
    return None if data is None else base64.b64encode(bytes(data))


def _typed_header_text(
    converter: NumberConverter | BooleanConverter,
) -> Callable[[bytes | None], bytes | None]:
    """``header.converter`` = a number converter or BooleanConverter: its ``toConnectHeader``
    (the value under its optional schema; a float as ``Float.toString`` writes it), then
    ``Values.convertToString``: ``1234``, ``1234.31``, ``true``.

    The function raises ValueError (Kafka's ``Failed to deserialize long: ...``) for a value
    of another size, which fails the record at the ``HEADER_CONVERTER`` stage."""

    def text(data: bytes | None) -> bytes | None:
        value, schema = converter.to_connect_header("", "", data)
        converted = convert_to_string(schema, value)
        return None if converted is None else converted.encode("utf-8")

    return text


HEADER_TEXTS: dict[str, Callable[[bytes | None], bytes | None]] = {
    "simple": header_text,
    "string": _string_header_text,
    "bytearray": _bytes_header_text,
    "boolean": _typed_header_text(BooleanConverter()),
    **{name: _typed_header_text(NumberConverter(name)) for name in NUMBER_TYPES},
}
"""What the headers file writes of a header value, by ``header.converter``."""

FAILING_HEADER_CONVERTERS = frozenset({"boolean", *NUMBER_TYPES})
"""The header converters that refuse some values (Kafka Connect converts every record's
headers, stored or not: such a value fails the record)."""
