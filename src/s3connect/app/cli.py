"""The ``s3connect`` console script.

s3connect sink --config FILE [--set key=value ...] [--once]
s3connect source --config FILE [--set key=value ...] [--once]
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from s3connect.app.logs import configure_logging
from s3connect.errors import ConfigError

__all__ = ["main"]


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="s3connect", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    for name, what in (("sink", "Kafka -> S3 sink"), ("source", "S3 -> Kafka source")):
        command = commands.add_parser(name, help=f"run the {what}")
        command.add_argument(
            "--config", required=True, help="connector config: .json or .properties"
        )
        command.add_argument(
            "--set", action="append", default=[], metavar="KEY=VALUE", help="override one key"
        )
        command.add_argument(
            "--once", action="store_true", help="process what is available, then stop"
        )
    return parser


def _load(kind: Any, args: argparse.Namespace) -> Any:
    """The validated config of ``kind`` (SinkConfig or SourceConfig), printed; None if invalid."""
    from s3connect.config.parsing import load_config_file

    try:
        config = kind.from_mapping(load_config_file(args.config), overrides=args.set)
    except ConfigError as exc:
        print(f"s3connect: invalid config: {exc}", file=sys.stderr)
        return None
    print("effective config:")
    for key, value in sorted(config.describe().items()):
        print(f"  {key} = {value}")
    return config


def main(argv: list[str] | None = None) -> int:
    """Entry point; returns the process exit code."""
    args = _parser().parse_args(argv)
    configure_logging()
    once = args.once or None
    if args.command == "source":
        from s3connect.config.source import SourceConfig
        from s3connect.errors import DestinationError, SourceObjectError
        from s3connect.spark.source_query import run_source

        source = _load(SourceConfig, args)
        if source is None:
            return 2
        try:
            run_source(source, once=once)
        except (DestinationError, SourceObjectError) as exc:
            print(f"s3connect: {exc}", file=sys.stderr)
            return 1
        return 0
    from s3connect.config.sink import SinkConfig
    from s3connect.spark.sink_query import run_sink

    sink = _load(SinkConfig, args)
    if sink is None:
        return 2
    run_sink(sink, once=once)
    return 0


if __name__ == "__main__":
    sys.exit(main())
