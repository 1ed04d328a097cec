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


@pytest.fixture(scope="session")
def sim():
    proc = subprocess.Popen(
        [LINNET, "sim", "--port", "0", "--tweets-per-minute", "0", "--users", "12", "--keep-alive", "1"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    base = None
    for line in proc.stdout:
        m = re.search(r"listening on (http://\S+)", line)
        if m:
            base = m.group(1)
            break
    if base is None:
        proc.kill()
        raise RuntimeError("linnet sim did not start: " + proc.stdout.read())
    creds = json.load(urllib.request.urlopen(base + "/_sim/credentials"))
    yield {"base": base, **creds}
    proc.terminate()
    proc.wait(timeout=10)


def ground_truth(sim, name):
    with urllib.request.urlopen(f"{sim['base']}/_sim/timeline?name={name}") as r:
        return [int(i) for i in json.load(r)["ids"]]
