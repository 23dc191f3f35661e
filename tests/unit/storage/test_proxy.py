"""The S3 proxy as Confluent's ``S3ProxyConfig`` parses it (``S3ProxyTest``'s table), and how
botocore gets it."""

from __future__ import annotations

import base64

import pytest
from botocore.httpsession import ProxyConfiguration

from s3connect.storage.proxy import S3Proxy, parse_proxy, redacted_url, without_password
from s3connect.storage.s3 import S3Settings, S3Storage

KEYS = {"user": "realuser", "password": "realpass"}


@pytest.mark.parametrize(
    ("url", "keys", "expected"),
    [
        ("http://localhost", {}, ("http", "localhost", -1, None, None)),
        ("http://localhost:8080/current", {}, ("http", "localhost", 8080, None, None)),
        ("http://user@localhost:8080", {}, ("http", "localhost", 8080, "user", None)),
        ("http://user:@localhost:8080", {}, ("http", "localhost", 8080, "user", "")),
        ("http://user:pass@localhost:8080", KEYS, ("http", "localhost", 8080, *KEYS.values())),
        ("https://localhost:8080", KEYS, ("https", "localhost", 8080, *KEYS.values())),
        # Beyond the table: the same rules.
        ("HTTP://proxy:3128", {}, ("http", "proxy", 3128, None, None)),
        ("ftp://proxy", {}, ("https", "proxy", -1, None, None)),
        ("http://u:p:q@proxy", {}, ("http", "proxy", -1, "u", "p:q")),
        ("http://u:p@proxy", {"user": " ", "password": ""}, ("http", "proxy", -1, "u", "p")),
        ("http://u:p@proxy", {"password": "k"}, ("http", "proxy", -1, "u", "k")),
        ("http://[::1]:3128", {}, ("http", "[::1]", 3128, None, None)),
        ("http://proxy:", {}, ("http", "proxy", -1, None, None)),
    ],
)
def test_s3_proxy_test_table(
    url: str, keys: dict[str, str], expected: tuple[str, str, int, str | None, str | None]
) -> None:
    p = parse_proxy(url, keys.get("user"), keys.get("password"))
    assert (p.scheme, p.host, p.port, p.user, p.password) == expected


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("localhost", "no protocol: localhost"),
        ("unknown://localhost", "unknown protocol: unknown"),
        ("http://", "no host"),
        # Confluent accepts an empty host (and then fails on every request); refused at start.
        ("http://:8080", "no host"),
        ("localhost:8080", "unknown protocol: localhost"),
        ("http://a@b@proxy", "no host"),
        ("http://proxy:80x", "invalid port number: 80x"),
        ("http://proxy:70000", "invalid port number: 70000"),
        ("http:proxy", "no host"),
    ],
)
def test_urls_java_refuses_are_refused(url: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_proxy(url)


def test_no_protocol_message_hides_the_user_info() -> None:
    with pytest.raises(ValueError) as info:
        parse_proxy("user:SECRET@proxy")
    assert "SECRET" not in str(info.value)


def test_botocore_url_carries_percent_encoded_credentials_and_the_right_header() -> None:
    p = S3Proxy(scheme="http", host="proxy", port=3128, user="us er", password="p@ss:w/rd%")
    assert p.url() == "http://us%20er:p%40ss%3Aw%2Frd%25@proxy:3128"
    headers = ProxyConfiguration(p.botocore_options()["proxies"]).proxy_headers_for(p.url())
    assert headers == {
        "Proxy-Authorization": "Basic " + base64.b64encode(b"us er:p@ss:w/rd%").decode()
    }


@pytest.mark.parametrize(("user", "password"), [("u", None), ("u", ""), (None, "p"), ("", "p")])
def test_no_credentials_unless_both_are_non_empty(user: str | None, password: str | None) -> None:
    p = S3Proxy(scheme="https", host="proxy", user=user, password=password)
    assert p.url() == "https://proxy"
    assert ProxyConfiguration(p.botocore_options()["proxies"]).proxy_headers_for(p.url()) == {}


def test_repr_and_describe_hide_the_credentials() -> None:
    p = parse_proxy("http://someone:SECRET@proxy:3128")
    for text in (repr(p), str(p), p.describe()):
        assert "SECRET" not in text and "someone" not in text
    assert p.describe() == "http://proxy:3128"
    settings = S3Settings(bucket="b", proxy=p)
    assert "SECRET" not in repr(settings) and "proxy=S3Proxy(" in repr(settings)


def test_every_s3_client_gets_the_proxy() -> None:
    p = parse_proxy("http://proxy.example.com:3128", "u", "p")
    storage = S3Storage(S3Settings(bucket="b", endpoint_url="http://127.0.0.1:1", proxy=p))
    assert storage.client.meta.config.proxies == {
        "http": "http://u:p@proxy.example.com:3128",
        "https": "http://u:p@proxy.example.com:3128",
    }
    assert storage.describe() == "s3://b at http://127.0.0.1:1 via http://proxy.example.com:3128"
    assert S3Storage(S3Settings(bucket="b")).client.meta.config.proxies is None


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("http://u:SECRET@proxy:3128/x", ("http://u:@proxy:3128/x", "SECRET")),
        ("http://u:@proxy", ("http://u:@proxy", None)),
        ("http://u@proxy", ("http://u@proxy", None)),
        ("http://proxy", ("http://proxy", None)),
    ],
)
def test_without_password_keeps_the_user(url: str, expected: tuple[str, str | None]) -> None:
    assert without_password(url) == expected


def test_redacted_url() -> None:
    assert redacted_url("http://u:SECRET@proxy:3128/x") == "http://[hidden]@proxy:3128/x"
    assert redacted_url("http://a@b:S@proxy") == "http://[hidden]@proxy"
    assert redacted_url("localhost") == "localhost"
