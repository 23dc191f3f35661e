"""Object layout keys: ``topics.dir``, the delimiters and the offset's zero padding."""

from __future__ import annotations

from dataclasses import dataclass

from s3connect.config.reader import INT_MAX, KeyReader

__all__ = ["LayoutConfig"]


@dataclass(frozen=True, kw_only=True)
class LayoutConfig:
    """How object keys are built: ``<topics.dir>/<topic>/<encodedPartition>/<topic>+<partition>+
    <startOffset>.<ext>`` with Confluent's defaults."""

    topics_dir: str = "topics"
    directory_delim: str = "/"
    file_delim: str = "+"
    filename_offset_zero_pad_width: int = 10

    @classmethod
    def read(cls, r: KeyReader) -> LayoutConfig:
        """Read the keys (the delimiters may not be empty)."""
        topics_dir = r.string("topics.dir", "topics")
        delims: list[str] = []
        for key, default in (("directory.delim", "/"), ("file.delim", "+")):
            value = r.string(key, default)
            if not value:
                r.invalid(key, r.raw_text(key), "must not be empty")
                value = default
            delims.append(value)
        return cls(
            topics_dir=topics_dir,
            directory_delim=delims[0],
            file_delim=delims[1],
            filename_offset_zero_pad_width=r.integer(
                "filename.offset.zero.pad.width",
                10,
                1,
                INT_MAX,
                'must be an integer >= 1 (Confluent\'s file name format "%0" + width + "d" '
                "fails for 0)",
            ),
        )

    def describe(self) -> dict[str, str]:
        """The keys under their names."""
        return {
            "topics.dir": self.topics_dir,
            "directory.delim": self.directory_delim,
            "file.delim": self.file_delim,
            "filename.offset.zero.pad.width": str(self.filename_offset_zero_pad_width),
        }
