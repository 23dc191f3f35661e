"""The streaming query's keys: ``checkpoint.location``, ``trigger`` and per-trigger limits."""

from __future__ import annotations

import re
from dataclasses import dataclass

from s3connect.config.reader import INT_MAX, LONG_MAX, KeyReader

__all__ = ["StreamingConfig", "parse_trigger"]

SETTLE_MS = 5000
"""``listing.settle.ms``'s default: a bound on how long one sink commit takes to complete."""

_TRIGGER_RE = re.compile(r"^(\d+)\s*([a-z]+)$")
_TRIGGER_UNITS = {
    **dict.fromkeys(("ms", "milli", "millis", "millisecond", "milliseconds"), 1),
    **dict.fromkeys(("s", "sec", "secs", "second", "seconds"), 1000),
    **dict.fromkeys(("m", "min", "mins", "minute", "minutes"), 60_000),
    **dict.fromkeys(("h", "hour", "hours"), 3_600_000),
    **dict.fromkeys(("d", "day", "days"), 86_400_000),
}
_SINK_TRIGGERS = (
    'must be "availableNow" or a processing-time interval such as "30 seconds", "30s", '
    '"1 minute", "500ms"'
)
_SOURCE_TRIGGERS = 'must be "availableNow" or an interval such as "30 seconds", "30s", "500ms"'


def parse_trigger(value: str) -> tuple[str, int | None] | None:
    """``availableNow`` or an interval (``30s``, ``1 minute``) -> (Spark's text, milliseconds);
    None when it is neither."""
    text = value.strip()
    if text.lower() in ("availablenow", "available_now", "available-now"):
        return "availableNow", None
    m = _TRIGGER_RE.match(text.lower())
    if not m or m.group(2) not in _TRIGGER_UNITS or int(m.group(1)) <= 0:
        return None
    ms = int(m.group(1)) * _TRIGGER_UNITS[m.group(2)]
    spark = f"{ms // 1000} seconds" if ms % 1000 == 0 else f"{ms} milliseconds"
    return spark, ms


@dataclass(frozen=True, kw_only=True)
class StreamingConfig:
    """The Spark streaming query: its checkpoint, trigger and how much a micro-batch takes."""

    checkpoint_location: str
    trigger: str = "availableNow"
    """``availableNow`` or a Spark processing-time interval, normalised (``"30 seconds"``)."""
    trigger_interval_ms: int | None = None
    max_offsets_per_trigger: int | None = None
    """The sink's cap on records per micro-batch (Spark's ``maxOffsetsPerTrigger``)."""
    max_objects_per_trigger: int | None = None
    """The source's cap on objects per micro-batch."""
    listing_settle_ms: int = SETTLE_MS
    """How long the source lists an object before it reads past it (``source.settling``)."""
    commit_log_table: str | None = None
    """The sink's Delta table (name or path) getting one row per committed object."""

    @classmethod
    def read_sink(cls, r: KeyReader) -> StreamingConfig:
        """The sink's keys (``max.offsets.per.trigger``, ``commit.log.table``)."""
        checkpoint = _checkpoint(r)
        trigger, interval = "availableNow", None
        value = r.get("trigger")
        if value is not None:
            parsed = parse_trigger(value)
            if parsed is None:
                r.invalid("trigger", value, _SINK_TRIGGERS)
            else:
                trigger, interval = parsed
        return cls(
            checkpoint_location=checkpoint,
            trigger=trigger,
            trigger_interval_ms=interval,
            max_offsets_per_trigger=r.integer(
                "max.offsets.per.trigger", None, 1, LONG_MAX, "must be an integer > 0"
            ),
            commit_log_table=r.optional("commit.log.table"),
        )

    @classmethod
    def read_source(cls, r: KeyReader) -> StreamingConfig:
        """The source's keys (``s3.poll.interval.ms`` as the trigger, ``max.objects.per.trigger``
        and ``listing.settle.ms``)."""
        checkpoint = _checkpoint(r)
        trigger, interval = "availableNow", None
        value, poll = r.get("trigger"), r.get("s3.poll.interval.ms")
        if value is not None and poll is not None:
            r.problem(
                f"trigger={value.strip()} and s3.poll.interval.ms={poll.strip()} are both set: "
                "set only one of them"
            )
        elif value is not None:
            parsed = parse_trigger(value)
            if parsed is None:
                r.invalid("trigger", value, _SOURCE_TRIGGERS)
            else:
                trigger, interval = parsed
        elif poll is not None:
            ms = r.integer("s3.poll.interval.ms", None, 1, LONG_MAX, "must be an integer > 0 (ms)")
            if ms is not None:
                trigger, interval = parse_trigger(f"{ms}ms") or (trigger, interval)
        return cls(
            checkpoint_location=checkpoint,
            trigger=trigger,
            trigger_interval_ms=interval,
            max_objects_per_trigger=r.integer(
                "max.objects.per.trigger", None, 1, INT_MAX, "must be an integer > 0"
            ),
            listing_settle_ms=r.integer(
                "listing.settle.ms",
                SETTLE_MS,
                0,
                3_600_000,
                "must be an integer from 0 to 3600000 (ms)",
            ),
        )

    def describe(self) -> dict[str, str]:
        """The keys under their names (the limits only when set)."""
        d = {"checkpoint.location": self.checkpoint_location, "trigger": self.trigger}
        if self.max_offsets_per_trigger is not None:
            d["max.offsets.per.trigger"] = str(self.max_offsets_per_trigger)
        if self.max_objects_per_trigger is not None:
            d["max.objects.per.trigger"] = str(self.max_objects_per_trigger)
        if self.commit_log_table is not None:
            d["commit.log.table"] = self.commit_log_table
        if self.listing_settle_ms != SETTLE_MS:
            d["listing.settle.ms"] = str(self.listing_settle_ms)
        return d


def _checkpoint(r: KeyReader) -> str:
    checkpoint = r.optional("checkpoint.location")
    if checkpoint is None:
        r.missing("checkpoint.location", "a directory for Spark's streaming checkpoint")
    return checkpoint or ""
