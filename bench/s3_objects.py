"""S3 object benchmark: what one committed object costs through the stack's real S3 server.

    python bench/s3_objects.py [--objects 500] [--object-bytes 1024] [--baseline CHECKOUT]
                               [--repeat 2]

Writes ``--objects`` objects of ``--object-bytes`` each with the storage of this checkout's
``src`` and, with ``--baseline``, of another checkout's (each in its own process, alternating,
``--repeat`` rounds), into a fresh bucket of the stack's S3 server (``make up``); prints the
wall time, objects per second and the client's CPU seconds of each run. It measured why an
object smaller than a part stays one ``PutObject`` rather than Confluent's one-part multipart
upload (create, a part, complete): three requests cost 2-3x the time and CPU (bench/README.md).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ENDPOINT = "http://127.0.0.1:9000"


def _child(src: str, objects: int, size: int) -> None:
    """Write the objects with the storage of ``src``; print one JSON line of measurements."""
    sys.path.insert(0, src)
    sys.path.insert(0, str(ROOT / "stack"))
    import boto3
    import stack  # the stack's credentials

    from s3connect.storage.s3 import S3Settings, S3Storage

    keys = {"aws_access_key_id": stack.S3_ACCESS_KEY_ID,
            "aws_secret_access_key": stack.S3_SECRET_ACCESS_KEY}  # fmt: skip
    bucket = f"bench-objects-{uuid.uuid4().hex[:8]}"
    client = boto3.client("s3", endpoint_url=ENDPOINT, region_name="us-east-1", **keys)
    client.create_bucket(Bucket=bucket)
    storage = S3Storage(
        S3Settings(
            bucket=bucket,
            region="us-east-1",
            endpoint_url=ENDPOINT,
            access_key_id=keys["aws_access_key_id"],
            secret_access_key=keys["aws_secret_access_key"],
        )
    )
    body = b"x" * (size - 1) + b"\n"
    started, cpu = time.monotonic(), time.process_time()
    for i in range(objects):
        with storage.open_write(f"topics/t/partition=0/t+0+{i:010d}.json") as out:
            out.write(body)
    wall, cpu = time.monotonic() - started, time.process_time() - cpu
    print(json.dumps({"src": src, "objects": objects, "wall_s": wall, "cpu_s": cpu}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--objects", type=int, default=500)
    parser.add_argument("--object-bytes", type=int, default=1024)
    parser.add_argument("--baseline", type=Path)
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        _child(args.child, args.objects, args.object_bytes)
        return
    sources = [str(ROOT / "src")] + ([str(args.baseline / "src")] if args.baseline else [])
    for _ in range(args.repeat):
        for src in sources:
            command = [sys.executable, __file__, "--child", src, "--objects", str(args.objects),
                       "--object-bytes", str(args.object_bytes)]  # fmt: skip
            done = subprocess.run(command, capture_output=True, text=True, check=True)
            r = json.loads(done.stdout.strip().splitlines()[-1])
            label = "baseline" if src != sources[0] else "HEAD"
            print(
                f"{label:8} {r['objects']} objects of {args.object_bytes} B: {r['wall_s']:.2f} s, "
                f"{r['objects'] / r['wall_s']:.0f} objects/s, client CPU {r['cpu_s']:.2f} s"
            )


if __name__ == "__main__":
    main()
