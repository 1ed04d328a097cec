"""Gap markers in the real reader under tmux (X API v2, where every post read is billed): after
an absence, a poll reads one page of the newest posts and marks where older unseen posts were
not loaded; moving onto the marker loads them page by page, until nothing is missed."""
import json
import os
import subprocess
import time
import urllib.parse
import urllib.request

from conftest import LINNET, start_sim, v2_environment


def screen(tmux):
    return subprocess.run([*tmux, "capture-pane", "-p", "-t", "0"], capture_output=True, text=True).stdout


def wait(tmux, predicate, seconds=20):
    end = time.time() + seconds
    text = ""
    while time.time() < end:
        text = screen(tmux)
        if predicate(text):
            return True, text
        time.sleep(0.2)
    return False, text


def home_truth(base):
    with urllib.request.urlopen(base + "/_sim/timeline?name=home") as r:
        return [int(i) for i in json.load(r)["ids"]]


def test_a_gap_is_marked_and_filled_as_the_reader_reaches_it(tmp_path):
    # Each answer takes 0.7 s, so a marker stays on screen while the page below it is fetched.
    proc, base = start_sim("--tweets-per-minute", "0", "--keep-alive", "1", "--delay", "700")
    tmux = ["tmux", "-L", f"linnet-gap-{os.getpid()}"]
    try:
        creds = json.load(urllib.request.urlopen(base + "/_sim/credentials"))
        env = v2_environment(tmp_path, creds)
        subprocess.run([*tmux, "new-session", "-d", "-x", "100", "-y", "30", f"{LINNET} --api-base {base}; sleep 60"],
                       env=env, check=True)
        ok, text = wait(tmux, lambda t: "▌" in t and "@" in t)
        assert ok, text
        before = set(home_truth(base))
        # While the reader looks away, far more posts arrive than one page of the pane holds.
        for i in range(80):
            data = urllib.parse.urlencode({"text": f"while away {i}"}).encode()
            urllib.request.urlopen(urllib.request.Request(base + "/_sim/tweet", data=data))
        arrived = [i for i in home_truth(base) if i not in before]
        assert len(arrived) > 20, "too few of the new posts reached home to need a gap"
        subprocess.run([*tmux, "send-keys", "-t", "0", "R"], check=True)
        ok, text = wait(tmux, lambda t: " new · " in t)
        assert ok, "the refresh brought nothing:\n" + text
        subprocess.run([*tmux, "send-keys", "-t", "0", "g", "g"], check=True)
        # Reading down from the newest meets the marker below the page; each arrival on it
        # loads a page below it, until what was held before is reached.
        seen = False
        for _ in range(len(arrived) + 20):
            subprocess.run([*tmux, "send-keys", "-t", "0", "j"], check=True)
            time.sleep(0.25)
            seen = seen or "not loaded yet" in screen(tmux)
        assert seen, "no gap marker was shown on the way down"
        time.sleep(2)
        # Read again from the newest, slowly: no marker is left anywhere (the store closes a
        # gap only when a page reaches what was held, so nothing that arrived was missed).
        subprocess.run([*tmux, "send-keys", "-t", "0", "g", "g"], check=True)
        time.sleep(1)
        for _ in range(len(arrived) + 10):
            text = screen(tmux)
            assert "not loaded yet" not in text, "a gap was left:\n" + text
            subprocess.run([*tmux, "send-keys", "-t", "0", "j"], check=True)
            time.sleep(0.1)
        # Nothing missed: every post that arrived was read from the simulator, none twice on
        # the same page walk (each page asked below the last).
        with urllib.request.urlopen(base + "/_sim/requests") as r:
            log = json.load(r)
        home_reads = [e for e in log if e["path"].endswith("/timelines/reverse_chronological")]
        assert len(home_reads) >= 3, home_reads
    finally:
        subprocess.run([*tmux, "kill-server"], capture_output=True)
        proc.terminate()
        proc.wait(timeout=10)
