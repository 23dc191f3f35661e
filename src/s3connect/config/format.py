"""File format keys: ``format.class``, its codecs and compression, the ByteArray and JSON
options, and AvroData's options (Confluent Cloud's ``output.data.format`` and
``compression.codec`` too)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Literal, cast

from s3connect.config.parsing import bool_text
from s3connect.config.plugins import load_plugin, looks_like_python, plugin_keys
from s3connect.config.reader import INT_MAX, KeyReader, one_of_values, resolve_class
from s3connect.convert.avro_data import AvroDataOptions

__all__ = ["FORMAT_CLASSES", "FormatConfig", "FormatName", "gzip_refusal"]

FormatName = Literal["avro", "json", "parquet", "bytearray"]

FORMAT_CLASSES: Mapping[str, str] = MappingProxyType(
    {
        "avro": "io.confluent.connect.s3.format.avro.AvroFormat",
        "json": "io.confluent.connect.s3.format.json.JsonFormat",
        "parquet": "io.confluent.connect.s3.format.parquet.ParquetFormat",
        "bytearray": "io.confluent.connect.s3.format.bytearray.ByteArrayFormat",
    }
)
"""Short format name -> Confluent format class."""
_ALLOWED = "one of avro, json, parquet, bytearray, " + ", ".join(FORMAT_CLASSES.values())

# Confluent Cloud's names for formats, used by output.data.format and compression.codec.
_CLOUD_FORMATS = {"AVRO": "avro", "JSON": "json", "PARQUET": "parquet", "BYTES": "bytearray"}
_AVRO_CODECS = ("null", "deflate", "snappy", "bzip2")
_PARQUET_CODECS = ("none", "snappy", "gzip", "zstd", "lz4", "brotli")
# ParquetCodecRecommender.ALLOWED_VALUES, in its order (Parquet's CompressionCodecName names)
_PARQUET_CODECS_LISTED = ("none", "gzip", "snappy", "lz4", "brotli", "lz4_raw", "zstd", "lzo")
_NO_GZIP = ("avro", "parquet")  # COMPRESSION_SUPPORTED_FORMATS[GZIP] is json and bytearray
_REQUIRED = "one of avro, json, parquet, bytearray or a Confluent class"


@dataclass(frozen=True, kw_only=True)
class FormatConfig:
    """How records are written into objects (the source reads ``format.class`` and the
    ByteArray options only)."""

    name: FormatName
    """The short format name (``format.class``)."""
    avro_codec: str = "null"
    parquet_codec: str = "snappy"
    compression_type: str = "none"
    """``s3.compression.type``: ``none`` or ``gzip`` (JSON and ByteArray)."""
    compression_level: int = -1
    """``s3.compression.level``."""
    bytearray_extension: str = ".bin"
    bytearray_separator: str = "\n"
    json_decimal_format: str = "BASE64"
    schema_cache_size: int = 1000
    """``schemas.cache.config`` (formerly ``schema.cache.size``): the size of Confluent's
    AvroData schema caches; a cache size only, without effect on output (our formats keep no
    schema cache)."""
    enhanced_avro_schema_support: bool = True
    """``enhanced.avro.schema.support``: AvroData writes Connect strings carrying the
    ``io.confluent.connect.avro.Enum`` parameters as Avro enums (Avro and Parquet output).
    Confluent's connector-level default is true (the converters' is false)."""
    connect_meta_data: bool = True
    allow_optional_map_keys: bool = False
    """``allow.optional.map.keys``: AvroData writes a Connect map with optional string keys as an
    Avro map, not as an array of ``MapEntry`` records (Avro and Parquet output)."""
    plugin: str | None = None
    """A Python format class (``format.class``), instead of :attr:`name`'s built-in."""
    plugin_settings: Mapping[str, str] = field(default_factory=dict, compare=False, repr=False)
    """The connector config the plugin is made with (every key)."""

    @property
    def avro_data(self) -> AvroDataOptions:
        """AvroData's settings of the Avro and Parquet formats."""
        return AvroDataOptions(
            enhanced_schema_support=self.enhanced_avro_schema_support,
            allow_optional_map_keys=self.allow_optional_map_keys,
            connect_meta_data=self.connect_meta_data,
        )

    @property
    def class_name(self) -> str:
        """Confluent's class name for :attr:`name` (or the plugin's Python class path)."""
        return self.plugin or FORMAT_CLASSES[self.name]

    @classmethod
    def read(cls, r: KeyReader) -> FormatConfig:
        """The sink's keys (gzip only for json and bytearray)."""
        fc, fmt = _read_class(r)
        plugin = _read_plugin(r, fc) if fc is not None and fmt is None else None
        odf = r.get("output.data.format")
        if odf is not None:
            cloud_fmt = _CLOUD_FORMATS.get(odf.strip().upper())
            if cloud_fmt is None:
                r.invalid("output.data.format", odf, "must be one of AVRO, JSON, PARQUET, BYTES")
            elif fc is not None and fmt is not None and fmt != cloud_fmt:
                r.problem(
                    f"format.class={fc.strip()} and output.data.format={odf.strip()} disagree: "
                    "set only one of them"
                )
            else:
                fmt = cloud_fmt
        if fmt is None and fc is None and odf is None:
            r.missing("format.class", _REQUIRED)
        codecs = _read_codecs(r, fmt)
        level = r.ranged("s3.compression.level", -1, -1, 9)  # CompressionLevelValidator
        if codecs["s3.compression.type"] == "gzip" and (plugin is not None or fmt in _NO_GZIP):
            r.problem(  # S3SinkConnectorValidator.validateCompression
                "format.class, s3.compression.type: "
                + gzip_refusal("data", plugin or FORMAT_CLASSES[fmt or "json"])
            )
        return cls(
            name=cast(FormatName, fmt or "json"),
            avro_codec=codecs["avro.codec"],
            parquet_codec=codecs["parquet.codec"],
            compression_type=codecs["s3.compression.type"],
            compression_level=level,
            bytearray_extension=r.string("format.bytearray.extension", ".bin"),
            # Whitespace is significant here: Confluent reads the original, untrimmed value.
            bytearray_separator=r.string("format.bytearray.separator", "\n", strip=False),
            json_decimal_format=r.choice(
                "json.decimal.format",
                "BASE64",
                ("BASE64", "NUMERIC"),
                why="String must be one of (case insensitive): BASE64, NUMERIC",
            ),
            schema_cache_size=_read_cache_size(r),
            enhanced_avro_schema_support=r.boolean("enhanced.avro.schema.support", True),
            connect_meta_data=r.boolean("connect.meta.data", True),
            allow_optional_map_keys=r.boolean("allow.optional.map.keys", False),
            plugin=plugin,
            plugin_settings=dict(r.raw) if plugin else {},
        )

    @classmethod
    def read_source(cls, r: KeyReader) -> FormatConfig:
        """The source's keys: ``format.class`` and the ByteArray options (a separator needed)."""
        fc, fmt = _read_class(r)
        if fc is None:
            r.missing("format.class", _REQUIRED)
        elif fmt is None and looks_like_python(fc):
            r.invalid("format.class", fc, f"the S3 source reads the built-in formats: {_ALLOWED}")
        extension = r.string("format.bytearray.extension", ".bin")
        separator = r.string("format.bytearray.separator", "\n", strip=False)
        if fmt == "bytearray" and not separator:
            r.invalid(
                "format.bytearray.separator",
                "",
                "must not be empty: records could not be told apart",
            )
        return cls(
            name=cast(FormatName, fmt or "json"),
            bytearray_extension=extension,
            bytearray_separator=separator,
        )

    def describe(self) -> dict[str, str]:
        """The keys under their names, the class name in full."""
        return {
            "format.class": self.class_name,
            "avro.codec": self.avro_codec,
            "parquet.codec": self.parquet_codec,
            "s3.compression.type": self.compression_type,
            "s3.compression.level": str(self.compression_level),
            "format.bytearray.extension": self.bytearray_extension,
            "format.bytearray.separator": self.bytearray_separator,
            "json.decimal.format": self.json_decimal_format,
            "schemas.cache.config": str(self.schema_cache_size),
            "enhanced.avro.schema.support": bool_text(self.enhanced_avro_schema_support),
            "connect.meta.data": bool_text(self.connect_meta_data),
            "allow.optional.map.keys": bool_text(self.allow_optional_map_keys),
        }


