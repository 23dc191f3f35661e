"""The local stack: a real Kafka broker (KRaft, official jars), an S3-compatible server and a
real Schema Registry (Confluent's REST API).

    python stack/stack.py up|down|status

- Kafka: ``kafka.Kafka`` from ``.deps/kafka-libs`` (fetched by ``stack/fetch_jars.py``), one node
  acting as broker and controller on 127.0.0.1:$KAFKA_PORT (default 9092; controller on
  $KAFKA_CONTROLLER_PORT, default 9093), data and log under ``.stack/kafka``.
- S3: Versity's S3 gateway (``.deps/bin/versitygw``, built by ``make install`` with ``go install``)
  on 127.0.0.1:$S3_PORT (default 9000), its posix backend storing each bucket as a folder of
  ``.stack/s3/data`` (emptied when it starts), log under ``.stack/s3``. It checks SigV4
  signatures against its root account: $S3_ACCESS_KEY_ID / $S3_SECRET_ACCESS_KEY (defaults
  below), the credentials the demo and the tests take from here; its internal IAM in
  ``.stack/s3/iam`` (emptied when it starts too) holds the other accounts tests create
  (``versitygw admin create-user``), refused what no bucket policy allows them.
- moto: moto's standalone server (``moto_server``, from PyPI) on 127.0.0.1:$MOTO_PORT (default
  9001), in memory, any credentials, only for the tests that need what only it reflects: SSE
  headers echoed back, ACL grants read back, STS ``AssumeRole``. Log under ``.stack/moto``.
- Schema Registry: Apicurio Registry (``.deps/schema-registry``, fetched by
  ``stack/fetch_jars.py``) on 127.0.0.1:$SCHEMA_REGISTRY_PORT (default 8081), schemas in memory
  (gone on restart), no auth, log under ``.stack/schema-registry``. It speaks Confluent's Schema
  Registry API under ``/apis/ccompat/v7``: the base URL for ``SchemaRegistryClient``
  (``{"url": ...}``) is ``http://127.0.0.1:$SCHEMA_REGISTRY_PORT/apis/ccompat/v7``, given by
  :func:`schema_registry_url` and the ``schema_registry_url`` fixture of ``tests/conftest.py``.

``up`` is idempotent (a running service is left alone) and waits until all answer; a port held by
something else is reported clearly. ``down`` stops what ``up`` started.
"""

from __future__ import annotations

import base64
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
STACK = ROOT / ".stack"
KAFKA_LIBS = ROOT / ".deps" / "kafka-libs"
REGISTRY_DIST = ROOT / ".deps" / "schema-registry"
VERSITYGW = ROOT / ".deps" / "bin" / "versitygw"
REGISTRY_API = "/apis/ccompat/v7"
HOST = "127.0.0.1"
# The local S3 server's one account, for the stack, the demo and the tests (never AWS keys).
S3_ACCESS_KEY_ID = os.environ.get("S3_ACCESS_KEY_ID", "s3connect-local")
S3_SECRET_ACCESS_KEY = os.environ.get("S3_SECRET_ACCESS_KEY", "s3connect-local-secret")
S3_REGION = "us-east-1"


@dataclass(frozen=True)
class Service:
    name: str
    port: int

    @property
    def home(self) -> Path:
        return STACK / self.name

    @property
    def pidfile(self) -> Path:
        return self.home / "pid"

    @property
    def log(self) -> Path:
        return self.home / f"{self.name}.log"

    def pid(self) -> int | None:
        """The service's process, if it still runs: the pid file holds the pid and its start
        time, so a pid reused by another process after a reboot is not taken for ours."""
        try:
            fields = self.pidfile.read_text().split()
            pid = int(fields[0])
        except (FileNotFoundError, ValueError, IndexError):
            return None
        if len(fields) == 1:  # an older pid file: ours if it runs in the service's folder
            try:
                return pid if Path(f"/proc/{pid}/cwd").resolve() == self.home.resolve() else None
            except OSError:
                return None
        return pid if _start_time(pid) == fields[1] else None


