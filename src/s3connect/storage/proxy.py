"""The S3 proxy (``s3.proxy.url``, ``s3.proxy.user``, ``s3.proxy.password``), as Confluent's
``S3ProxyConfig`` reads it.

The URL is parsed as ``java.net.URL`` parses it: a scheme ``java.net.URL`` knows (``http``,
``https``, ``ftp``, ``file``, ``jar``), then ``//[user-info@]host[:port]``; any path is dropped.
Scheme ``http`` (any case) gives an HTTP proxy, every other scheme an HTTPS proxy (TLS to the
proxy). The user and password keys, when not blank, override the URL's user-info (user before
the first ``:``, password after it). Beyond Confluent, a URL without a host (``http://:8080``) is
refused: Confluent accepts it and then fails on every request.

botocore takes the proxy as a URL with the credentials in its user-info and sends them on every
request (``Proxy-Authorization: Basic``, preemptively; on the ``CONNECT`` of an ``https://``
endpoint), but only when both the user and the password are non-empty.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Literal
from urllib.parse import quote

__all__ = ["S3Proxy", "parse_proxy", "redacted_url", "without_password"]

# java.net.URL's built-in protocol handlers (any other scheme: "unknown protocol").
_KNOWN_SCHEMES = ("http", "https", "ftp", "file", "jar")
# java.net.URL: a scheme is a letter then letters, digits, '+', '-' or '.', before the first ':'.
_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*):")
_AUTHORITY = re.compile(r"^(?P<head>[A-Za-z][A-Za-z0-9+.-]*://)(?P<authority>[^/?#]*)(?P<tail>.*)$")


@dataclass(frozen=True, slots=True, repr=False)
class S3Proxy:
    """A parsed proxy: ``S3ProxyConfig``'s protocol, host, port, user and password."""

    scheme: Literal["http", "https"]
    host: str
    port: int = -1
    """-1 when the URL has none (the scheme's default port, 80 or 443)."""
    user: str | None = None
    password: str | None = None

    def url(self) -> str:
        """The proxy as botocore takes it, credentials (percent-encoded) in its user-info."""
        port = "" if self.port == -1 else f":{self.port}"
        auth = ""
        if self.user and self.password:
            auth = f"{quote(self.user, safe='')}:{quote(self.password, safe='')}@"
        return f"{self.scheme}://{auth}{self.host}{port}"

    def botocore_options(self) -> dict[str, Any]:
        """``botocore.config.Config`` arguments: the proxy for both ``http`` and ``https``
        endpoints (an ``https`` endpoint is reached through a ``CONNECT`` tunnel)."""
        return {"proxies": {"http": self.url(), "https": self.url()}}

    def describe(self) -> str:
        """Where the proxy is, for logs (no credentials)."""
        port = "" if self.port == -1 else f":{self.port}"
        return f"{self.scheme}://{self.host}{port}"

    def __repr__(self) -> str:
        user = None if self.user is None else "****"
        password = None if self.password is None else "****"
        return (
            f"S3Proxy(scheme={self.scheme!r}, host={self.host!r}, port={self.port}, "
            f"user={user!r}, password={password!r})"
        )

    __str__ = __repr__


def parse_proxy(url: str, user: str | None = None, password: str | None = None) -> S3Proxy:
    """``new S3ProxyConfig(config)``: ``url`` parsed, ``user``/``password`` (when not blank)
    overriding its user-info.

    Raises:
        ValueError: a URL ``java.net.URL`` refuses (no or unknown scheme, no host, bad port),
            or one without a host; the message never holds the URL's password.
    """
    spec = url.strip()
    scheme_match = _SCHEME.match(spec)
    if scheme_match is None:
        raise ValueError(f"no protocol: {redacted_url(spec)}")
    scheme = scheme_match.group(1).lower()
    if scheme not in _KNOWN_SCHEMES:
        raise ValueError(f"unknown protocol: {scheme}")
    parts = _AUTHORITY.match(spec)
    authority = parts.group("authority") if parts is not None else ""
    if authority.count("@") > 1:
        raise ValueError("no host (more than one '@' before it; percent-encode '@' in user-info)")
    info, _, host_port = authority.rpartition("@")
    host, port = _host_port(host_port)
    url_user, url_password = _user_info(info) if "@" in authority else (None, None)
    return S3Proxy(
        scheme="http" if scheme == "http" else "https",
        host=host,
        port=port,
        user=user if user is not None and user.strip() else url_user,
        password=password if password is not None and password.strip() else url_password,
    )


def _host_port(text: str) -> tuple[str, int]:
    """``host[:port]`` (``[v6]:port`` too) -> host and port (-1 when absent)."""
    if text.startswith("["):
        end = text.find("]")
        if end < 0:
            raise ValueError("invalid IPv6 host (no closing ']')")
        host, rest = text[: end + 1], text[end + 1 :]
        if rest and not rest.startswith(":"):
            raise ValueError(f"invalid authority after the IPv6 host: {rest!r}")
        port_text = rest[1:]
    else:
        host, _, port_text = text.partition(":")
    if not host:
        raise ValueError("no host")
    if not port_text:
        return host, -1
    if not port_text.isascii() or not port_text.isdigit() or int(port_text) > 65535:
        raise ValueError(f"invalid port number: {port_text}")
    return host, int(port_text)


def _user_info(info: str) -> tuple[str, str | None]:
    """``S3ProxyConfig``'s user-info split: the user before the first ``:``, the password after
    it (``user:`` -> ``""``, no ``:`` -> None); not percent-decoded, as ``URL.getUserInfo()``."""
    user, colon, password = info.partition(":")
    return user, (password if colon else None)


def without_password(url: str) -> tuple[str, str | None]:
    """``url`` with the password taken out of its user-info (``user:pass@`` -> ``user:@``, the
    same user and, when the password key is set, the same effective password) and that
    password (None when the URL holds none)."""
    parts = _AUTHORITY.match(url.strip())
    if parts is None or parts.group("authority").count("@") != 1:
        return url, None
    info, _, host_port = parts.group("authority").partition("@")
    user, colon, password = info.partition(":")
    if not colon or not password:
        return url, None
    return f"{parts.group('head')}{user}:@{host_port}{parts.group('tail')}", password


def redacted_url(url: str) -> str:
    """``url`` with any user-info shown as ``[hidden]``, for messages."""
    return re.sub(r"^([^/?#]*//)[^/?#]*@", r"\1[hidden]@", url.strip())
