"""A fault-injecting front for the stack's S3 server, between the connectors and the server.

:class:`S3Faults` is a ``ThreadingHTTPServer`` on 127.0.0.1 (a free port) that forwards every
path-style request to the S3 server, keeping the ``Host`` header exactly as the client sent it
(so a server that checks SigV4 still verifies the signature) and streaming bodies both ways,
unless a :class:`Rule` injects a :class:`Fault` into it: an S3 error (``500 InternalError``,
``503 SlowDown``), a connection reset without an answer, an answer lost after the server acted,
or a delay. A rule names S3 operations (told apart by method and query, see :func:`operation`),
optionally a key, and how many matching requests it takes: the first N, or every one while it is
on (an outage). Every request is recorded, with its headers (:class:`Seen`). Point a connector at
it with ``store.url=<front.url>``.
"""

from __future__ import annotations

import contextlib
import http.client
import os
import socket
import struct
import threading
import time
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

__all__ = [
    "INTERNAL_ERROR",
    "LOST_ANSWER",
    "RESET",
    "SLOW_DOWN",
    "Fault",
    "Rule",
    "S3Faults",
    "Seen",
    "delay",
    "operation",
]

_CHUNK = 64 * 1024
# Hop-by-hop headers (RFC 9110), and Expect: the front answers 100-continue itself. None of them
# is in a SigV4 signature (botocore never signs Expect or Transfer-Encoding).
_HOP_BY_HOP = {
    "connection",
    "keep-alive",
    "proxy-connection",
    "te",
    "trailer",
    "upgrade",
    "expect",
}


@dataclass(frozen=True)
class Fault:
    """What a rule does to a request it takes.

    ``kind``: ``error`` (answer ``status`` with an S3 error ``code``; the server never sees
    the request), ``reset`` (close the connection without answering; the server never sees it),
    ``lost`` (forward it, then close the connection instead of passing the answer on: the
    server acted, the client does not know) or ``delay`` (answer ``seconds`` late).
    """

    kind: str
    status: int = 0
    code: str = ""
    message: str = ""
    seconds: float = 0.0

    @property
    def name(self) -> str:
        if self.kind == "error":
            return f"{self.status} {self.code}"
        return f"delay {self.seconds:g}s" if self.kind == "delay" else self.kind


INTERNAL_ERROR = Fault(
    "error", 500, "InternalError", "We encountered an internal error. Please try again."
)
SLOW_DOWN = Fault("error", 503, "SlowDown", "Please reduce your request rate.")
RESET = Fault("reset")
LOST_ANSWER = Fault("lost")


def delay(seconds: float) -> Fault:
    """Answer ``seconds`` late (the request is forwarded at once)."""
    return Fault("delay", seconds=seconds)


@dataclass
class Rule:
    """Inject ``fault`` into requests of ``operations`` (and of ``key`` when given): the first
    ``times`` of them, or all while ``active`` when ``times`` is None (an outage)."""

    operations: frozenset[str]
    fault: Fault
    times: int | None = 1
    key: str | None = None
    active: bool = True
    taken: int = 0

    def end(self) -> None:
        """Stop injecting (the outage is over)."""
        self.active = False

    def _takes(self, op: str, key: str) -> bool:
        if not self.active or op not in self.operations:
            return False
        if self.key is not None and key != self.key:
            return False
        if self.times is not None and self.taken >= self.times:
            return False
        self.taken += 1
        return True


@dataclass(frozen=True)
class Seen:
    """One request the front received and what the client got: ``status`` None means no answer
    (reset, or lost); ``upstream`` is the server's status when it was forwarded."""

    operation: str
    method: str
    bucket: str
    key: str
    fault: str | None
    status: int | None
    upstream: int | None
    at: float  # time.monotonic() when the request arrived
    took: float  # seconds until it was answered (or dropped)
    headers: Mapping[str, str] = field(default_factory=dict)  # as sent, names in lower case