def _start_time(pid: int) -> str | None:
    """A live process's start time (clock ticks since boot, /proc/<pid>/stat field 22)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (FileNotFoundError, ProcessLookupError, IndexError):
        return None
    return None if fields[0] == "Z" else fields[19]


KAFKA = Service("kafka", int(os.environ.get("KAFKA_PORT", "9092")))
CONTROLLER_PORT = int(os.environ.get("KAFKA_CONTROLLER_PORT", "9093"))
S3 = Service("s3", int(os.environ.get("S3_PORT", "9000")))
MOTO = Service("moto", int(os.environ.get("MOTO_PORT", "9001")))
SCHEMA_REGISTRY = Service("schema-registry", int(os.environ.get("SCHEMA_REGISTRY_PORT", "8081")))


def s3_endpoint() -> str:
    """The local S3 server (versitygw), path-style."""
    return f"http://{HOST}:{S3.port}"


def moto_endpoint() -> str:
    """moto's server: S3 and STS, any credentials."""
    return f"http://{HOST}:{MOTO.port}"


def schema_registry_url() -> str:
    """The Confluent-compatible base URL of the local Schema Registry."""
    return f"http://{HOST}:{SCHEMA_REGISTRY.port}{REGISTRY_API}"


def _port_open(port: int) -> bool:
    with socket.socket() as s:
        s.settimeout(0.5)
        return s.connect_ex((HOST, port)) == 0


def _cluster_id() -> str:
    while True:
        cid = base64.urlsafe_b64encode(uuid.uuid4().bytes).rstrip(b"=").decode()
        if not cid.startswith("-"):
            return cid


def _kafka_properties(data: Path) -> str:
    port, cport = KAFKA.port, CONTROLLER_PORT
    return f"""process.roles=broker,controller
node.id=1
controller.quorum.voters=1@{HOST}:{cport}
listeners=PLAINTEXT://{HOST}:{port},CONTROLLER://{HOST}:{cport}
advertised.listeners=PLAINTEXT://{HOST}:{port}
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT
log.dirs={data}
num.partitions=1
auto.create.topics.enable=false
offsets.topic.replication.factor=1
offsets.topic.num.partitions=1
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
transaction.state.log.num.partitions=1
share.coordinator.state.topic.replication.factor=1
share.coordinator.state.topic.min.isr=1
group.initial.rebalance.delay.ms=0
log.retention.hours=-1
"""


def _java_cmd(main: str, *args: str) -> list[str]:
    if not any(KAFKA_LIBS.glob("*.jar")):
        sys.exit(f"no Kafka jars in {KAFKA_LIBS}: run `make install` first")
    return [
        "java", "-Xms256m", "-Xmx1g", "-XX:+UseG1GC", "-Djava.awt.headless=true",
        "-Dorg.slf4j.simpleLogger.defaultLogLevel=info",
        "-Dorg.slf4j.simpleLogger.showDateTime=true",
        "-cp", f"{KAFKA_LIBS}/*", main, *args,
    ]  # fmt: skip


def _start(service: Service, cmd: list[str]) -> None:
    service.home.mkdir(parents=True, exist_ok=True)
    # The servers run as `make up` starts them, also when restarted by a test whose JVMs are
    # given other options (tests/conftest.py: JAVA_TOOL_OPTIONS).
    env = {k: v for k, v in os.environ.items() if k != "JAVA_TOOL_OPTIONS"}
    with service.log.open("ab") as log:
        proc = subprocess.Popen(
            cmd, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
            cwd=service.home, start_new_session=True, env=env,
        )  # fmt: skip
    service.pidfile.write_text(f"{proc.pid} {_start_time(proc.pid)}")


def _check_port_free(service: Service) -> None:
    if _port_open(service.port):
        sys.exit(
            f"{service.name}: port {service.port} on {HOST} is already taken by another process; "
            f"stop it or choose another port ({service.name.upper().replace('-', '_')}_PORT=...)"
        )


