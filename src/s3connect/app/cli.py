"""The ``s3connect`` console script.

    s3connect sink     --config FILE [--set key=value ...] [--once] [--verbose]
    s3connect source   --config FILE [--set key=value ...] [--once] [--verbose]
    s3connect validate --config FILE [--set key=value ...] [--source]
    s3connect status   --config FILE [--set key=value ...] [--source]

A run prints its progress, then its summary, or one short message saying what failed, where and
what to change; the exit code says what kind of failure it was (see :mod:`.failures`). The full
trace, the effective config and Spark's own log lines go to the run's log file, whose path the
message names (``--verbose`` prints them too).
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
import traceback
from pathlib import Path
from typing import Any

from s3connect.app.failures import ExitCode, describe_failure
from s3connect.app.logs import configure_logging, console_level, run_log_path
from s3connect.app.progress_bar import ProgressBar
from s3connect.config.parsing import load_config_file
from s3connect.config.sink import SinkConfig
from s3connect.config.source import SOURCE_CONNECTOR_CLASS, SourceConfig
from s3connect.errors import ConfigError, QueryFailedError

__all__ = ["main"]

logger = logging.getLogger("s3connect.app.cli")  # also when run as __main__

_RUNS = {"sink": "run the Kafka -> S3 sink", "source": "run the S3 -> Kafka source"}
_CHECKS = {
    "validate": "check a config offline (no Spark): every problem, or the effective config",
    "status": "where a sink or source stands: committed offsets and objects, open files, lag",
}


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="s3connect", description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    for name, what in {**_RUNS, **_CHECKS}.items():
        command = commands.add_parser(name, help=what)
        command.add_argument(
            "--config", required=True, help="connector config: .json or .properties"
        )
        command.add_argument(
            "--set", action="append", default=[], metavar="KEY=VALUE", help="override one key"
        )
        if name in _RUNS:
            command.add_argument(
                "--once", action="store_true", help="process what is available, then stop"
            )
            command.add_argument(
                "--verbose", action="store_true", help="print traces and Spark's own log lines"
            )
        else:
            command.add_argument(
                "--source", action="store_true", help="an S3 source config (default: detected)"
            )
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point; returns the process exit code."""
    args = _parser().parse_args(argv)
    if args.command in _CHECKS:
        configure_logging()
        return _check(args)
    log_file = run_log_path(args.command)
    os.environ["S3CONNECT_LOG_FILE"] = str(log_file)
    os.environ["S3CONNECT_VERBOSE"] = "1" if args.verbose else "0"
    configure_logging(args.verbose, log_file)
    try:
        _run(args)
    except Exception as exc:  # one message for every failure; the trace goes to the log file
        return _fail(args, exc, log_file)
    return ExitCode.OK


def _run(args: argparse.Namespace) -> None:
    once = args.once or None
    if args.command == "source":
        from s3connect.spark.source_query import run_source

        source = SourceConfig.from_mapping(load_config_file(args.config), overrides=args.set)
        _announce("source", source)
        run_source(source, once=once)
        return
    from s3connect.spark.sink_query import run_sink

    sink = SinkConfig.from_mapping(load_config_file(args.config), overrides=args.set)
    _announce("sink", sink)
    available_now = bool(once or sink.streaming.trigger == "availableNow")
    if not (available_now and sys.stdout.isatty()):
        run_sink(sink, once=once)  # plain progress lines (jobs, pipes, continuous runs)
        return
    bar = ProgressBar(sys.stdout)
    with console_level(logging.WARNING):  # the bar instead of a line per batch
        try:
            summary = run_sink(sink, once=once, show=bar)
        finally:
            bar.close()
    print(summary.render())


def _announce(command: str, config: Any) -> None:
    """One line on the console; the effective config (masked) in the log file."""
    logger.info("s3connect %s %r: config valid, starting", command, config.name)
    for key, value in sorted(config.describe().items()):
        logger.debug("effective config: %s = %s", key, value)


def _fail(args: argparse.Namespace, exc: Exception, log_file: Path) -> int:
    failure = describe_failure(exc, _checkpoint(args))
    trace = "".join(traceback.format_exception(exc))
    details = exc.details if isinstance(exc, QueryFailedError) else ""
    logger.debug("%s failed:\n%s%s", args.command, trace, f"\n{details}" if details else "")
    print(failure.message(args.command, log_file), file=sys.stderr)
    if args.verbose:
        print(trace + (f"\n{details}" if details else ""), file=sys.stderr)
    return failure.code


def _checkpoint(args: argparse.Namespace) -> str | None:
    """The run's checkpoint.location, for the failure message; None when the config is not
    valid."""
    kind = SourceConfig if args.command == "source" else SinkConfig
    try:
        config = kind.from_mapping(load_config_file(args.config), overrides=args.set)
    except Exception:
        return None
    return config.streaming.checkpoint_location


def _check(args: argparse.Namespace) -> int:
    try:
        raw = load_config_file(args.config)
        kind = SourceConfig if args.source or _is_source(raw) else SinkConfig
        config = kind.from_mapping(raw, overrides=args.set)
    except ConfigError as exc:
        print(f"s3connect {args.command}: invalid config: {exc}", file=sys.stderr)
        return ExitCode.CONFIG
    if args.command == "validate":
        what = "source" if kind is SourceConfig else "sink"
        print(f"{what} config {args.config}: valid; effective config:")
        for key, value in sorted(config.describe().items()):
            print(f"  {key} = {value}")
        if config.ignored_keys:
            print("keys without effect here: " + ", ".join(config.ignored_keys))
        return ExitCode.OK
    from s3connect.app.status import print_status

    return print_status(config)


def _is_source(raw: dict[str, str]) -> bool:
    return raw.get("connector.class", "").strip() in (
        SOURCE_CONNECTOR_CLASS,
        "S3SourceConnector",
        "S3_SOURCE",
    )


if __name__ == "__main__":
    sys.exit(main())