def operation(method: str, path: str, query: str, copy_source: bool = False) -> str:
    """The S3 operation of a path-style request, from its method, path and query."""
    q = parse_qs(query, keep_blank_values=True)
    parts = unquote(path).lstrip("/").split("/", 1)
    bucket, key = parts[0], (parts[1] if len(parts) > 1 else "")
    if not bucket:
        return "ListBuckets"
    if not key:
        bucket_ops = {
            "GET": "ListObjectsV2" if q.get("list-type") == ["2"] else "ListObjects",
            "HEAD": "HeadBucket",
            "PUT": "CreateBucket",
            "DELETE": "DeleteBucket",
            "POST": "DeleteObjects" if "delete" in q else "PostBucket",
        }
        if method == "GET" and "uploads" in q:
            return "ListMultipartUploads"
        if method == "GET" and "location" in q:
            return "GetBucketLocation"
        return bucket_ops.get(method, method)
    if "tagging" in q:
        return {"GET": "GetObjectTagging", "PUT": "PutObjectTagging"}.get(
            method, "DeleteObjectTagging"
        )
    if "uploadId" in q:
        if method == "PUT":
            return "UploadPartCopy" if copy_source else "UploadPart"
        return {
            "POST": "CompleteMultipartUpload",
            "DELETE": "AbortMultipartUpload",
            "GET": "ListParts",
        }.get(method, method)
    if method == "POST" and "uploads" in q:
        return "CreateMultipartUpload"
    return {
        "GET": "GetObject",
        "HEAD": "HeadObject",
        "PUT": "CopyObject" if copy_source else "PutObject",
        "DELETE": "DeleteObject",
    }.get(method, method)


class _Dropped(Exception):
    """The connection is closed without an answer."""


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: _Server

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def do_request(self) -> None:
        front, started = self.server.front, time.monotonic()
        front._begin()
        split = urlsplit(self.path)
        op = operation(self.command, split.path, split.query, "x-amz-copy-source" in self.headers)
        parts = unquote(split.path).lstrip("/").split("/", 1)
        bucket, key = parts[0], (parts[1] if len(parts) > 1 else "")
        fault = front._fault_for(op, key)
        self._status: int | None = None
        self._upstream: int | None = None
        try:
            if fault is not None and fault.kind in ("error", "reset"):
                self._drain()
                if fault.kind == "reset":
                    raise _Dropped
                self._error(fault, split.path)
            else:
                self._forward(split, fault)
        except _Dropped:
            self._reset()
            self._status = None
        finally:
            front._record(
                Seen(op, self.command, bucket, key, fault.name if fault else None, self._status,
                     self._upstream, started, time.monotonic() - started,
                     {name.lower(): value for name, value in self.headers.items()})
            )  # fmt: skip

    do_GET = do_PUT = do_POST = do_HEAD = do_DELETE = do_request

    # ------------------------------------------------------------------ request bodies

    def _body(self) -> Iterator[bytes]:
        """The request body as it arrived (chunked framing, trailers included, kept as is)."""
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            while True:
                line = self.rfile.readline()
                yield line
                size = int(line.split(b";", 1)[0].strip() or b"0", 16)
                if size == 0:
                    while True:  # trailers, then the empty line
                        trailer = self.rfile.readline()
                        yield trailer
                        if trailer in (b"\r\n", b"\n", b""):
                            return
                yield self.rfile.read(size + 2)  # the data and its CRLF
        left = int(self.headers.get("Content-Length") or 0)
        while left > 0:
            data = self.rfile.read(min(left, _CHUNK))
            if not data:
                raise _Dropped
            left -= len(data)
            yield data

    def _drain(self) -> None:
        for _ in self._body():
            pass

    # ------------------------------------------------------------------ answers

    def _error(self, fault: Fault, path: str) -> None:
        body = (
            '<?xml version="1.0" encoding="UTF-8"?>\n'
            f"<Error><Code>{fault.code}</Code><Message>{fault.message}</Message>"
            f"<Resource>{path}</Resource><RequestId>s3faults</RequestId></Error>"
        ).encode()
        self.send_response(fault.status)
        self.send_header("Content-Type", "application/xml")
        self.send_header("Content-Length", "0" if self.command == "HEAD" else str(len(body)))
        self.send_header("Connection", "close")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)
        self.close_connection = True
        self._status = fault.status

    def _reset(self) -> None:
        """Close the connection with a TCP reset, answering nothing."""
        self.close_connection = True
        with contextlib.suppress(OSError):
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            os.close(self.connection.detach())

    def _forward(self, split: Any, fault: Fault | None) -> None:
        host, port = self.server.upstream
        conn = http.client.HTTPConnection(host, port, timeout=120)
        try:
            target = split.path + (f"?{split.query}" if split.query else "")
            conn.putrequest(self.command, target, skip_host=True, skip_accept_encoding=True)
            for name, value in self.headers.items():  # Host as the client sent it
                if name.lower() not in _HOP_BY_HOP:
                    conn.putheader(name, value)
            conn.endheaders()
            for data in self._body():
                conn.send(data)
            response = conn.getresponse()
            self._upstream = response.status
            if fault is not None and fault.kind == "lost":
                response.read()
                raise _Dropped
            if fault is not None and fault.kind == "delay":
                time.sleep(fault.seconds)
            self._answer(response)
            self._status = response.status
        finally:
            conn.close()

    def _answer(self, response: http.client.HTTPResponse) -> None:
        self.send_response_only(response.status, response.reason)  # the server's Date, Server
        length = response.getheader("Content-Length")
        for name, value in response.getheaders():
            if name.lower() not in _HOP_BY_HOP | {"transfer-encoding"}:
                self.send_header(name, value)
        bodiless = self.command == "HEAD" or response.status in (204, 304)
        chunked = length is None and not bodiless
        if chunked:
            self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        if bodiless:
            return
        while data := response.read(_CHUNK):
            self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data) if chunked else data)
        if chunked:
            self.wfile.write(b"0\r\n\r\n")


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, front: S3Faults, upstream: tuple[str, int]) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.front = front
        self.upstream = upstream