def gzip_refusal(side: str, class_name: str) -> str:
    """``S3SinkConnectorValidator.FORMAT_CONFIG_ERROR_MESSAGE`` for gzip: ``side`` (data, keys,
    headers) written with ``class_name``, a format gzip does not apply to."""
    return f"Compression Type gzip not valid for {side} format class: ( {class_name} )."


def _read_cache_size(r: KeyReader) -> int:
    """``schemas.cache.config`` (Kafka INT, no validator), else the pre-2020 name
    ``schema.cache.size`` (still accepted; listed as ignored when both are given)."""
    current = r.integer("schemas.cache.config", None, -(2**31), INT_MAX, "Not a number of type INT")
    old = r.integer("schema.cache.size", 1000, 0, INT_MAX, "must be an integer >= 0")
    if not r.has("schemas.cache.config"):
        return old
    if r.has("schema.cache.size"):
        r.ignore("schema.cache.size")
    return 1000 if current is None else current


def _read_class(r: KeyReader) -> tuple[str | None, str | None]:
    """``format.class`` as given and as a short name (None when absent, invalid or a Python
    class: see :func:`_read_plugin`)."""
    fc = r.get("format.class")
    if fc is None:
        return None, None
    fmt = resolve_class(fc, FORMAT_CLASSES)
    if fmt is None and not looks_like_python(fc):
        r.invalid("format.class", fc, f"must be {_ALLOWED}, or a Python class")
    return fc, fmt