def start_kafka() -> None:
    if KAFKA.pid():
        print(f"kafka: already running (pid {KAFKA.pid()}) on {HOST}:{KAFKA.port}")
        return
    _check_port_free(KAFKA)
    if _port_open(CONTROLLER_PORT):
        sys.exit(
            f"kafka: controller port {CONTROLLER_PORT} is already taken (KAFKA_CONTROLLER_PORT=...)"
        )
    data = KAFKA.home / "data"
    props = KAFKA.home / "server.properties"
    KAFKA.home.mkdir(parents=True, exist_ok=True)
    props.write_text(_kafka_properties(data))
    if not (data / "meta.properties").exists():
        subprocess.run(
            _java_cmd("kafka.tools.StorageTool", "format", "-t", _cluster_id(), "-c", str(props)),
            check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
    _start(KAFKA, _java_cmd("kafka.Kafka", str(props)))


def start_s3() -> None:
    if S3.pid():
        print(f"s3: already running (pid {S3.pid()}) on {s3_endpoint()}")
        return
    _check_port_free(S3)
    if not os.access(VERSITYGW, os.X_OK):
        sys.exit(f"no S3 server at {VERSITYGW}: run `make install` first")
    # A fresh start is an empty store, as before (and the disk does not fill up run after run);
    # its internal IAM (accounts the tests create besides the root one) starts empty too.
    data, iam = S3.home / "data", S3.home / "iam"
    for folder in (data, iam):
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(parents=True)
    _start(
        S3,
        [
            str(VERSITYGW), "--port", f"{HOST}:{S3.port}",
            "--access", S3_ACCESS_KEY_ID, "--secret", S3_SECRET_ACCESS_KEY,
            "--region", S3_REGION, "--iam-dir", str(iam), "--quiet", "posix", str(data),
        ],
    )  # fmt: skip


def start_moto() -> None:
    if MOTO.pid():
        print(f"moto: already running (pid {MOTO.pid()}) on {moto_endpoint()}")
        return
    _check_port_free(MOTO)
    moto = Path(sys.executable).parent / "moto_server"
    _start(MOTO, [str(moto), "-H", HOST, "-p", str(MOTO.port)])


def start_schema_registry() -> None:
    if SCHEMA_REGISTRY.pid():
        print(
            f"schema-registry: already running (pid {SCHEMA_REGISTRY.pid()}) on "
            f"{schema_registry_url()}"
        )
        return
    _check_port_free(SCHEMA_REGISTRY)
    runner = sorted(REGISTRY_DIST.glob("*-runner.jar"))
    if not runner:
        sys.exit(f"no Schema Registry in {REGISTRY_DIST}: run `make install` first")
    # C1 only and a small serial heap: ready in about 3 s, about 150 MB resident.
    _start(
        SCHEMA_REGISTRY,
        [
            "java", "-Xms64m", "-Xmx512m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
            "-Djava.awt.headless=true",
            f"-Dquarkus.http.host={HOST}", f"-Dquarkus.http.port={SCHEMA_REGISTRY.port}",
            "-jar", str(runner[-1]),
        ],
    )  # fmt: skip


def _kafka_ready() -> bool:
    if not _port_open(KAFKA.port):
        return False
    from confluent_kafka.admin import AdminClient

    try:
        md = AdminClient({"bootstrap.servers": f"{HOST}:{KAFKA.port}"}).list_topics(timeout=2)
    except Exception:
        return False
    return len(md.brokers) > 0


def _s3_ready() -> bool:
    try:
        urllib.request.urlopen(s3_endpoint(), timeout=1).close()
    except urllib.error.HTTPError as exc:  # 403 to an unsigned request: it answers
        return exc.headers.get("Server") == "VERSITYGW"
    except OSError:
        return False
    return False


def _s3_refusal() -> str | None:
    """Why the running S3 server refuses this environment's credentials (it was started with
    other ones), or None: said by ``up`` and ``status`` rather than by every failing test."""
    import boto3
    from botocore.exceptions import ClientError

    client = boto3.client(
        "s3", endpoint_url=s3_endpoint(), region_name=S3_REGION,
        aws_access_key_id=S3_ACCESS_KEY_ID, aws_secret_access_key=S3_SECRET_ACCESS_KEY,
    )  # fmt: skip
    try:
        client.list_buckets()
    except ClientError as exc:
        return (
            f"s3: the server on {s3_endpoint()} refuses S3_ACCESS_KEY_ID={S3_ACCESS_KEY_ID!r} "
            f"({exc.response.get('Error', {}).get('Code')}): it was started with other "
            "credentials; restart it (make down up) or set the ones it was started with"
        )
    return None


def _moto_ready() -> bool:
    try:
        with urllib.request.urlopen(moto_endpoint(), timeout=1) as r:
            return bool(r.status == 200)
    except OSError:
        return False


def _schema_registry_ready() -> bool:
    try:
        with urllib.request.urlopen(f"{schema_registry_url()}/subjects", timeout=1) as r:
            return bool(r.status == 200)
    except OSError:
        return False


def _wait(service: Service, ready: object, timeout: float = 90.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if service.pid() is None:
            tail = service.log.read_text(errors="replace")[-3000:] if service.log.exists() else ""
            sys.exit(f"{service.name}: exited during start; last log lines:\n{tail}")
        if ready():  # type: ignore[operator]
            return
        time.sleep(0.5)
    sys.exit(
        f"{service.name}: not answering on port {service.port} after {timeout:.0f}s "
        f"(log: {service.log})"
    )


def up() -> None:
    start_kafka()
    start_s3()
    start_moto()
    start_schema_registry()
    _wait(KAFKA, _kafka_ready)
    _wait(S3, _s3_ready)
    _wait(MOTO, _moto_ready)
    _wait(SCHEMA_REGISTRY, _schema_registry_ready)
    refusal = _s3_refusal()
    if refusal:
        sys.exit(refusal)
    print(f"kafka: ready on {HOST}:{KAFKA.port}")
    print(f"s3:    ready on {s3_endpoint()} (versitygw, access key {S3_ACCESS_KEY_ID!r})")
    print(f"moto:  ready on {moto_endpoint()}")
    print(f"schema-registry: ready on {schema_registry_url()}")


def _stop(service: Service) -> None:
    pid = service.pid()
    if pid is None:
        print(f"{service.name}: not running")
        service.pidfile.unlink(missing_ok=True)
        return
    os.killpg(pid, signal.SIGTERM)
    deadline = time.monotonic() + 30
    while service.pid() and time.monotonic() < deadline:
        time.sleep(0.2)
    if service.pid():
        os.killpg(pid, signal.SIGKILL)
    service.pidfile.unlink(missing_ok=True)
    print(f"{service.name}: stopped")


# One service by name: the service, how it starts, how it tells that it answers.
_ONE = {
    KAFKA.name: (KAFKA, start_kafka, _kafka_ready),
    S3.name: (S3, start_s3, _s3_ready),
    MOTO.name: (MOTO, start_moto, _moto_ready),
    SCHEMA_REGISTRY.name: (SCHEMA_REGISTRY, start_schema_registry, _schema_registry_ready),
}


def _one(name: str) -> tuple[Service, Callable[[], None], Callable[[], bool]]:
    if name not in _ONE:
        raise ValueError(f"no service {name!r} in the stack: one of {', '.join(_ONE)}")
    return _ONE[name]


def stop(name: str) -> None:
    """Stop one service (``kafka``, ``s3``, ``moto``, ``schema-registry``) as ``down`` does; its
    data folder stays. For tests of a service going away under a running sink or source."""
    _stop(_one(name)[0])


def start(name: str) -> None:
    """Start one service as ``up`` does (same port, same data folder: Kafka keeps its topics; S3
    starts empty) and wait until it answers."""
    service, starter, ready = _one(name)
    starter()
    _wait(service, ready)


def down() -> None:
    _stop(SCHEMA_REGISTRY)
    _stop(MOTO)
    _stop(S3)
    _stop(KAFKA)


def status() -> int:
    code = 0
    services = (
        (KAFKA, _kafka_ready),
        (S3, _s3_ready),
        (MOTO, _moto_ready),
        (SCHEMA_REGISTRY, _schema_registry_ready),
    )
    for service, ready in services:
        pid = service.pid()
        refusal = _s3_refusal() if service is S3 and pid and ready() else None
        if refusal:
            print(refusal)
            code = 1
        elif pid and ready():
            print(f"{service.name}: running (pid {pid}) on port {service.port}")
        elif pid:
            print(f"{service.name}: started (pid {pid}) but not answering on port {service.port}")
            code = 1
        else:
            print(f"{service.name}: not running")
            code = 1
    return code


def main(argv: list[str]) -> int:
    commands = {"up": up, "down": down}
    if len(argv) != 2 or argv[1] not in {"up", "down", "status"}:
        print("usage: stack.py up|down|status", file=sys.stderr)
        return 2
    if argv[1] == "status":
        return status()
    commands[argv[1]]()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
