"""The bytes Linnet writes for a picture, read from a pseudo-terminal, against each protocol's
documented form: kitty's graphics protocol (APC `ESC _ G keys ; base64 ESC \\`, payload in chunks
of at most 4096 bytes, `m=1` on all but the last; sw.kovidgoyal.net/kitty/graphics-protocol)
and iTerm2's inline images (`ESC ] 1337 ; File=inline=1;… : base64 BEL`;
iterm2.com/documentation-images.html). `images` in config.toml names the protocol."""
import base64
import fcntl
import os
import pty
import re
import select
import struct
import termios
import time
import urllib.request

import pytest

from conftest import LINNET
from test_real_terminals import answers, demo_env, free_port


class Pty:
    def __init__(self, argv, env, cols=100, rows=30):
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            os.execve(argv[0], argv, env)
        # 10x20 pixel cells, as a graphics terminal reports them.
        fcntl.ioctl(self.fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, cols * 10, rows * 20))
        self.out = b""

    def read(self, seconds):
        end = time.time() + seconds
        while time.time() < end:
            r, _, _ = select.select([self.fd], [], [], 0.1)
            if r:
                try:
                    self.out += os.read(self.fd, 65536)
                except OSError:
                    break

    def wait_for(self, pattern, seconds):
        end = time.time() + seconds
        while time.time() < end:
            self.read(0.3)
            if re.search(pattern, self.out, re.S):
                return True
        return False

    def send(self, data):
        os.write(self.fd, data)

    def close(self):
        """SIGTERM (the reader saves and ends), reading what it still writes so it is never
        blocked on a full terminal; SIGKILL after 15 seconds. A second call does nothing."""
        if self.fd is None:
            return
        try:
            os.kill(self.pid, 15)
            end = time.time() + 15
            while time.time() < end:
                if os.waitpid(self.pid, os.WNOHANG) != (0, 0):
                    break
                self.read(0.1)
            else:
                os.kill(self.pid, 9)
                os.waitpid(self.pid, 0)
        except OSError:
            pass
        os.close(self.fd)
        self.fd = None


def viewer_bytes(protocol, tmp_path):
    """The demo with `images = protocol` in a pseudo-terminal: what it writes while a photo is
    opened in the viewer, and after Esc."""
    (tmp_path / "config" / "linnet").mkdir(parents=True)
    (tmp_path / "config" / "linnet" / "config.toml").write_text(f'images = "{protocol}"\ntheme = "dark"\n')
    env = demo_env(tmp_path)
    env.update(TERM="xterm-256color", LANG="C.UTF-8")
    port = free_port()
    t = Pty([LINNET, "demo", "--port", str(port), "--tweets-per-minute", "0", "--state-dir", str(tmp_path / "state")], env)
    try:
        deadline = time.time() + 30
        while not answers(f"http://127.0.0.1:{port}"):
            assert time.time() < deadline, "the demo did not start"
            t.read(0.3)
        assert t.wait_for(rb"Home: ", 20), t.out[-400:]
        req = urllib.request.Request(f"http://127.0.0.1:{port}/_sim/tweet?text=Protocolcheck&photo=1200x800&mention_demo=1", method="POST")
        urllib.request.urlopen(req, timeout=5)
        # A mention, whoever the simulator picks to write it: the Mentions pane has it, above
        # the top the reader stays at, and `g g` goes to it.
        # (Waiting for words with spaces would not do: ncurses skips cells that hold the same
        # character already, spaces too.)
        t.send(b"2")
        found = False
        for _ in range(10):
            t.read(1.0)
            t.send(b"gg")
            if t.wait_for(rb"Protocolcheck", 2):
                found = True
                break
        assert found, t.out[-300:]
        start = len(t.out)
        t.send(b"v")
        # The whole picture: kitty's last chunk (m=0), iTerm2's BEL.
        whole = rb"\x1b_Gm=0(;[^\x1b]*)?\x1b\\" if protocol == "kitty" else rb"\x1b\]1337;File=[^\x07]*\x07"
        assert t.wait_for(whole, 30), t.out[-300:]
        t.read(0.5)
        shown = t.out[start:]
        start = len(t.out)
        t.send(b"\x1b")
        t.read(1.5)
        after = t.out[start:]
        start = len(t.out)
        t.close()
        return shown, after, t.out[start:]
    finally:
        t.close()


