"""The driver's lookup of the schemas the JVM reads into rows (sink/registry_columns.py): a registry
that accepts the connection and never answers holds a micro-batch up for one request's
timeout, then the records go record by record."""

from __future__ import annotations

import socket
import time
from pathlib import Path

from s3connect.config.sink import SinkConfig
from s3connect.sink.registry_columns import latest_value_schemas


def test_a_registry_that_never_answers_gives_no_schemas_within_seconds(tmp_path: Path) -> None:
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(8)  # connections are accepted by the kernel, never answered
        port = server.getsockname()[1]
        config = SinkConfig.from_mapping(
            {
                "name": "t",
                "topics": "a,b",
                "flush.size": "10",
                "kafka.bootstrap.servers": "127.0.0.1:1",
                "checkpoint.location": str(tmp_path / "cp"),
                "s3.bucket.name": "b",
                "store.url": f"file://{tmp_path / 'data'}",
                "value.converter": "io.confluent.connect.avro.AvroConverter",
                "value.converter.schema.registry.url": f"http://127.0.0.1:{port}",
                "format.class": "io.confluent.connect.s3.format.parquet.ParquetFormat",
            }
        )
        start = time.monotonic()
        assert latest_value_schemas(config) == []
        assert time.monotonic() - start < 5 + 3  # one 5 s request, no retry, no other topic