@dataclass
class S3Faults:
    """The front (see the module docstring); use it as a context manager."""

    upstream: str  # the S3 server's URL, http://host:port
    rules: list[Rule] = field(default_factory=list)
    _seen: list[Seen] = field(default_factory=list)
    _lock: threading.Condition = field(default_factory=threading.Condition)
    _busy: int = 0  # requests received and not yet recorded
    _server: _Server | None = None

    @property
    def url(self) -> str:
        """The endpoint to give a client (``store.url``)."""
        assert self._server is not None, "start the front first"
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def __enter__(self) -> S3Faults:
        target = urlsplit(self.upstream)
        self._server = _Server(self, (target.hostname or "127.0.0.1", target.port or 80))
        threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        ).start()
        return self

    def __exit__(self, *exc: object) -> None:
        assert self._server is not None
        self._server.shutdown()
        self._server.server_close()

    # ------------------------------------------------------------------ rules

    def fail(
        self, operations: str | Iterable[str], fault: Fault, times: int = 1, key: str | None = None
    ) -> Rule:
        """Inject ``fault`` into the first ``times`` requests of each of ``operations``."""
        names = [operations] if isinstance(operations, str) else list(operations)
        added = [Rule(frozenset([op]), fault, times, key) for op in names]
        with self._lock:
            self.rules.extend(added)
        return added[0]

    def outage(
        self, operations: str | Iterable[str], fault: Fault = INTERNAL_ERROR, key: str | None = None
    ) -> Rule:
        """Inject ``fault`` into every request of ``operations`` until ``rule.end()``."""
        names = frozenset([operations] if isinstance(operations, str) else operations)
        rule = Rule(names, fault, None, key)
        with self._lock:
            self.rules.append(rule)
        return rule

    def clear(self) -> None:
        """Drop every rule and forget the requests seen."""
        with self._lock:
            self.rules.clear()
            self._seen.clear()

    def _fault_for(self, op: str, key: str) -> Fault | None:
        with self._lock:
            for rule in self.rules:
                if rule._takes(op, key):
                    return rule.fault
        return None

    # ------------------------------------------------------------------ what happened

    def _begin(self) -> None:
        with self._lock:
            self._busy += 1

    def _record(self, seen: Seen) -> None:
        with self._lock:
            self._seen.append(seen)
            self._busy -= 1
            self._lock.notify_all()

    def seen(self, operation: str | None = None, key: str | None = None) -> list[Seen]:
        """The requests received (of ``operation`` / ``key`` when given), in arrival order.

        Waits for those being answered: a client may have its answer before the front records.
        """
        with self._lock:
            self._lock.wait_for(lambda: self._busy == 0, timeout=30)
            out = list(self._seen)
        return [
            s
            for s in sorted(out, key=lambda s: s.at)
            if (operation is None or s.operation == operation) and (key is None or s.key == key)
        ]

    def counts(self) -> dict[str, int]:
        """Requests received per operation."""
        out: dict[str, int] = {}
        for s in self.seen():
            out[s.operation] = out.get(s.operation, 0) + 1
        return out
