"""What an installed linnet reads besides itself: built-in themes and the folders that override
them, and the sections of its man page made from the key map."""
import os
import subprocess
import sys

from conftest import LINNET

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_builtin_themes_are_the_theme_files():
    """BuiltinThemes.swift is exactly what Tools/builtin-themes.py makes of Themes/*.toml."""
    r = subprocess.run([sys.executable, os.path.join(ROOT, "Tools", "builtin-themes.py"), "--check"], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr


def test_themes_lists_each_with_where_it_comes_from(tmp_path):
    data = tmp_path / "share" / "linnet" / "themes"
    data.mkdir(parents=True)
    (data / "paper.toml").write_text('name = "paper"\n[styles]\ntext = { fg = "#000000" }\n')
    env = {"PATH": os.environ["PATH"], "HOME": str(tmp_path / "home"), "XDG_DATA_DIRS": str(tmp_path / "share")}
    r = subprocess.run([LINNET, "themes"], capture_output=True, text=True, env=env, timeout=30)
    assert r.returncode == 0, r.stderr
    rows = dict(line.split(None, 1) for line in r.stdout.splitlines())
    assert rows["paper"] == str(data / "paper.toml")
    for name in ("dark", "light", "mono", "solarized-dark"):
        assert rows[name] == "built in"
    assert r.stdout.splitlines()[0].startswith("dark ")
    # Run from elsewhere with no folders at all, the built-in themes still load.
    r = subprocess.run([LINNET, "config", "--theme", "solarized-dark"], capture_output=True, text=True,
                       env={**env, "XDG_DATA_DIRS": "/nonexistent"}, cwd="/", timeout=30)
    assert r.returncode == 0 and "cannot be used" not in r.stdout + r.stderr, r.stdout + r.stderr


def test_manual_sections_are_clean_mdoc_from_the_key_map():
    """groff (mandoc macros, all warnings) reads the keys, environment and files sections
    without a complaint, and every default key of the reader is in them."""
    r = subprocess.run([LINNET, "manual-sections"], capture_output=True, text=True, timeout=30)
    assert r.returncode == 0, r.stderr
    page = '.Dd November 25, 2026\n.Dt LINNET 1\n.Os\n.Sh NAME\n.Nm linnet\n.Nd "terminal reader"\n' + r.stdout
    g = subprocess.run(["groff", "-mandoc", "-ww", "-z"], input=page, capture_output=True, text=True, timeout=30)
    assert g.returncode == 0 and g.stderr == "", g.stderr
    text = subprocess.run(["groff", "-mandoc", "-Tutf8", "-P-c", "-P-b", "-P-u"], input=page, capture_output=True,
                          text=True, timeout=30).stdout
    for section in ("KEYS", "ENVIRONMENT", "FILES"):
        assert section in text
    for words in ("page-down", "ctrl-d", "next-pane", "LINNET_BEARER_TOKEN", "accounts.toml", "timelines.cache"):
        assert words in text, words
    # `linnet manual-sections` is for the build: not in the help.
    assert "manual-sections" not in subprocess.run([LINNET, "--help"], capture_output=True, text=True).stdout


def test_the_binary_imports_no_foundation_beyond_essentials():
    """The linnet binary links FoundationEssentials, not Foundation: Foundation brings ICU's code
    and data (the release binary was 62 MB with it, 20 MB without). Only the test support,
    fuzzing and the benchmarks, which are not in the binary, may import Foundation."""
    not_shipped = {"LinnetTestSupport", "FuzzHarnesses", "LinnetFuzz"}
    offenders = []
    for folder in os.listdir(os.path.join(ROOT, "Sources")):
        if folder in not_shipped:
            continue
        for dirpath, _, files in os.walk(os.path.join(ROOT, "Sources", folder)):
            for f in files:
                if f.endswith(".swift"):
                    path = os.path.join(dirpath, f)
                    with open(path, encoding="utf-8") as fh:
                        for line in fh:
                            words = line.split()
                            if words[-2:] == ["import", "Foundation"] or words[:2] == ["import", "Foundation"] and len(words) == 2:
                                offenders.append(os.path.relpath(path, ROOT))
    assert offenders == [], offenders
