"""Starts `linnet sim` on a free loopback port for the Python client tests."""
import json
import os
import re
import subprocess
import sys
import urllib.request

import pytest

sys.path.insert(0, os.path.dirname(__file__))

LINNET = os.environ.get("LINNET_BIN", os.path.join(os.path.dirname(__file__), "..", "..", ".build", "debug", "linnet"))


def start_sim(*extra, **popen):
    """Starts `linnet sim` on a free loopback port; returns the process and its base URL."""
    proc = subprocess.Popen([LINNET, "sim", "--port", "0", "--tweets-per-minute", "0", "--users", "12", *extra],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, **popen)
    for line in proc.stdout:
        m = re.search(r"listening on (http://\S+)", line)
        if m:
            return proc, m.group(1)
    proc.kill()
    raise RuntimeError("linnet sim did not start: " + proc.stdout.read())


@pytest.fixture(scope="session")
def sim():
    proc, base = start_sim("--keep-alive", "1")
    creds = json.load(urllib.request.urlopen(base + "/_sim/credentials"))
    yield {"base": base, **creds}
    proc.terminate()
    proc.wait(timeout=10)


def v2_environment(tmp_path, creds):
    """A private home under tmp_path and the simulator's demo user token, read through v2."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("LINNET_")}
    for name in ("config", "state", "cache"):
        env[f"XDG_{name.upper()}_HOME"] = str(tmp_path / name)
    env.update(LINNET_CONSUMER_KEY=creds["consumer_key"], LINNET_CONSUMER_SECRET=creds["consumer_secret"],
               LINNET_ACCESS_TOKEN=creds["access_token"], LINNET_ACCESS_TOKEN_SECRET=creds["access_token_secret"],
               LINNET_API="v2", TERM="xterm-256color")
    return env


def ground_truth(sim, name):
    with urllib.request.urlopen(f"{sim['base']}/_sim/timeline?name={name}") as r:
        return [int(i) for i in json.load(r)["ids"]]


# Figures tests report (cases generated, requests validated), printed after the run.
SUMMARY = []


def pytest_terminal_summary(terminalreporter):
    for line in SUMMARY:
        terminalreporter.write_line(line)
