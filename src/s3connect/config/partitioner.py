"""Partitioner keys: ``partitioner.class``, the Field / time-based partitioners' options
(Confluent Cloud's ``time.interval`` too), ``s3.schema.partition.affix.type`` and
``behavior.on.null.values``, validated as Confluent's ``PartitionerConfig`` and
``S3SinkConnectorConfig``."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Literal, cast

from s3connect.config.plugins import load_plugin, looks_like_python, plugin_keys
from s3connect.config.reader import LONG_MAX, KeyReader, resolve_class
from s3connect.util.timeformat import JodaFormatter, JodaZone, validate_pattern

__all__ = [
    "PARTITIONER_CLASSES",
    "TIMESTAMP_EXTRACTOR_CLASSES",
    "PartitionerConfig",
    "time_interval_ms",
]

PARTITIONER_CLASSES: Mapping[str, str] = MappingProxyType(
    {
        "default": "io.confluent.connect.storage.partitioner.DefaultPartitioner",
        "field": "io.confluent.connect.storage.partitioner.FieldPartitioner",
        "time": "io.confluent.connect.storage.partitioner.TimeBasedPartitioner",
        "daily": "io.confluent.connect.storage.partitioner.DailyPartitioner",
        "hourly": "io.confluent.connect.storage.partitioner.HourlyPartitioner",
    }
)
"""Short partitioner name -> Confluent partitioner class."""

TIMESTAMP_EXTRACTOR_CLASSES: Mapping[str, str] = MappingProxyType(
    {
        name: f"io.confluent.connect.storage.partitioner.TimeBasedPartitioner${name}"
        "TimestampExtractor"
        for name in ("Wallclock", "Record", "RecordField")
    }
)
"""Confluent short extractor name -> class (``TimeBasedPartitioner.newTimestampExtractor``)."""

PartitionerName = Literal["default", "field", "time", "daily", "hourly"]
ExtractorName = Literal["Wallclock", "Record", "RecordField"]
AffixType = Literal["NONE", "PREFIX", "SUFFIX"]
_AFFIX_TYPES: tuple[AffixType, ...] = ("SUFFIX", "PREFIX", "NONE")  # AffixType.names() order

_TIME_PARTITIONERS = frozenset({"time", "daily", "hourly"})
_DAY_MS = 86_400_000
_HOUR_MS = 3_600_000
_LOCALE_RE = re.compile(r"^[A-Za-z]{2,8}([_-][A-Za-z0-9]{1,8})*$")


def time_interval_ms(value: str | None) -> int | None:
    """Confluent Cloud's ``time.interval`` (``HOURLY`` / ``DAILY``) in ms; None otherwise."""
    if value is None:
        return None
    return {"HOURLY": _HOUR_MS, "DAILY": _DAY_MS}.get(value.strip().upper())


