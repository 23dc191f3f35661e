"""What a sink run wrote, per topic-partition and in total."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    pass

__all__ = [
    "SinkSummary",
]


@dataclass
class SinkSummary:
    """What a sink run wrote, per topic-partition and in total."""

    objects: list[dict[str, Any]] = field(default_factory=list)
    batches: int = 0
    input_rows: int = 0
    dead_letters: int = 0
    """Records that failed and went to the dead letter queue (``errors.tolerance=all``)."""

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
