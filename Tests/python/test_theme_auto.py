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


def first_frame(tmp_path, window_bg=None, colorfgbg=None, expected=None):
    """The demo's screen under tmux once it shows a post's time in one theme's colour (in
    `expected` alone, when given: the terminal's answer may come after a first frame drawn in
    the guess)."""
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
            other = DARK if expected == LIGHT else LIGHT
            if "@" in text and (expected in text and other not in text if expected else LIGHT in text or DARK in text):
                return text
            time.sleep(0.2)
        raise AssertionError("no first frame:\n" + text)
    finally:
        subprocess.run([*tmux, "kill-server"], capture_output=True)


@pytest.mark.parametrize("bg, expected", [("#ffffff", LIGHT), ("#000000", DARK), ("#fdf6e3", LIGHT), ("#002b36", DARK)])
def test_the_terminal_says_its_background(tmp_path, bg, expected):
    text = first_frame(tmp_path, window_bg=bg, expected=expected)
    assert expected in text and (LIGHT if expected == DARK else DARK) not in text


@pytest.mark.parametrize("value, expected", [("0;15", LIGHT), ("15;0", DARK), ("0;default;7", LIGHT)])
def test_colorfgbg_when_the_terminal_does_not_say(tmp_path, value, expected):
    text = first_frame(tmp_path, colorfgbg=value, expected=expected)
    assert expected in text and (LIGHT if expected == DARK else DARK) not in text


def test_nothing_said_means_dark(tmp_path):
    assert DARK in first_frame(tmp_path)


def test_the_first_frame_does_not_wait_for_a_slow_link(tmp_path):
    """Over a slow ssh link the answers to the question at start come a round trip later: the
    first frame is drawn without them (no COLORFGBG, a terminal never met: dark), and drawn
    again in the light theme when they come, split over two reads 0.4 s apart; nothing of them
    is taken for a key (`r` would open a reply, `?` the help). The next start remembers."""
    from test_picture_protocols import Pty
    from test_real_terminals import demo_env

    env = demo_env(tmp_path)
    env.update(TERM="xterm-256color", LANG="C.UTF-8")
    t = Pty([LINNET, "demo", "--tweets-per-minute", "0", "--state-dir", str(tmp_path / "state")], env)
    try:
        assert t.wait_for(rb"\x1b\]11;\?.*\x1b\[c", 20), t.out[-300:]
        assert t.wait_for(rb"@linnet_demo", 30), t.out[-300:]
        t.read(0.5)
        first = t.out[t.out.index(b"\x1b[c"):]
        assert b"38;5;245m" in first and b"38;5;242m" not in first
        start = len(t.out)
        answer = b"\x1b]11;rgb:ffff/ffff/ffff\x1b\\\x1b[?62;22c"
        t.send(answer[:9])
        t.read(0.4)
        t.send(answer[9:])
        assert t.wait_for(rb"38;5;242m", 10), t.out[start:][-300:]
        t.read(0.5)
        again = t.out[start:]
        # Drawn whole again, and nothing typed: no reply box, no help.
        assert again.startswith(b"\x1b[H\x1b[2J") or b"\x1b[2J" in again, again[:200]
        assert b"Reply to" not in again and b"Keys" not in again, again[-400:]
    finally:
        t.close()

    # The same terminal again: its first frame is drawn at once as it answered last time
    # (light), and the same answers draw nothing again.
    t = Pty([LINNET, "demo", "--tweets-per-minute", "0", "--state-dir", str(tmp_path / "state")], env)
    try:
        assert t.wait_for(rb"\x1b\[c.*@linnet_demo", 30), t.out[-300:]
        t.read(0.5)
        first = t.out[t.out.index(b"\x1b[c"):]
        assert b"38;5;242m" in first and b"38;5;245m" not in first
        start = len(t.out)
        t.send(answer)
        t.read(1.0)
        assert b"\x1b[2J" not in t.out[start:] and b"38;5;245m" not in t.out[start:], t.out[start:][-300:]
    finally:
        t.close()


def test_answers_split_after_the_widths_are_no_keys(tmp_path):
    """The widths are answered first (six cursor reports on the bottom row), then the rest of
    the answers, DA1 split over two reads 0.4 s apart, longer than a key's wait: its pieces are
    held for each other, not typed (`?` would open the help, `c` compose); `?` typed after
    them opens the help, so the help would have shown."""
    from test_picture_protocols import Pty
    from test_real_terminals import demo_env

    env = demo_env(tmp_path)
    env.update(TERM="xterm-256color", LANG="C.UTF-8")
    t = Pty([LINNET, "demo", "--tweets-per-minute", "0", "--state-dir", str(tmp_path / "state")], env)
    try:
        assert t.wait_for(rb"\x1b\[30;1H\x1b\[8m.*\x1b\[c.*@linnet_demo", 30), t.out[-300:]
        t.read(0.5)
        start = len(t.out)
        widths = b"".join(b"\x1b[30;%dR" % c for c in (5, 3, 2, 3, 2, 5))
        t.send(b"\x1b]11;rgb:0000/0000/0000\x07" + widths + b"\x1b[6;20;10t\x1b[?62")
        t.read(0.4)
        t.send(b";22c")
        t.read(1.0)
        after = t.out[start:]
        assert b" Keys (" not in after and b"Reply to" not in after and b"New post" not in after, after[-400:]
        t.send(b"?")
        assert t.wait_for(rb" Keys \(", 5), t.out[-300:]
    finally:
        t.close()
