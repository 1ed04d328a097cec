"""The layout of wide clusters in real emulators, compared cell by cell with the terminal's own.

The terminal defines where each cluster goes: the expected layout is the line written plainly
(`cat`) by the same terminal, with the same font, so every cluster advances the cursor as that
terminal advances it. The demo then shows the same line as a post's text, and the screenshot of
that row must match the terminal's own, cell by cell: a cell inked in one and blank in the
other, or inked differently, is a cluster Linnet measured otherwise (a gap after it, or text
drawn over it). The clusters are the kinds terminals disagree on: a ZWJ sequence, a flag, VS-16
and VS-15 forms, a keycap and a skin tone."""
import subprocess
import time
import urllib.parse
import urllib.request

import pytest

from conftest import LINNET, SUMMARY
from test_real_terminals import Display, answers, cell_colours, demo_env, free_port, stop, wait_for

# As the demo's Mentions pane shows a mention's text (the handle it is sent to first).
LINE = "@linnet_demo Widths: A\U0001F9D1\u200D\U0001F680B\U0001F1EF\U0001F1F5C\u2764\uFE0FD\u231A\uFE0EE1\uFE0F\u20E3F\U0001F44D\U0001F3FDG."
# Where the text starts: the top card's text line (row 2) after its two-cell gutter, 0-based.
ROW, COLUMN = 2, 2
COLUMNS = 60


def row_inks(png, cell, row, first, count):
    """Each cell of a screenshot's row: how many of its pixels differ from the cell's commonest
    (its background), which is the glyph's ink whatever the colours."""
    return [cell[0] * cell[1] - max(counts.values()) for counts in cell_colours(png, cell, [(c, row) for c in range(first, first + count)])]


def same_layout(expected, shown):
    """Cells where one is blank and the other inked, or where the ink differs by more than
    anti-aliasing and weight (bold, colour) can explain."""
    return [i for i, (e, s) in enumerate(zip(expected, shown))
            if (e == 0) != (s == 0) or abs(e - s) > max(6, 0.4 * max(e, s))]


def layouts(terminal, tmp_path):
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = demo_env(tmp_path)
    reference = tmp_path / "line.txt"
    # Cursor hidden, screen cleared, the line written where the demo will show it.
    reference.write_bytes(b"\x1b[?25l\x1b[H\x1b[2J" + f"\x1b[{ROW + 1};{COLUMN + 1}H".encode() + LINE.encode())
    ready = tmp_path / "ready"
    said = tmp_path / "terminal.txt"
    script = (f"{LINNET} terminal > {said}; cat {reference}; touch {ready}; sleep 4; exec {LINNET} demo --port {port} "
              f"--tweets-per-minute 0 --state-dir {tmp_path / 'state'}")
    if terminal == "xterm":
        argv = ["xterm", "-ti", "vt340", "-class", "LinnetXterm", "-b", "0", "-bw", "0", "-geometry", "100x40+0+0", "-e", "sh",
                "-c", script]
    else:
        argv = ["kitty", "--class", "LinnetKitty", "-o", "window_padding_width=0", "-o", "remember_window_size=no", "-o", "initial_window_width=100c",
                "-o", "initial_window_height=40c", "-e", "sh", "-c", script]
    with Display() as d:
        term = subprocess.Popen(argv, env={**env, "DISPLAY": d.name, "LIBGL_ALWAYS_SOFTWARE": "1"},
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            wait_for(ready.exists, 30, f"{terminal} did not start")
            time.sleep(1.5)
            facts = dict(line.split(None, 1) for line in said.read_text().splitlines() if line and not line.startswith(" "))
            cell = tuple(int(v) for v in facts["cell"].split()[0].split("x"))
            shot = tmp_path / "expected.png"
            d.run("import", "-window", "root", str(shot))
            expected = row_inks(shot, cell, ROW, COLUMN, COLUMNS)
            wait_for(lambda: answers(base), 30, f"the demo in {terminal} did not start")
            time.sleep(1)
            query = urllib.parse.urlencode({"text": LINE.removeprefix("@linnet_demo "), "mention_demo": "1"})
            urllib.request.urlopen(urllib.request.Request(f"{base}/_sim/tweet?{query}", method="POST"), timeout=5)
            window = wait_for(lambda: d.run("xdotool", "search", "--class", "Linnet" + terminal.capitalize()).stdout.split(), 20,
                              f"no {terminal} window")[0]
            d.run("xdotool", "windowfocus", "--sync", window)
            shown = tmp_path / "shown.png"

            def drawn():
                d.run("xdotool", "key", "--delay", "150", "2", "g", "g")
                time.sleep(1.5)
                d.run("import", "-window", "root", str(shown))
                inks = row_inks(shown, cell, ROW, COLUMN, COLUMNS)
                # The post is on top when its words before the first cluster are.
                return inks if not same_layout(expected[:22], inks[:22]) else None

            shown_inks = wait_for(drawn, 40, f"the post did not come to the top in {terminal}")
        finally:
            stop(term)
    return facts, expected, shown_inks


@pytest.mark.parametrize("terminal", ["xterm", "kitty"])
def test_wide_clusters_sit_where_the_terminal_puts_them(terminal, tmp_path):
    facts, expected, shown = layouts(terminal, tmp_path)
    inked = sum(1 for e in expected if e)
    assert inked >= 25, f"the line was not drawn: {expected}"
    wrong = same_layout(expected, shown)
    SUMMARY.append(f"{terminal} layout (joins {facts.get('joined', '?')}): {len(expected)} cells of the post's line, "
                   f"{inked} inked, {len(wrong)} unlike the terminal's own")
    assert not wrong, f"cells {wrong} differ: the terminal {expected}, Linnet {shown}"
