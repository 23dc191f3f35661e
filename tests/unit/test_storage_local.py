"""The local-folder destination: same keys, atomic rename, nothing left on failure."""

from __future__ import annotations

from pathlib import Path

import pytest

from s3connect.storage import LocalStorage, S3Settings, make_storage


def test_file_url_gives_local_storage_with_the_same_layout(tmp_path: Path) -> None:
    storage = make_storage(S3Settings(bucket="ignored", endpoint_url=f"file://{tmp_path}"))
    assert isinstance(storage, LocalStorage)
    with storage.open_write("topics/t/partition=0/t+0+0000000000.json") as out:
        out.write(b"{}\n")
    assert (tmp_path / "topics/t/partition=0/t+0+0000000000.json").read_bytes() == b"{}\n"
    assert list(storage.list_keys("topics/")) == ["topics/t/partition=0/t+0+0000000000.json"]


def test_failed_write_leaves_nothing(tmp_path: Path) -> None:
    storage = LocalStorage(tmp_path)
    with pytest.raises(ValueError), storage.open_write("a/b.bin") as out:
        out.write(b"partial")
        raise ValueError("stop")
    assert [p.name for p in tmp_path.rglob("*") if p.is_file()] == []


def test_settings_repr_masks_the_secret() -> None:
    s = S3Settings(bucket="b", access_key_id="AKIA", secret_access_key="s3cr3t")
    assert "s3cr3t" not in repr(s)
    assert "****" in repr(s)