@dataclass(frozen=True, kw_only=True)
class PartitionerConfig:
    """How records are spread over encoded partitions, null values included (the source reads
    the class only)."""

    name: PartitionerName = "default"
    """The short partitioner name (``partitioner.class``)."""
    field_names: tuple[str, ...] = ()
    """``partition.field.name``."""
    path_format: str = ""
    duration_ms: int = -1
    """``partition.duration.ms``."""
    locale: str = ""
    timezone: str = ""
    timestamp_extractor: ExtractorName = "Wallclock"
    timestamp_field: str = "timestamp"
    behavior_on_null_values: Literal["fail", "ignore", "write"] = "fail"
    """A record with a null value fails, is skipped, or (``write``) goes to the tombstone
    partition (Confluent's ``TombstoneSupportedPartitioner``)."""
    plugin: str | None = None
    """A Python partitioner class (``partitioner.class``), instead of :attr:`name`'s built-in."""
    plugin_settings: Mapping[str, str] = field(default_factory=dict, compare=False, repr=False)
    """The connector config the plugin is made with (every key)."""
    schema_partition_affix_type: AffixType = "NONE"
    """``s3.schema.partition.affix.type``: ``PREFIX`` / ``SUFFIX`` put ``schema_name=<value schema
    name>`` before / after the encoded partition (Confluent's ``SchemaPartitioner``)."""

    @property
    def class_name(self) -> str:
        """Confluent's class name for :attr:`name` (or the plugin's Python class path)."""
        return self.plugin or PARTITIONER_CLASSES[self.name]

    @property
    def time_based(self) -> bool:
        """Whether this is a time-based partitioner (time, daily or hourly)."""
        return self.name in _TIME_PARTITIONERS

    @classmethod
    def read(
        cls, r: KeyReader, *, directory_delim: str, rotate_schedule_interval_ms: int, cloud: bool
    ) -> PartitionerConfig:
        """The sink's keys; a time-based partitioner needs a locale and timezone, and so does
        ``rotate.schedule.interval.ms`` (a timezone)."""
        pc, name, plugin = _read_class(r)
        path_format = r.string("path.format", "")
        duration = r.integer(
            "partition.duration.ms", -1, -(2**63), LONG_MAX, "Not a number of type LONG"
        )
        ti = r.get("time.interval")
        interval_ms = time_interval_ms(ti)
        if ti is not None:
            if interval_ms is None:
                r.invalid("time.interval", ti, "must be HOURLY or DAILY")
            elif pc is not None:
                r.problem(
                    f"time.interval={ti.strip()} and partitioner.class={pc.strip()} are both "
                    "set: set only one of them"
                )
            elif path_format:
                name, duration = "time", interval_ms
            else:
                name = "hourly" if interval_ms == _HOUR_MS else "daily"
        if name in ("daily", "hourly"):
            path_format, duration = _fixed_path(r, name, directory_delim, path_format, duration)
        cloud_timed = cloud and ti is not None
        fields = _field_names(r)
        if name == "field" and not fields:
            r.missing(  # FieldPartitionerValidator's words
                "partition.field.name",
                "Partition field name cannot be null or empty when using FieldPartitioner.",
            )
        what = f"partitioner.class={PARTITIONER_CLASSES[name].rsplit('.', 1)[-1]}"
        pattern: str | None = None
        if name == "time":
            path_format, pattern = _time_path(r, path_format, directory_delim, what)
            if not r.has("partition.duration.ms") and interval_ms is None:
                r.missing("partition.duration.ms", f"an integer > 0 (milliseconds) ({what})")
            elif duration <= 0:
                r.invalid(
                    "partition.duration.ms", str(duration), f"must be an integer > 0 ({what})"
                )
        locale, timezone = _read_zone(r, name in _TIME_PARTITIONERS, cloud_timed, what)
        if pattern is not None:
            problem = _check_joda_pattern(pattern, timezone, locale)
            if problem:
                r.invalid("path.format", pattern, problem)
        if rotate_schedule_interval_ms > 0 and not timezone:
            r.problem("timezone configuration must be set when using rotate.schedule.interval.ms")
        timestamp_field = r.string("timestamp.field", "timestamp")
        return cls(
            name=name,
            field_names=fields,
            path_format=path_format,
            duration_ms=duration,
            locale=locale,
            timezone=timezone,
            timestamp_extractor=_read_extractor(r, cloud_timed, timestamp_field),
            timestamp_field=timestamp_field,
            behavior_on_null_values=cast(
                Literal["fail", "ignore", "write"],
                r.choice(  # OutputWriteBehavior.VALIDATOR
                    "behavior.on.null.values",
                    "fail",
                    ("fail", "ignore", "write"),
                    why="String must be one of: ignore, fail, write",
                ),
            ),
            schema_partition_affix_type=_read_affix(r),
            plugin=plugin,
            plugin_settings=dict(r.raw) if plugin else {},
        )

    @classmethod
    def read_source(cls, r: KeyReader) -> PartitionerConfig:
        """The source's key: ``partitioner.class`` (the folders it lists)."""
        _pc, name, plugin = _read_class(r)
        # A Python partitioner's folders are its own: objects are read as the Field partitioner's
        # (one Kafka partition's offsets spread over folders).
        return cls(name="field" if plugin else name, plugin=plugin)

    def describe(self) -> dict[str, str]:
        """The keys under their names, the class name in full."""
        return {
            "partitioner.class": self.class_name,
            "partition.field.name": ",".join(self.field_names),
            "path.format": self.path_format,
            "partition.duration.ms": str(self.duration_ms),
            "locale": self.locale,
            "timezone": self.timezone,
            "timestamp.extractor": self.timestamp_extractor,
            "timestamp.field": self.timestamp_field,
            "behavior.on.null.values": self.behavior_on_null_values,
            "s3.schema.partition.affix.type": self.schema_partition_affix_type,
        }


