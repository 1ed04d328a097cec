"""Widths asked again when the terminal may have changed: after a resize (dtach or abduco
attached from another emulator resize the pane), Linnet writes its width samples concealed on
the bottom row and asks the cursor's place after each (CSI 6n), as it does at start. The test
is the terminal: it answers as xterm 379 does at start (nothing joined), then as tmux 3.3a does
(ZWJ sequences joined), and the screen is drawn again; the same answers again change nothing."""
import fcntl
import re
import struct
import termios
import time

from conftest import LINNET
from test_picture_protocols import Pty
from test_real_terminals import answers, demo_env, free_port

# The cursor's column after each sample (ZWJ, flag, VS-16, VS-15, keycap, skin tone), written
# from column 1: per scalar as xterm 379 draws them; then with the ZWJ sequence in two cells.
XTERM = [5, 3, 2, 3, 2, 5]
TMUX = [3, 3, 2, 3, 2, 5]
CLEAR = b"\x1b[H\x1b[2J"


def cursor_reports(row, columns):
    return b"".join(b"\x1b[%d;%dR" % (row, c) for c in columns)


def resize(t, cols, rows):
    fcntl.ioctl(t.fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, cols * 10, rows * 20))


def test_widths_are_asked_again_after_a_resize(tmp_path):
    env = demo_env(tmp_path)
    env.update(TERM="xterm-256color", LANG="C.UTF-8")
    port = free_port()
    t = Pty([LINNET, "demo", "--port", str(port), "--tweets-per-minute", "0", "--state-dir", str(tmp_path / "state")], env)
    try:
        # The start-up question, asked as curses starts: background, kitty query, six samples on
        # the bottom row each asked, cell, DA1.
        assert t.wait_for(rb"\x1b\[c", 20), t.out[-300:]
        assert t.out.count(b"\x1b[6n") == 6 and b"\x1b7\x1b[30;1H\x1b[8m" in t.out
        t.send(b"\x1b]11;rgb:0000/0000/0000\x1b\\" + cursor_reports(30, XTERM) + b"\x1b[?64;1;2;6;22c")
        deadline = time.time() + 30
        while not answers(f"http://127.0.0.1:{port}"):
            assert time.time() < deadline, "the demo did not start"
            t.read(0.3)
        assert t.wait_for(rb"Home: ", 20), t.out[-400:]
        t.read(1.0)

        # A resize: the samples on the bottom row (30), concealed, each followed by CSI 6n.
        start = len(t.out)
        resize(t, 110, 30)
        asked = re.escape(b"\x1b7\x1b[30;1H\x1b[8m")
        assert t.wait_for(asked + rb".*(\x1b\[6n.*){6}", 10), t.out[start:][-300:]
        question = t.out[start:][t.out[start:].index(b"\x1b7\x1b[30;1H"):]
        assert question.count(b"\x1b[6n") == 6 and b"\r\x1b[2K\x1b[0m\x1b8" in question
        # The resize's own frame, drawn whole, comes with it.
        t.read(1.5)

        # Answers saying ZWJ sequences are now joined: the frame is drawn whole again.
        start = len(t.out)
        t.send(cursor_reports(30, TMUX))
        assert t.wait_for(re.escape(CLEAR), 5) and CLEAR in t.out[start:], t.out[start:][-300:]
        t.read(1.0)

        # Another resize and the same answers, split mid-report over two reads a third of a
        # second apart (a slow link): nothing to draw again beyond the resize's frame, and no
        # piece taken for a key (`3` would open the Messages pane, `R` refresh).
        start = len(t.out)
        resize(t, 100, 30)
        assert t.wait_for(asked, 10)
        t.read(1.5)
        start = len(t.out)
        answer = cursor_reports(30, TMUX)
        t.send(answer[:15])
        t.read(0.35)
        t.send(answer[15:])
        t.read(2.0)
        quiet = t.out[start:]
        assert CLEAR not in quiet and b"Messages" not in quiet and len(quiet) < 600, quiet[-300:]
    finally:
        t.close()
