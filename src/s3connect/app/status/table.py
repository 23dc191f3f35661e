"""The status report's plain-text tables."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

__all__ = [
    "render_table",
]


def cell(value: object) -> str:
    return "-" if value is None else str(value)


def render_table(header: Sequence[str], rows: Sequence[Sequence[str]], left: int = 1) -> list[str]:
    """Columns padded to their widest cell; the first ``left`` and text columns left-aligned,
    numbers right-aligned."""
    widths = [max(len(r[i]) for r in (header, *rows)) for i in range(len(header))]
    numeric = [
        i >= left and all(r[i].lstrip("-").isdigit() or r[i] in ("-", "?", "") for r in rows)
        for i in range(len(header))
    ]

    def line(cells: Sequence[str]) -> str:
        return "  ".join(
            c.rjust(w) if num else c.ljust(w)
            for c, w, num in zip(cells, widths, numeric, strict=True)
        ).rstrip()

    return [line(header), *(line(r) for r in rows)]


def total_cell(values: Iterable[int | None]) -> str:
    items = list(values)
    return "?" if any(v is None for v in items) else str(sum(v for v in items if v is not None))


def known_cell(value: int | None) -> str:
    return "?" if value is None else str(value)