def _read_affix(r: KeyReader) -> AffixType:
    """``s3.schema.partition.affix.type``: trimmed, then case-sensitive, as Kafka's
    ``ValidString.in(SUFFIX, PREFIX, NONE)``."""
    value = r.get("s3.schema.partition.affix.type")
    if value is None:
        return "NONE"
    for affix in _AFFIX_TYPES:
        if value.strip() == affix:
            return affix
    r.invalid(
        "s3.schema.partition.affix.type", value, "String must be one of: SUFFIX, PREFIX, NONE"
    )
    return "NONE"


def _read_class(r: KeyReader) -> tuple[str | None, PartitionerName, str | None]:
    """``partitioner.class`` as given, as a short name (``default`` when absent, invalid or a
    plugin), and the Python class path of a plugin."""
    pc = r.get("partitioner.class")
    if pc is None:
        return None, "default", None
    resolved = resolve_class(pc, PARTITIONER_CLASSES)
    if resolved is not None:
        return pc, cast(PartitionerName, resolved), None
    allowed = "one of default, field, time, daily, hourly, " + ", ".join(
        PARTITIONER_CLASSES.values()
    )
    if not looks_like_python(pc):
        r.invalid("partitioner.class", pc, f"must be {allowed}, or a Python class")
        return pc, "default", None
    try:
        cls = load_plugin("partitioner", pc.strip())
    except ValueError as exc:
        r.invalid("partitioner.class", pc, f"must be {allowed}, or a Python partitioner: {exc}")
        return pc, "default", None
    for key in plugin_keys(cls):
        r.get(key)
    return pc, "default", pc.strip()


def _fixed_path(
    r: KeyReader, name: str, delim: str, path_format: str, duration: int
) -> tuple[str, int]:
    """DailyPartitioner/HourlyPartitioner.configure overwrite ``path.format`` and
    ``partition.duration.ms`` (a different value given is listed as ignored)."""
    fixed = f"'year'=YYYY{delim}'month'=MM{delim}'day'=dd"
    fixed_ms = _DAY_MS
    if name == "hourly":
        fixed, fixed_ms = f"{fixed}{delim}'hour'=HH", _HOUR_MS
    if r.has("path.format") and path_format != fixed:
        r.ignore("path.format")
    if r.has("partition.duration.ms") and duration != fixed_ms:
        r.ignore("partition.duration.ms")
    return fixed, fixed_ms


def _time_path(r: KeyReader, path_format: str, delim: str, what: str) -> tuple[str, str | None]:
    """TimeBasedPartitioner's ``path.format`` as given (the partitioner strips one trailing
    delimiter, as Confluent's does), and the pattern to check (so stripped) once locale and
    timezone are known."""
    if not path_format:
        r.missing("path.format", f"a Joda pattern such as 'year'=YYYY{delim}'month'=MM ({what})")
        return path_format, None
    if path_format == delim:
        r.invalid("path.format", path_format, f"Path format cannot be empty ({what})")
        return path_format, None
    pattern = path_format[: -len(delim)] if delim.strip() and path_format.endswith(delim) else None
    return path_format, pattern or path_format


