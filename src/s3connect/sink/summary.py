"""What a sink run wrote, per topic-partition and in total."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["BatchStats", "SinkSummary"]


@dataclass(frozen=True, slots=True)
class BatchStats:
    """One completed micro-batch of the sink, from Spark's progress report.

    ``consumed`` and ``latest`` are summed over the Kafka partitions: the offsets read up to
    (exclusive) and the newest offsets Kafka had; ``started`` where the batch began. Their
    differences give the records done and the backlog.
    """

    batch: int
    input_rows: int
    rows_per_second: float
    lag: int | None
    started: int | None = None
    consumed: int | None = None
    latest: int | None = None

    @classmethod
    def of(cls, progress: Mapping[str, Any]) -> BatchStats:
        """The stats of one ``StreamingQuery.recentProgress`` entry (Kafka source offsets)."""
        sources = progress.get("sources") or [{}]
        lags = [s.get("metrics", {}).get("maxOffsetsBehindLatest") for s in sources]
        known = [int(x) for x in lags if x is not None]
        return cls(
            batch=int(progress["batchId"]),
            input_rows=int(progress.get("numInputRows") or 0),
            rows_per_second=float(progress.get("processedRowsPerSecond") or 0.0),
            lag=max(known) if known else None,
            started=_offset_sum(sources, "startOffset"),
            consumed=_offset_sum(sources, "endOffset"),
            latest=_offset_sum(sources, "latestOffset"),
        )


def _offset_sum(sources: list[Mapping[str, Any]], name: str) -> int | None:
    """The sum of a Kafka source's per-partition offsets (JSON ``{"topic": {"0": 42}}``)."""
    total = 0
    for source in sources:
        raw = source.get(name)
        try:
            doc: Any = json.loads(raw) if isinstance(raw, str) else raw
            offsets = [int(o) for parts in doc.values() for o in parts.values()]
        except (TypeError, ValueError, AttributeError):
            return None
        total += sum(offsets)
    return total


@dataclass
class SinkSummary:
    """What a sink run wrote, per topic-partition and in total."""

    objects: list[dict[str, Any]] = field(default_factory=list)
    batches: int = 0
    input_rows: int = 0
    dead_letters: int = 0
    """Records that failed and went to the dead letter queue (``errors.tolerance=all``)."""
    progress: list[BatchStats] = field(default_factory=list)
    """Every completed micro-batch, in order (records/s and lag per batch)."""

    def totals(self) -> dict[tuple[str, int], dict[str, int]]:
        """Objects, records and bytes per (topic, partition)."""
        out: dict[tuple[str, int], dict[str, int]] = {}
        for o in self.objects:
            t = out.setdefault(
                (o["topic"], o["partition"]), {"objects": 0, "records": 0, "bytes": 0}
            )
            t["objects"] += 1
            t["records"] += o["record_count"]
            t["bytes"] += o["bytes"]
        return out

    def render(self) -> str:
        """A plain-text summary table."""
        lines = [f"{'topic':<30} {'partition':>9} {'objects':>8} {'records':>10} {'bytes':>12}"]
        for (topic, partition), t in sorted(self.totals().items()):
            lines.append(
                f"{topic:<30} {partition:>9} {t['objects']:>8} {t['records']:>10} {t['bytes']:>12}"
            )
        n_obj = len(self.objects)
        n_rec = sum(o["record_count"] for o in self.objects)
        n_bytes = sum(o["bytes"] for o in self.objects)
        lines.append(f"{'total':<30} {'':>9} {n_obj:>8} {n_rec:>10} {n_bytes:>12}")
        if self.dead_letters:
            lines.append(f"dead letters: {self.dead_letters} records failed (errors.tolerance=all)")
        return "\n".join(lines)