def test_kitty_graphics_bytes_from_a_pty(tmp_path):
    shown, after, leaving = viewer_bytes("kitty", tmp_path)
    sequences = re.findall(rb"\x1b_G([^;\x1b]*)(?:;([^\x1b]*))?\x1b\\", shown)
    every = [dict(kv.split(b"=", 1) for kv in c[0].split(b",")) for c in sequences]
    # Sent once under an id (a=t, i=), its chunks up to the one with m=0; then placed by that
    # id where the viewer's room begins (a=p).
    start = next(i for i, k in enumerate(every) if k.get(b"a") == b"t")
    end = next(i for i in range(start, len(every)) if every[i].get(b"m", b"0") == b"0")
    chunks, keys = sequences[start:end + 1], every[start:end + 1]
    assert len(chunks) >= 2, shown[:200]
    first = keys[0]
    assert first[b"f"] == b"100" and int(first[b"i"]) > 0, first
    place = every[end + 1]
    assert place[b"a"] == b"p" and place[b"i"] == first[b"i"] and int(place[b"c"]) > 0 and int(place[b"r"]) > 0, place
    assert all(len(c[1]) <= 4096 for c in chunks)
    assert all(k.get(b"m") == b"1" for k in keys[:-1]) and keys[-1].get(b"m", b"0") == b"0"
    # Every chunk but the last a multiple of 4 base64 characters (libchafa pads each chunk, which
    # kitty decodes one by one).
    assert all(len(c[1]) % 4 == 0 for c in chunks[:-1])
    payload = b"".join(base64.b64decode(c[1]) for c in chunks)
    # A PNG (f=100) of the picture at the cells' pixels: 10x20 a cell here, at most as wide and
    # as high as the cells it is placed over (c, r).
    assert first[b"f"] == b"100" and payload[:8] == b"\x89PNG\r\n\x1a\n", first
    width, height = struct.unpack(">II", payload[16:24])
    assert 0 < width <= int(first[b"c"]) * 10 and 0 < height <= int(first[b"r"]) * 20, (width, height, first)
    # Placed where the viewer's room begins: the cursor was saved and moved (CUP) before.
    assert re.search(rb"\x1b7\x1b\[\d+;\d+H\x1b_Ga=p,i=" + first[b"i"] + rb",p=" + place[b"p"] + rb",", shown)
    # Esc: that placement deleted (its data kept for when it is shown again).
    assert b"\x1b_Ga=d,d=i,i=" + first[b"i"] + b",p=" + place[b"p"] + b",q=2\x1b\\" in after
    # Leaving: the picture deleted with its data.
    assert b"\x1b_Ga=d,d=I,i=" + first[b"i"] + b",q=2\x1b\\" in leaving, leaving[-300:]


def test_iterm_inline_image_bytes_from_a_pty(tmp_path):
    shown, after, _ = viewer_bytes("iterm", tmp_path)
    m = re.search(rb"\x1b\]1337;File=([^:]*):([A-Za-z0-9+/=]*)(\x07|\x1b\\)", shown)
    assert m, shown[:200]
    args = dict(kv.split(b"=", 1) for kv in m.group(1).split(b";"))
    assert args[b"inline"] == b"1" and int(args[b"width"]) > 0 and int(args[b"height"]) > 0
    data = base64.b64decode(m.group(2))
    # A picture file iTerm2 reads, made by Linnet: a JPEG of the opaque photo, its size said.
    assert data[:3] == b"\xff\xd8\xff" and int(args[b"size"]) == len(data) > 1000
    # Esc: the cells under it are written again (iTerm2 keeps no picture apart from the text).
    assert re.search(rb"\x1b7\x1b\[\d+;\d+H", after)