def _read_zone(r: KeyReader, timed: bool, cloud_timed: bool, what: str) -> tuple[str, str]:
    """``locale`` and ``timezone`` (required by time-based partitioners; Cloud: en, UTC)."""
    locale = r.string("locale", "en" if cloud_timed else "")
    if timed and not locale:
        r.missing("locale", f"a locale such as en or en-US ({what})")
    elif timed and not _LOCALE_RE.match(locale):
        r.invalid("locale", locale, "must be a locale such as en, en-US or fr_FR")
    timezone = r.string("timezone", "UTC" if cloud_timed else "")
    zone_problem = _timezone_problem(timezone) if timezone else None
    if zone_problem:
        r.invalid(  # TimezoneValidator: Joda's message
            "timezone",
            timezone,
            f"{zone_problem} (a timezone ID such as UTC, Europe/Paris or an offset like +02:00)",
        )
    elif timed and not timezone:
        r.missing("timezone", f"a timezone ID such as UTC or Europe/Paris ({what})")
    return locale, timezone


def _read_extractor(r: KeyReader, cloud_timed: bool, timestamp_field: str) -> ExtractorName:
    """``timestamp.extractor`` (Cloud: Record, or RecordField with a ``timestamp.field``)."""
    extractor: ExtractorName = "Wallclock"
    if cloud_timed:
        extractor = "RecordField" if r.has("timestamp.field") else "Record"
    value = r.get("timestamp.extractor")
    if value is not None:
        resolved = next(
            (
                short
                for short, cls in TIMESTAMP_EXTRACTOR_CLASSES.items()
                if value.strip() in (short, cls)
            ),
            None,
        )
        if resolved is None:
            r.invalid(
                "timestamp.extractor",
                value,
                f"Invalid timestamp extractor: {value.strip()}: must be one of Wallclock, Record, "
                "RecordField",
            )
        else:
            extractor = cast(ExtractorName, resolved)
    if extractor == "RecordField" and not timestamp_field:
        r.invalid("timestamp.field", "", "must name a field for the RecordField extractor")
    return extractor


def _valid_timezone(tz: str) -> bool:
    """Joda's ``DateTimeZone.forID``: ``UTC``, tz database IDs and fixed ``[+-]hh:mm`` offsets."""
    return _timezone_problem(tz) is None


def _timezone_problem(tz: str) -> str | None:
    """Why Joda's ``DateTimeZone.forID`` refuses ``tz`` (its message), or None."""
    try:
        JodaZone.for_id(tz)
    except ValueError as e:
        return str(e)
    return None


def _check_joda_pattern(pattern: str, timezone: str, locale: str) -> str | None:
    """Return why ``pattern`` cannot be formatted as Joda's ``DateTimeFormat`` would, or None."""
    try:
        validate_pattern(pattern)
    except ValueError as exc:
        return f"{exc} (quote literal text with '')"
    if timezone and locale and _valid_timezone(timezone):
        try:
            JodaFormatter(pattern, timezone, locale)
        except ValueError as exc:
            return str(exc)
    return None


def _field_names(r: KeyReader) -> tuple[str, ...]:
    """``partition.field.name`` as PartitionerConfig's ``PartitionFieldNameValidator`` checks it,
    whatever the partitioner: no empty name in the list, no empty segment in a dotted path."""
    text = r.string("partition.field.name", "").strip()
    if not text:
        return ()
    names = tuple(n.strip() for n in re.split(r"\s*,\s*", text))
    for name in names:
        segments = re.split(r"\.", name)
        while segments and segments[-1] == "":
            segments.pop()  # Java's String.split drops trailing empty strings (all: "." is [])
        if not name or any(not seg.strip() for seg in segments):
            what = (
                "Field name cannot be null or empty"
                if not name
                else "Field name cannot contain an empty or whitespace-only path segment"
            )
            r.invalid("partition.field.name", name, f"{what} (in {text!r})")
            return ()
    return names
