"""The one converter factory: Kafka's JSON, String, ByteArray, number and Boolean converters,
Confluent's Schema Registry converters, and converters registered by name, by short or class
name."""

from __future__ import annotations

from collections.abc import Callable

from s3connect.convert.base import Converter, Serializer
from s3connect.convert.bytearray import ByteArrayConverter
from s3connect.convert.json import JsonConverter
from s3connect.convert.number import NUMBER_TYPES, BooleanConverter, NumberConverter
from s3connect.convert.registry.base import RegistryConverter
from s3connect.convert.registry.client import REGISTRY_CONVERTER_CLASSES, ReadSettings, Registry
from s3connect.convert.string import StringConverter

__all__ = [
    "ConverterFactory",
    "converter_names",
    "make_converter",
    "make_serializer",
    "register_converter",
]

ConverterFactory = Callable[..., Converter]
"""Called with keyword arguments ``schemas_enable`` and ``is_key``."""

_REGISTRY: dict[str, ConverterFactory] = {}

_ALIASES = {
    "org.apache.kafka.connect.json.JsonConverter": "json",
    "org.apache.kafka.connect.storage.StringConverter": "string",
    "org.apache.kafka.connect.converters.ByteArrayConverter": "bytearray",
    "org.apache.kafka.connect.converters.ShortConverter": "short",
    "org.apache.kafka.connect.converters.IntegerConverter": "integer",
    "org.apache.kafka.connect.converters.LongConverter": "long",
    "org.apache.kafka.connect.converters.FloatConverter": "float",
    "org.apache.kafka.connect.converters.DoubleConverter": "double",
    "org.apache.kafka.connect.converters.BooleanConverter": "boolean",
}


def register_converter(name: str, factory: ConverterFactory) -> None:
    """Register a converter factory under a short name."""
    _REGISTRY[name.lower()] = factory


def converter_names() -> list[str]:
    """The registered short names, sorted."""
    return sorted(_REGISTRY)


def make_converter(
    name: str,
    *,
    schemas_enable: bool = True,
    is_key: bool = False,
    registry: Registry | None = None,
    replace_null_with_default: bool = True,
    read_settings: ReadSettings | None = None,
) -> Converter:
    """Build a converter by short name (``json``, ``string``, ``bytearray``, a number type,
    ``boolean``) or Kafka class name;
    with ``registry``, the Schema Registry converter ``avro``, ``jsonschema`` or ``protobuf``
    (short or Confluent class name) reading through it. ``replace_null_with_default`` is
    JsonConverter's ``replace.null.with.default``; ``read_settings`` the Schema Registry
    converter's subject name strategy, ``use.latest.version`` and trailing data settings.

    Raises:
        ValueError: the name is unknown (the message lists the known names).
    """
    if registry is not None:
        return _registry_converter(name, registry, is_key, read_settings)
    key = _ALIASES.get(name.strip(), name.strip()).lower()
    if key == "json" and not replace_null_with_default:
        return JsonConverter(
            schemas_enable=schemas_enable, is_key=is_key, replace_null_with_default=False
        )
    factory = _REGISTRY.get(key)
    if factory is None:
        raise ValueError(f"Unknown converter {name!r}; known: {', '.join(converter_names())}")
    return factory(schemas_enable=schemas_enable, is_key=is_key)


def make_serializer(
    name: str,
    *,
    schemas_enable: bool = True,
    decimal_format: str = "BASE64",
    is_key: bool = False,
    replace_null_with_default: bool = True,
) -> Serializer:
    """``fromConnectData`` of Kafka's converter ``name`` (``json``, ``string``, ``bytearray``,
    ``short``, ``integer``, ``long``, ``float``, ``double``, ``boolean``): how the source turns
    Connect values back into Kafka bytes (``decimal_format`` and ``replace_null_with_default``:
    JsonConverter's settings).

    Raises:
        ValueError: an unknown converter name.
    """
    if name == "json":
        converter = JsonConverter(
            schemas_enable=schemas_enable,
            decimal_format=decimal_format,
            is_key=is_key,
            replace_null_with_default=replace_null_with_default,
        )
        return converter.from_connect
    if name == "string":
        return StringConverter(is_key=is_key).from_connect
    if name == "bytearray":
        return ByteArrayConverter(is_key=is_key).from_connect
    if name == "boolean":
        return BooleanConverter(is_key=is_key).from_connect
    if name in NUMBER_TYPES:
        return NumberConverter(name, is_key=is_key).from_connect
    known = ", ".join(sorted(["bytearray", "json", "string", "boolean", *NUMBER_TYPES]))
    raise ValueError(f"Unknown converter {name!r}; known: {known}")


def _registry_converter(
    name: str, registry: Registry, is_key: bool, settings: ReadSettings | None
) -> RegistryConverter:
    from s3connect.convert.registry.avro import AvroConverter
    from s3connect.convert.registry.json_schema import JsonSchemaConverter
    from s3connect.convert.registry.protobuf import ProtobufConverter

    short = next((k for k, v in REGISTRY_CONVERTER_CLASSES.items() if name in (k, v)), name.lower())
    factory: dict[str, type[RegistryConverter]] = {
        "avro": AvroConverter,
        "jsonschema": JsonSchemaConverter,
        "protobuf": ProtobufConverter,
    }
    if short not in factory:
        raise ValueError(f"Unknown Schema Registry converter {name!r}")
    return factory[short](registry, is_key=is_key, settings=settings)


register_converter(
    "json",
    lambda *, schemas_enable, is_key: JsonConverter(schemas_enable=schemas_enable, is_key=is_key),
)
register_converter("string", lambda *, schemas_enable, is_key: StringConverter(is_key=is_key))
register_converter("bytearray", lambda *, schemas_enable, is_key: ByteArrayConverter(is_key=is_key))
register_converter("boolean", lambda *, schemas_enable, is_key: BooleanConverter(is_key=is_key))
for _number in NUMBER_TYPES:
    register_converter(
        _number,
        lambda *, schemas_enable, is_key, _n=_number: NumberConverter(_n, is_key=is_key),
    )
