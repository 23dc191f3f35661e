"""``s3.proxy.*`` against the real S3 server: every request goes through a real forwarding HTTP
proxy started here, with the credentials of the keys (which override the URL's user-info)."""

from __future__ import annotations

import base64
import http.client
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import pytest
from confluent_kafka import Producer

from s3connect.config.sink import SinkConfig
from s3connect.errors import StorageError
from s3connect.sink.context import build_storage
from s3connect.storage.s3 import S3Storage
from tests.integration.sinkhelp import json_values, produce, run, sink_keys

pytestmark = pytest.mark.integration

MiB = 1024 * 1024
USER, PASSWORD = "realuser", "p@ss:w/rd"
AUTH = "Basic " + base64.b64encode(f"{USER}:{PASSWORD}".encode()).decode()
# Hop-by-hop headers (and Expect: the proxy answers 100-continue itself) are not forwarded.
_NOT_FORWARDED = {
    "proxy-authorization",
    "proxy-connection",
    "connection",
    "keep-alive",
    "transfer-encoding",
    "expect",
    "content-length",
}


@dataclass
class Seen:
    """One request the proxy received: method, absolute URI, Proxy-Authorization header."""

    method: str
    uri: str
    auth: str | None


@dataclass
class ForwardingProxy:
    """A forwarding HTTP proxy on 127.0.0.1 that answers 407 without the expected credentials."""

    port: int
    seen: list[Seen] = field(default_factory=list)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def paths(self, method: str) -> list[str]:
        return [unquote(urlsplit(s.uri).path) for s in self.seen if s.method == method]


def _handler(proxy_state: list[ForwardingProxy]) -> type[BaseHTTPRequestHandler]:
    class Forward(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def forward(self) -> None:
            state = proxy_state[0]
            auth = self.headers.get("Proxy-Authorization")
            state.seen.append(Seen(self.command, self.path, auth))
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            if auth != AUTH:
                self.send_response(407)
                self.send_header("Proxy-Authenticate", 'Basic realm="test"')
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            target = urlsplit(self.path)  # a forwarding proxy gets absolute URIs
            headers = {k: v for k, v in self.headers.items() if k.lower() not in _NOT_FORWARDED}
            headers["Content-Length"] = str(len(body))
            upstream = http.client.HTTPConnection(target.hostname or "", target.port, timeout=60)
            try:
                path = target.path + (f"?{target.query}" if target.query else "")
                upstream.request(self.command, path, body=body, headers=headers)
                response = upstream.getresponse()
                data = response.read()
            finally:
                upstream.close()
            self.send_response(response.status, response.reason)
            for name, value in response.getheaders():
                if name.lower() not in _NOT_FORWARDED:
                    self.send_header(name, value)
            length = response.getheader("Content-Length", "0") if self.command == "HEAD" else None
            self.send_header("Content-Length", length or str(len(data)))
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(data)

        do_GET = do_PUT = do_POST = do_HEAD = do_DELETE = forward

        def log_message(self, format: str, *args: Any) -> None:
            pass

    return Forward


@pytest.fixture
def proxy() -> Iterator[ForwardingProxy]:
    state: list[ForwardingProxy] = []
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(state))
    server.daemon_threads = True
    state.append(ForwardingProxy(port=server.server_address[1]))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield state[0]
    server.shutdown()
    server.server_close()


def _proxy_keys(proxy: ForwardingProxy, password: str = PASSWORD) -> dict[str, str]:
    """The URL's user-info is overridden by the keys, as in Confluent's S3ProxyTest."""
    return {
        "s3.proxy.url": proxy.url.replace("http://", "http://urluser:urlpass@") + "/ignored",
        "s3.proxy.user": USER,
        "s3.proxy.password": password,
    }


def _storage(bucket: str, tmp: Path, **keys: str) -> S3Storage:
    config = SinkConfig.from_mapping(sink_keys("t", bucket, tmp, **keys))
    storage = build_storage(config)
    assert isinstance(storage, S3Storage)
    return storage


def test_writes_and_reads_go_through_the_proxy_with_the_keys_credentials(
    proxy: ForwardingProxy, s3: Any, bucket: str, tmp_path: Path
) -> None:
    storage = _storage(bucket, tmp_path, **_proxy_keys(proxy), **{"s3.part.size": str(5 * MiB)})
    small, large = b'{"x":1}\n', bytes(range(256)) * (11 * MiB // 256)
    with storage.open_write("a/small.json") as out:
        out.write(small)
    with storage.open_write("a/large.bin") as out:
        out.write(large)
    assert storage.read("a/small.json") == small
    assert storage.read("a/large.bin") == large
    assert list(storage.list_keys("a/")) == ["a/large.bin", "a/small.json"]

    assert s3.get_object(Bucket=bucket, Key="a/small.json")["Body"].read() == small
    assert s3.get_object(Bucket=bucket, Key="a/large.bin")["Body"].read() == large
    assert all(seen.auth == AUTH for seen in proxy.seen)
    assert all(seen.uri.startswith("http://127.0.0.1:") for seen in proxy.seen)
    small_path, large_path = f"/{bucket}/a/small.json", f"/{bucket}/a/large.bin"
    assert proxy.paths("PUT") == [small_path, large_path, large_path, large_path]  # 3 parts
    assert proxy.paths("POST") == [large_path, large_path]  # create + complete
    assert proxy.paths("GET") == [small_path, large_path, f"/{bucket}"]


def test_wrong_proxy_credentials_fail_the_write(
    proxy: ForwardingProxy, s3: Any, bucket: str, tmp_path: Path
) -> None:
    storage = _storage(
        bucket, tmp_path, **_proxy_keys(proxy, password="wrong"), **{"s3.part.retries": "0"}
    )
    with pytest.raises(StorageError, match="407"), storage.open_write("a/b.json") as out:
        out.write(b"{}\n")
    assert proxy.seen and "Contents" not in s3.list_objects_v2(Bucket=bucket)


def test_a_sink_run_writes_through_the_proxy(
    proxy: ForwardingProxy,
    spark: Any,
    make_topic: Any,
    producer: Producer,
    s3: Any,
    bucket: str,
    tmp_path: Path,
) -> None:
    topic = make_topic("proxy")
    produce(producer, topic, json_values({"i": i} for i in range(6)))
    run(spark, sink_keys(topic, bucket, tmp_path, **_proxy_keys(proxy)))
    keys = [f"topics/{topic}/partition=0/{topic}+0+{n:010d}.json" for n in (0, 3)]
    listed = sorted(o["Key"] for o in s3.list_objects_v2(Bucket=bucket)["Contents"])
    assert listed == keys
    body = s3.get_object(Bucket=bucket, Key=keys[1])["Body"].read()
    assert body == b'{"i":3}\n{"i":4}\n{"i":5}\n'
    assert sorted(proxy.paths("PUT")) == [f"/{bucket}/{key}" for key in keys]
    assert all(seen.auth == AUTH for seen in proxy.seen)
