"""The built `linnet` binary as a user runs it."""
import re
import subprocess

from conftest import LINNET


def run(*args):
    return subprocess.run([LINNET, *args], capture_output=True, text=True, timeout=30)


def test_version():
    """The version and the commit (`make release` passes it; other builds say unknown)."""
    r = run("--version")
    assert r.returncode == 0
    assert re.fullmatch(r"0\.1\.0 \(commit ([0-9a-f]{7,}|unknown)\)", r.stdout.strip()), r.stdout


def test_help_lists_commands():
    r = run("--help")
    assert r.returncode == 0
    assert "sim" in r.stdout and "terminal Twitter reader" in r.stdout


def test_sim_rejects_a_bad_fault_spec():
    r = run("sim", "--port", "0", "--fail", "nonsense")
    assert r.returncode != 0
    assert "--fail takes PATH=STATUS" in r.stderr


def test_sim_names_a_corrupt_state_file(tmp_path):
    state = tmp_path / "state.json"
    state.write_text("{ not json")
    r = run("sim", "--port", "0", "--state", str(state))
    assert r.returncode != 0
    assert str(state) in r.stderr and "not a Linnet simulator state" in r.stderr


def test_demo_refuses_options_that_do_not_apply_before_drawing():
    """The demo's own arguments are checked first, each refusal in words (exit 2, usage)."""
    for args, words in [(("--api-base", "http://127.0.0.1:1"), "runs its own simulator"),
                        (("--api", "v3"), "must be v2 or v1.1"),
                        (("--tier", "free"), "self-serve, basic, pro, enterprise")]:
        r = subprocess.run([LINNET, "demo", *args], stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=30)
        assert r.returncode == 2 and words in r.stderr, (args, r.stderr)


def test_demo_help_names_every_option_in_its_usage():
    """The usage line of `linnet demo --help` names the options it takes, --api and --theme too."""
    r = subprocess.run([LINNET, "demo", "--help"], stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=30)
    assert r.returncode == 0
    usage = r.stdout.split("USAGE:")[1].split("OPTIONS:")[0]
    for option in ["--api", "--theme", "--tier", "--budget-per-day", "--poll-seconds", "--config"]:
        assert option in usage, (option, usage)