def _read_plugin(r: KeyReader, fc: str) -> str | None:
    """The Python class path of a ``format.class`` that is not one of Confluent's (its own keys,
    ``config_keys``, read); None when it is not one."""
    if not looks_like_python(fc):
        return None
    try:
        cls = load_plugin("format", fc.strip())
    except ValueError as exc:
        r.invalid("format.class", fc, f"must be {_ALLOWED}, or a Python format: {exc}")
        return None
    for key in plugin_keys(cls):
        r.get(key)
    return fc.strip()


def _read_codecs(r: KeyReader, fmt: str | None) -> dict[str, str]:
    """``avro.codec``, ``parquet.codec`` and ``s3.compression.type``, or Confluent Cloud's
    ``compression.codec`` setting one of them."""
    codecs = {
        "avro.codec": r.choice(
            "avro.codec",
            "null",
            _AVRO_CODECS,
            exact=True,
            why="String must be one of: " + ", ".join(_AVRO_CODECS),
        ),
        "parquet.codec": r.choice(
            "parquet.codec",
            "snappy",
            (*_PARQUET_CODECS, "lzo", "lz4_raw"),
            exact=True,
            why=one_of_values(_PARQUET_CODECS_LISTED),
        ),
    }
    if codecs["parquet.codec"] in ("lzo", "lz4_raw"):
        allowed = ", ".join(_PARQUET_CODECS)
        name = {"lzo": "LZO", "lz4_raw": "LZ4_RAW"}[codecs["parquet.codec"]]
        r.later(
            "parquet.codec",
            codecs["parquet.codec"],
            f"there is no {name} Parquet writer; use one of {allowed}",
        )
    codecs["s3.compression.type"] = r.choice(  # CompressionTypeValidator
        "s3.compression.type",
        "none",
        ("none", "gzip"),
        exact=True,
        why=one_of_values(("none", "gzip")),
    )
    codec = r.get("compression.codec")
    if codec is not None:
        _apply_cloud_codec(r, codecs, codec, fmt)
    return codecs


def _apply_cloud_codec(r: KeyReader, codecs: dict[str, str], codec: str, fmt: str | None) -> None:
    """Confluent Cloud's ``compression.codec``: ``"AVRO - snappy"``, ``"JSON - gzip"``, ..."""
    allowed = (
        "must be <FORMAT> - <codec>: AVRO - null|deflate|snappy|bzip2, "
        "PARQUET - none|snappy|gzip|zstd|lz4|brotli, JSON - none|gzip, BYTES - none|gzip"
    )
    m = re.fullmatch(r"\s*([A-Za-z]+)\s*-\s*([A-Za-z0-9_]+)\s*", codec)
    codec_fmt = _CLOUD_FORMATS.get(m.group(1).upper()) if m else None
    if m is None or codec_fmt is None:
        r.invalid("compression.codec", codec, allowed)
        return
    name = m.group(2).lower()
    if fmt is not None and codec_fmt != fmt:
        r.invalid("compression.codec", codec, f"its format must match the output format ({fmt})")
        return
    if codec_fmt == "avro" and name in _AVRO_CODECS:
        target = "avro.codec"
    elif codec_fmt == "parquet" and name in _PARQUET_CODECS:
        target = "parquet.codec"
    elif codec_fmt in ("json", "bytearray") and name in ("none", "gzip"):
        target = "s3.compression.type"
    else:
        r.invalid("compression.codec", codec, allowed)
        return
    if r.has(target) and codecs[target] != name:
        r.problem(
            f"compression.codec={codec.strip()} and {target}={r.raw_text(target).strip()} "
            "disagree: set only one of them"
        )
        return
    codecs[target] = name
