"""The ``s3connect`` console script.

s3connect sink --config FILE [--set key=value ...] [--once]
"""

from __future__ import annotations

import argparse
import sys

from s3connect.errors import ConfigError

__all__ = ["main"]


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="s3connect", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    sink = commands.add_parser("sink", help="run the Kafka -> S3 sink")
    sink.add_argument("--config", required=True, help="connector config: .json or .properties")
    sink.add_argument(
        "--set", action="append", default=[], metavar="KEY=VALUE", help="override one key"
    )
    sink.add_argument("--once", action="store_true", help="process what is available, then stop")
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point; returns the process exit code."""
    args = _parser().parse_args(argv)
    from s3connect.config import SinkConfig, load_config_file

    try:
        config = SinkConfig.from_mapping(load_config_file(args.config), overrides=args.set)
    except ConfigError as exc:
        print(f"s3connect: invalid config: {exc}", file=sys.stderr)
        return 2
    from s3connect.sink import run_sink

    print("effective config:")
    for key, value in sorted(config.describe().items()):
        print(f"  {key} = {value}")
    run_sink(config, once=args.once or None)
    return 0


if __name__ == "__main__":
    sys.exit(main())
