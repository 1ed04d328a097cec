"""`theme = "auto"` (the default) in a real terminal: the demo under tmux picks the light theme when
the terminal says its background is white (tmux answers OSC 11 from its window style), the dark
one when it says black, and falls back to COLORFGBG when the terminal does not say."""
import os
import subprocess
import time

import pytest

from conftest import LINNET

# What each theme draws a post's time in, as tmux reports the 256-colour cell: light's #6c6c6c is
# grey 242, dark's #8a8a8a grey 245.
LIGHT, DARK = "38;5;242", "38;5;245"


def first_frame(tmp_path, window_bg=None, colorfgbg=None):
    tmux = ["tmux", "-L", f"linnet-auto-{os.getpid()}-{window_bg}-{colorfgbg}", "-f", "/dev/null"]
    env = {k: v for k, v in os.environ.items() if not k.startswith("LINNET_") and k != "COLORFGBG"}
    for name in ("config", "state", "cache"):
        env[f"XDG_{name.upper()}_HOME"] = str(tmp_path / name)
    env["TERM"] = "xterm-256color"
    command = f"{LINNET} demo --tweets-per-minute 0; sleep 30"
    if colorfgbg:
        command = f"COLORFGBG='{colorfgbg}' " + command
    setup = [*tmux, "new-session", "-d", "-x", "100", "-y", "30", "sleep 60"]
    try:
        subprocess.run(setup, env=env, check=True)
        subprocess.run([*tmux, "set", "-g", "default-terminal", "tmux-256color"], check=True)
        if window_bg:
            subprocess.run([*tmux, "set", "-g", "window-style", f"bg={window_bg}"], check=True)
        subprocess.run([*tmux, "respawn-pane", "-k", "-t", "0", command], env=env, check=True)
        end = time.time() + 20
        text = ""
        while time.time() < end:
            text = subprocess.run([*tmux, "capture-pane", "-p", "-e", "-t", "0"], capture_output=True, text=True).stdout
            if "@" in text and (LIGHT in text or DARK in text):
                return text
            time.sleep(0.2)
        raise AssertionError("no first frame:\n" + text)
    finally:
        subprocess.run([*tmux, "kill-server"], capture_output=True)


@pytest.mark.parametrize("bg, expected", [("#ffffff", LIGHT), ("#000000", DARK), ("#fdf6e3", LIGHT), ("#002b36", DARK)])
def test_the_terminal_says_its_background(tmp_path, bg, expected):
    text = first_frame(tmp_path, window_bg=bg)
    assert expected in text and (LIGHT if expected == DARK else DARK) not in text


@pytest.mark.parametrize("value, expected", [("0;15", LIGHT), ("15;0", DARK), ("0;default;7", LIGHT)])
def test_colorfgbg_when_the_terminal_does_not_say(tmp_path, value, expected):
    text = first_frame(tmp_path, colorfgbg=value)
    assert expected in text and (LIGHT if expected == DARK else DARK) not in text


def test_nothing_said_means_dark(tmp_path):
    assert DARK in first_frame(tmp_path)
