"""`linnet` commands against a server that sends what no real server would: escape sequences in
error messages and bodies, binary bodies, absurd headers. Nothing may reach the terminal raw,
and nothing may crash."""
import http.server
import json
import os
import subprocess
import threading

import pytest

from conftest import LINNET


class Scripted(http.server.BaseHTTPRequestHandler):
    """Answers every request with the class's (status, headers, body)."""
    answer = (200, {}, b"[]")

    def do_GET(self):
        status, headers, body = self.server.answer
        self.send_response(status)
        for k, v in headers.items():
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_POST = do_GET

    def log_message(self, *args):
        pass


@pytest.fixture
def hostile():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Scripted)
    server.answer = Scripted.answer
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()


def run(server, *args, tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith("LINNET_")}
    env.update({"XDG_CONFIG_HOME": str(tmp_path / "c"), "XDG_STATE_HOME": str(tmp_path / "s"), "XDG_CACHE_HOME": str(tmp_path / "h"),
                "LINNET_CONSUMER_KEY": "ck", "LINNET_CONSUMER_SECRET": "cs", "LINNET_ACCESS_TOKEN": "1-t", "LINNET_ACCESS_TOKEN_SECRET": "ts",
                "LINNET_API": "v1.1"})  # the hostile server speaks v1.1
    base = "http://127.0.0.1:%d" % server.server_address[1]
    return subprocess.run([LINNET, *args, "--api-base", base], env=env, capture_output=True, timeout=60)


def no_escapes(data):
    for bad in (b"\x1b", b"\x9b", "\u202e".encode(), b"\x07"):
        assert bad not in data, data[:300]


def test_an_error_message_with_escapes_is_shown_not_obeyed(hostile, tmp_path):
    body = json.dumps({"errors": [{"code": 32, "message": "\x1b]0;pwned\x07\x1b[31mred \u202etxet"}]}).encode()
    hostile.answer = (401, {"Content-Type": "application/json"}, body)
    r = run(hostile, "timeline", tmp_path=tmp_path)
    assert r.returncode != 0 and r.returncode > 0
    no_escapes(r.stderr)
    assert b"\\u{1B}[31mred" in r.stderr


def test_a_plain_text_500_body_is_shown_not_obeyed(hostile, tmp_path):
    hostile.answer = (500, {"Content-Type": "text/plain"}, b"\x1b[2J\x1b[Hoops")
    r = run(hostile, "api", "GET", "statuses/home_timeline", tmp_path=tmp_path)
    assert r.returncode > 0
    no_escapes(r.stderr + r.stdout)


def test_api_prints_text_safely_and_binary_only_with_raw(hostile, tmp_path):
    hostile.answer = (200, {"Content-Type": "text/plain"}, b"hello \x1b[31mred")
    r = run(hostile, "api", "GET", "anything", tmp_path=tmp_path)
    assert r.returncode == 0
    no_escapes(r.stdout)
    assert b"hello \\u{1B}[31mred" in r.stdout
    hostile.answer = (200, {"Content-Type": "application/octet-stream"}, b"\x00\x01\x02\xff" * 100)
    r = run(hostile, "api", "GET", "anything", tmp_path=tmp_path)
    assert r.returncode > 0 and r.stdout == b""
    assert b"400 bytes that are not text" in r.stderr
    r = run(hostile, "api", "GET", "anything", "--raw", tmp_path=tmp_path)
    assert r.returncode == 0 and r.stdout == b"\x00\x01\x02\xff" * 100


def test_json_output_escapes_bidi_overrides_and_joiners(hostile, tmp_path):
    with open(os.path.join(os.path.dirname(__file__), "..", "Fixtures", "api", "get_status.json"), "rb") as f:
        tweet = json.load(f)
    tweet["full_text"] = tweet["text"] = "abc \u202e\u200d\x1b[31m def"
    hostile.answer = (200, {"Content-Type": "application/json"}, json.dumps([tweet]).encode())
    r = run(hostile, "timeline", "--api-json", tmp_path=tmp_path)
    assert r.returncode == 0, r.stderr
    no_escapes(r.stdout)
    assert "\u200d".encode() not in r.stdout
    line = json.loads(r.stdout.splitlines()[0])
    assert line["full_text"] == "abc \u202e\u200d\x1b[31m def", "the same JSON, only escaped"
    # Linnet's own form keeps every scalar of the text too, escaped the same way.
    r = run(hostile, "timeline", "--json", tmp_path=tmp_path)
    assert r.returncode == 0, r.stderr
    no_escapes(r.stdout)
    assert json.loads(r.stdout.splitlines()[0])["text"] == "abc \u202e\u200d\x1b[31m def"


@pytest.mark.parametrize("retry_after", ["9223372036854775807", "99999999999999999999999", "-9223372036854775808"])
def test_an_absurd_retry_after_is_an_error_not_a_crash(hostile, tmp_path, retry_after):
    hostile.answer = (429, {"Retry-After": retry_after, "x-rate-limit-reset": "9223372036854775807",
                            "x-rate-limit-remaining": "0", "x-rate-limit-limit": "15"},
                      b'{"errors":[{"code":88,"message":"Rate limit exceeded"}]}')
    r = run(hostile, "timeline", tmp_path=tmp_path)
    assert r.returncode > 0, "a signal is a crash: %d" % r.returncode
    assert b"Rate limit" in r.stderr


def test_a_config_key_with_an_escape_is_shown_not_obeyed(tmp_path):
    conf = tmp_path / "c" / "linnet"
    conf.mkdir(parents=True)
    (conf / "config.toml").write_text('[keys.timeline]\n"\\u001b[31mx" = "quit"\n')  # a TOML escape: a real ESC in the key
    env = {k: v for k, v in os.environ.items() if not k.startswith("LINNET_")}
    env["XDG_CONFIG_HOME"] = str(tmp_path / "c")
    r = subprocess.run([LINNET, "config"], env=env, capture_output=True, timeout=30)
    assert r.returncode > 0
    no_escapes(r.stderr)
    assert b"\\u{1B}" in r.stderr


@pytest.mark.parametrize("value", ["inf", "1e300", "nan", "-inf"])
def test_an_absurd_poll_interval_is_refused_in_words(tmp_path, value):
    conf = tmp_path / "c" / "linnet"
    conf.mkdir(parents=True)
    (conf / "config.toml").write_text("[poll]\nminimum_seconds = %s\n" % value)
    env = {k: v for k, v in os.environ.items() if not k.startswith("LINNET_")}
    env["XDG_CONFIG_HOME"] = str(tmp_path / "c")
    r = subprocess.run([LINNET, "config"], env=env, capture_output=True, timeout=30)
    assert r.returncode > 0, "a signal is a crash: %d" % r.returncode
    assert b"minimum_seconds" in r.stderr
