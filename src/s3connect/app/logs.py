"""Where the package's log lines go when it runs as the CLI or a notebook: the ``s3connect``
logger's records (progress, summaries, dead letters with ``errors.log.enable``) on stdout."""

from __future__ import annotations

import logging
import sys

__all__ = ["configure_logging"]

_HANDLER_NAME = "s3connect-stdout"


def configure_logging(verbose: bool = False) -> None:
    """Print the ``s3connect`` logger's records on stdout, as plain lines (once per process).

    Args:
        verbose: Also print DEBUG records (e.g. each rotation and its reason).
    """
    root = logging.getLogger("s3connect")
    root.setLevel(logging.DEBUG if verbose else logging.INFO)
    if any(h.get_name() == _HANDLER_NAME for h in root.handlers):
        return
    handler = logging.StreamHandler(sys.stdout)
    handler.set_name(_HANDLER_NAME)
    handler.setFormatter(logging.Formatter("%(message)s"))
    root.addHandler(handler)
    root.propagate = False
