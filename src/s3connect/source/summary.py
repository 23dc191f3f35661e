"""What a source run published, per topic-partition and in total."""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["SourceSummary"]


@dataclass
class SourceSummary:
    """Records published per destination topic-partition, batches, and skipped object keys."""

    records: dict[tuple[str, int], int] = field(default_factory=dict)
    batches: int = 0
    total: int = 0
    skipped: list[str] = field(default_factory=list)
    progress: list[tuple[int, int, float]] = field(default_factory=list)
    """(batch, records read, records/s) of every micro-batch that read records."""

    def render(self) -> str:
        """A plain-text summary table."""
        lines = [f"{'destination topic':<40} {'partition':>9} {'records':>10}"]
        for (topic, partition), count in sorted(self.records.items()):
            lines.append(f"{topic:<40} {partition:>9} {count:>10}")
        other = self.total - sum(self.records.values())
        if other:
            lines.append(f"{'(partitions found while running)':<40} {'':>9} {other:>10}")
        lines.append(f"{'total':<40} {'':>9} {self.total:>10}")
        if self.skipped:
            lines.append(f"skipped {len(self.skipped)} badly named objects (behavior.on.error)")
        return "\n".join(lines)
