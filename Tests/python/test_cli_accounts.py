"""`linnet` commands as real processes against the simulator: every login method, accounts,
post, timelines, search, api, and exit statuses."""
import json
import os
import re
import shlex
import stat
import subprocess
import urllib.parse
import urllib.request

import pytest

from conftest import LINNET, ground_truth, start_sim


def run(env, *args, stdin=None, timeout=30):
    return subprocess.run([LINNET, *args], env=env, input=stdin, capture_output=True, text=True, timeout=timeout)


@pytest.fixture
def home(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith("LINNET_")}
    env["XDG_CONFIG_HOME"] = str(tmp_path / "config")
    env["XDG_STATE_HOME"] = str(tmp_path / "state")
    env["XDG_CACHE_HOME"] = str(tmp_path / "cache")
    return env


def accounts_file(env):
    return os.path.join(env["XDG_CONFIG_HOME"], "linnet", "accounts.toml")


def login_tokens(env, sim, name=None, api="v1.1"):
    """An OAuth 1.0a account from pasted tokens; v1.1 unless `api` says otherwise (None: the default)."""
    args = ["login", "--tokens", *(["--api", api] if api else []), "--api-base", sim["base"], "--consumer-key", sim["consumer_key"],
            "--consumer-secret", sim["consumer_secret"], "--token", sim["access_token"], "--token-secret", sim["access_token_secret"]]
    if name:
        args += ["--name", name]
    return run(env, *args)


def authorize(sim, url):
    """Signs in on the simulator's authorize page as the demo user; returns the answer page."""
    token = urllib.parse.parse_qs(urllib.parse.urlparse(url).query)["oauth_token"][0]
    form = urllib.parse.urlencode({"oauth_token": token, "session[username_or_email]": sim["screen_name"],
                                   "session[password]": sim["password"]}).encode()
    with urllib.request.urlopen(sim["base"] + "/oauth/authorize", data=form, timeout=10) as r:
        return r.read().decode()


def printed_url(p):
    """The authorize URL a login prints on stderr."""
    for line in p.stderr:
        m = re.search(r"(http://\S+/oauth/authorize\?\S+)", line)
        if m:
            return m.group(1)
    raise AssertionError("no URL printed")


def test_no_account_is_explained(home):
    r = run(home, "timeline")
    assert r.returncode == 3
    assert "No account yet" in r.stderr and "linnet login" in r.stderr and "linnet demo" in r.stderr
    assert r.stdout == ""


def test_usage_errors_exit_2(home):
    assert run(home, "post").returncode == 2
    assert run(home, "timeline", "sideways").returncode == 2
    assert run(home, "--no-such-flag").returncode == 2


def test_login_with_tokens_saves_a_private_file(home, sim):
    r = login_tokens(home, sim)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "Logged in as @linnet_demo."
    path = accounts_file(home)
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert stat.S_IMODE(os.stat(os.path.dirname(path)).st_mode) == 0o700
    text = open(path).read()
    assert 'active = "linnet_demo"' in text
    assert f'user_id = "{sim["user_id"]}"' in text
    # Secrets are in the file, never on the screen.
    assert sim["access_token_secret"] in text
    assert sim["access_token_secret"] not in r.stdout + r.stderr
    listed = run(home, "accounts")
    assert listed.returncode == 0 and listed.stdout.startswith("* linnet_demo  @linnet_demo")


def test_loose_permissions_are_refused(home, sim):
    login_tokens(home, sim)
    os.chmod(accounts_file(home), 0o644)
    r = run(home, "timeline")
    assert r.returncode == 3
    assert "chmod 600" in r.stderr and "can be read by other users" in r.stderr


def test_broken_accounts_file_names_its_line(home, sim):
    login_tokens(home, sim)
    with open(accounts_file(home), "a") as f:
        f.write("broken = \n")
    r = run(home, "timeline")
    assert r.returncode == 3
    assert re.search(r"accounts\.toml:\d+:", r.stderr), r.stderr


def test_timelines_in_both_formats(home, sim):
    login_tokens(home, sim)
    r = run(home, "timeline", "home", "--count", "5", "--api-json")
    assert r.returncode == 0, r.stderr
    rows = [json.loads(line) for line in r.stdout.splitlines()]
    assert [int(t["id_str"]) for t in rows] == ground_truth(sim, "home")[:5]
    for t in rows:
        assert {"id_str", "created_at", "user", "full_text", "in_reply_to_status_id_str"} <= set(t)
        assert t["user"]["screen_name"]
    r = run(home, "timeline", "home", "--count", "5", "--json")
    assert r.returncode == 0, r.stderr
    mine = [json.loads(line) for line in r.stdout.splitlines()]
    assert [int(t["id"]) for t in mine] == ground_truth(sim, "home")[:5]
    for t in mine:
        assert {"id", "url", "created_at", "author", "likes", "retweets"} <= set(t)
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", t["created_at"])
        assert "text" in t or "retweet_of" in t
    plain = run(home, "timeline", "mentions", "--count", "3")
    assert plain.returncode == 0 and plain.stdout.count("@") >= 3
    user = run(home, "timeline", "user", "linnet_demo", "--json", "--count", "2")
    assert user.returncode == 0
    assert all(json.loads(l)["author"]["screen_name"] == "linnet_demo" for l in user.stdout.splitlines())


def test_search_in_both_formats(home, sim):
    login_tokens(home, sim)
    r = run(home, "search", "linnet", "--count", "4", "--json")
    assert r.returncode == 0, r.stderr
    rows = [json.loads(line) for line in r.stdout.splitlines()]
    assert 0 < len(rows) <= 4 and all("linnet" in json.dumps(t).lower() for t in rows)
    assert run(home, "search", "linnet", "--count", "2").stdout.strip()


def test_post_dry_run_reply_and_limits(home, sim):
    login_tokens(home, sim)
    dry = run(home, "post", "--dry-run", "see https://example.com 漢字")
    assert dry.returncode == 0 and dry.stdout.strip() == "weighted length 32, 248 remaining"
    long = run(home, "post", "x" * 281)
    assert long.returncode == 1 and "Too long by 1" in long.stderr
    target = ground_truth(sim, "home")[0]
    r = run(home, "post", "-", "--reply-to", str(target), stdin="a reply from stdin\n")
    assert r.returncode == 0, r.stderr
    new_id = int(re.search(r"Posted (\d+)", r.stdout).group(1))
    assert ground_truth(sim, "user")[0] == new_id
    shown = run(home, "api", "GET", "statuses/show", f"id={new_id}")
    assert shown.returncode == 0
    assert json.loads(shown.stdout)["in_reply_to_status_id_str"] == str(target)
    assert run(home, "api", "POST", "statuses/destroy/%d" % new_id).returncode == 0
    missing = run(home, "api", "GET", "statuses/show", "id=1")
    assert missing.returncode == 1 and "144" in missing.stderr


def test_rate_limited_exits_4(home, sim):
    login_tokens(home, sim)
    plan = json.dumps({"statusFaults": [{"path": "/1.1/statuses/home_timeline", "status": 429, "count": 1}]}).encode()
    urllib.request.urlopen(urllib.request.Request(sim["base"] + "/_sim/faults", data=plan, headers={"Content-Type": "application/json"}))
    r = run(home, "timeline")
    assert r.returncode == 4 and "88" in r.stderr


def test_environment_stands_in_for_the_file(home, sim):
    env = dict(home, LINNET_CONSUMER_KEY=sim["consumer_key"], LINNET_CONSUMER_SECRET=sim["consumer_secret"],
               LINNET_ACCESS_TOKEN=sim["access_token"], LINNET_ACCESS_TOKEN_SECRET=sim["access_token_secret"])
    r = run(env, "--api-base", sim["base"], "timeline", "--count", "1", "--json")
    assert r.returncode == 0, r.stderr
    assert not os.path.exists(accounts_file(home))


def test_login_with_a_pin(home, sim):
    p = subprocess.Popen([LINNET, "login", "--pin", "--api-base", sim["base"], "--consumer-key", sim["consumer_key"],
                          "--consumer-secret", sim["consumer_secret"]], env=home, stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    url = printed_url(p)
    page = authorize(sim, url)
    pin = re.search(r"\b(\d{7})\b", page).group(1)
    out, err = p.communicate(pin + "\n", timeout=30)
    assert p.returncode == 0, err
    assert out.strip() == "Logged in as @linnet_demo."


def test_login_in_a_browser(home, sim):
    p = subprocess.Popen([LINNET, "login", "--browser", "--timeout", "20", "--api-base", sim["base"], "--consumer-key",
                          sim["consumer_key"], "--consumer-secret", sim["consumer_secret"], "--name", "viabrowser"],
                         env=home, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    url = printed_url(p)
    # The simulator redirects to Linnet's loopback listener; following it completes the login.
    authorize(sim, url)
    out, err = p.communicate(timeout=30)
    assert p.returncode == 0, err
    assert "Logged in as @linnet_demo." in out
    assert "* viabrowser" in run(home, "accounts").stdout


def test_login_with_xauth_drops_the_password(home, sim):
    r = run(home, "login", "--xauth", "--api-base", sim["base"], "--consumer-key", sim["xauth_consumer_key"],
            "--consumer-secret", sim["xauth_consumer_secret"], "--username", sim["screen_name"], stdin=sim["password"] + "\n")
    assert r.returncode == 0, r.stderr
    assert sim["password"] not in open(accounts_file(home)).read()
    refused = run(home, "login", "--xauth", "--api-base", sim["base"], "--consumer-key", sim["consumer_key"],
                  "--consumer-secret", sim["consumer_secret"], "--username", sim["screen_name"], stdin=sim["password"] + "\n")
    assert refused.returncode != 0 and "87" in refused.stderr


def test_app_only_reads_search_but_not_home(home, sim):
    r = run(home, "login", "--app-only", "--api", "v1.1", "--api-base", sim["base"], "--consumer-key", sim["consumer_key"],
            "--consumer-secret", sim["consumer_secret"])
    assert r.returncode == 0, r.stderr
    assert run(home, "search", "linnet", "--json", "--count", "1").returncode == 0
    denied = run(home, "timeline", "home")
    assert denied.returncode == 3
    # A user account next to it: `api --app-only` still signs with the bearer token.
    login_tokens(home, sim)
    r = run(home, "api", "--app-only", "GET", "search/tweets", "q=linnet", "count=1")
    assert r.returncode == 0 and "statuses" in json.loads(r.stdout)
    assert run(home, "api", "--app-only", "GET", "statuses/home_timeline").returncode == 3


def test_accounts_use_and_remove(home, sim):
    login_tokens(home, sim, name="one")
    login_tokens(home, sim, name="two")
    assert "* two" in run(home, "accounts").stdout
    assert run(home, "accounts", "use", "one").returncode == 0
    assert "* one" in run(home, "accounts").stdout
    assert run(home, "accounts", "remove", "one").returncode == 0
    listed = run(home, "accounts").stdout
    assert "one" not in listed and "* two" in listed
    assert run(home, "accounts", "use", "nobody").returncode == 3
    assert run(home, "--account", "two", "timeline", "--count", "1").returncode == 0


def test_config_prints_effective_settings_and_names_bad_lines(home, tmp_path):
    r = run(home, "config")
    assert r.returncode == 0 and 'theme = "auto"' in r.stdout and "[keys.timeline]" in r.stdout
    cfg = tmp_path / "config.toml"
    cfg.write_text('theme = "light"\n[keys.timeline]\n"ctrl-n" = "down"\n')
    r = run(home, "--config", str(cfg), "config")
    assert r.returncode == 0 and 'theme = "light"' in r.stdout and '"ctrl-n" = "down"' in r.stdout
    cfg.write_text('theme = "light"\n\nbell_on_mention = 7\n')
    r = run(home, "--config", str(cfg), "config")
    assert r.returncode == 1
    assert f"{cfg}:3: bell_on_mention must be true or false" in r.stderr


TWURLRC = """---
profiles:
  {user}:
    {ck}:
      username: {user}
      consumer_key: {ck}
      consumer_secret: {cs}
      token: {t}
      secret: {ts}
configuration:
  default_profile:
  - {user}
  - {ck}
"""


def test_import_from_twurl_and_t(home, sim, tmp_path):
    fake_home = tmp_path / "home"
    fake_home.mkdir()
    (fake_home / ".twurlrc").write_text(TWURLRC.format(user="linnet_demo", ck=sim["consumer_key"], cs=sim["consumer_secret"],
                                                       t=sim["access_token"], ts=sim["access_token_secret"]))
    (fake_home / ".trc").write_text(TWURLRC.format(user="other", ck="k2", cs="s2", t="t2", ts="ts2"))
    env = dict(home, HOME=str(fake_home))
    offered = run(env, "timeline")
    assert offered.returncode == 3 and "linnet accounts import" in offered.stderr and ".twurlrc" in offered.stderr
    r = run(env, "accounts", "import")
    assert r.returncode == 0, r.stderr
    assert "linnet_demo" in r.stdout and "other" in r.stdout
    assert stat.S_IMODE(os.stat(accounts_file(env)).st_mode) == 0o600
    assert "* linnet_demo" in run(env, "accounts").stdout
    assert run(env, "--api-base", sim["base"], "timeline", "--count", "1", "--json").returncode == 0
    again = run(env, "accounts", "import")
    assert again.returncode == 0 and again.stdout.startswith("Nothing new")
    bad = tmp_path / "bad.yml"
    bad.write_text("profiles: [unclosed\n")
    assert run(env, "accounts", "import", str(bad)).returncode == 1


@pytest.mark.parametrize("shell,marker", [("bash", "complete"), ("zsh", "#compdef linnet"), ("fish", "complete -c 'linnet'")])
def test_completion_scripts(home, shell, marker):
    r = run(home, "--generate-completion-script", shell)
    assert r.returncode == 0 and marker in r.stdout and "login" in r.stdout


def test_trace_shows_requests_but_no_secrets(home, sim):
    login_tokens(home, sim)
    r = run(home, "--trace", "timeline", "--count", "1")
    assert r.returncode == 0, r.stderr
    assert "trace: " in r.stderr and "home_timeline" in r.stderr
    for secret in (sim["consumer_secret"], sim["access_token_secret"], sim["access_token"]):
        assert secret not in r.stderr and secret not in r.stdout


def test_api_v2_for_timelines_search_and_post(home, sim):
    """The same commands through X API v2, chosen with LINNET_API or --api."""
    env = dict(home, LINNET_CONSUMER_KEY=sim["consumer_key"], LINNET_CONSUMER_SECRET=sim["consumer_secret"],
               LINNET_ACCESS_TOKEN=sim["access_token"], LINNET_ACCESS_TOKEN_SECRET=sim["access_token_secret"], LINNET_API="v2")
    r = run(env, "--api-base", sim["base"], "timeline", "home", "--count", "5", "--api-json")
    assert r.returncode == 0, r.stderr
    posts = [json.loads(line) for line in r.stdout.splitlines()]
    assert [int(p["id"]) for p in posts] == ground_truth(sim, "home")[:5]
    assert all("edit_history_tweet_ids" in p and isinstance(p["id"], str) for p in posts), "v2 objects, as the API gave them"
    # --json is Linnet's own form: the same fields and values whichever API fed it.
    v2 = run(env, "--api-base", sim["base"], "timeline", "home", "--count", "5", "--json")
    v1 = run(env, "--api-base", sim["base"], "--api", "v1.1", "timeline", "home", "--count", "5", "--json")
    assert v2.returncode == 0 and v1.returncode == 0, v2.stderr + v1.stderr
    for a, b in zip(v2.stdout.splitlines(), v1.stdout.splitlines(), strict=True):
        a, b = json.loads(a), json.loads(b)
        for post in (a, b, a.get("retweet_of", {}), b.get("retweet_of", {})):
            post.pop("liked", None), post.pop("retweeted", None)  # v2 timelines carry no per-user flags
        assert a == b, (a, b)
    r = run(env, "--api-base", sim["base"], "--trace", "timeline", "mentions", "--count", "5")
    assert r.returncode == 0 and "@" in r.stdout, r.stderr
    assert "/2/users/me" not in r.stderr, "the token names its user: no billed lookup of who we are"
    r = run(env, "--api-base", sim["base"], "post", "posted with --api v2")
    assert r.returncode == 0, r.stderr
    posted = int(re.search(r"Posted (\d+)", r.stdout).group(1))
    assert ground_truth(sim, "home")[0] == posted
    r = run(env, "--api-base", sim["base"], "--api", "v1.1", "timeline", "home", "--count", "1", "--api-json")
    assert r.returncode == 0 and json.loads(r.stdout)["id_str"] == str(posted), "--api overrides LINNET_API"
    r = run(env, "--api-base", sim["base"], "--api", "v3", "timeline")
    assert r.returncode == 2 and "v2 or v1.1" in r.stderr


def test_self_serve_v1_says_to_use_v2(home, tmp_path):
    """v2 is the default: a self-serve key reads with nothing said; v1.1, asked for, answers 453
    and the words point to --api v2. `--count` prints exactly that many, asking each operation
    for no fewer than the contract's minimum."""
    proc, base = start_sim("--tier", "self-serve")
    try:
        creds = json.load(urllib.request.urlopen(base + "/_sim/credentials"))
        env = dict(home, LINNET_CONSUMER_KEY=creds["consumer_key"], LINNET_CONSUMER_SECRET=creds["consumer_secret"],
                   LINNET_ACCESS_TOKEN=creds["access_token"], LINNET_ACCESS_TOKEN_SECRET=creds["access_token_secret"])
        r = run(env, "--api-base", base, "--trace", "timeline", "--count", "1", "--json")
        assert r.returncode == 0, r.stderr
        assert len(r.stdout.splitlines()) == 1 and "/2/users/" in r.stderr and "max_results=1&" in r.stderr, r.stderr
        r = run(env, "--api-base", base, "--trace", "timeline", "mentions", "--count", "1", "--json")
        assert r.returncode == 0 and len(r.stdout.splitlines()) == 1, r.stderr
        assert "max_results=5&" in r.stderr, "the contract's least for mentions"
        r = run(env, "--api-base", base, "--api", "v1.1", "timeline")
        assert r.returncode != 0 and "453" in r.stderr and "--api v2" in r.stderr, r.stderr
        assert "else v2" in run(env, "--help").stdout
        assert "/2/users/me" in run(env, "api", "--help").stdout
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_login_default_points_consumer_keys_to_pin(home, sim):
    """OAuth 2.0 is the default; someone with only OAuth 1.0a consumer keys is told about --pin,
    and nothing is saved."""
    env = dict(home, LINNET_CONSUMER_KEY=sim["consumer_key"], LINNET_CONSUMER_SECRET=sim["consumer_secret"])
    r = run(env, "login", "--headless", "--api-base", sim["base"], stdin="")
    assert r.returncode == 2, r.stderr
    assert "Client ID (OAuth 2.0; for consumer keys: linnet login --pin)" in r.stderr and "client id is needed" in r.stderr
    assert not os.path.exists(accounts_file(home))


def oauth2_login(home, sim):
    """`linnet login --headless` through the simulator's consent page; returns (out, err)."""
    import requests
    p = subprocess.Popen([LINNET, "login", "--headless", "--api-base", sim["base"],
                          "--client-id", sim["oauth2_client_id"]], env=home, stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    url = None
    for line in p.stderr:
        m = re.search(r"(http://\S+/i/oauth2/authorize\?\S+)", line)
        if m:
            url = m.group(1)
            break
    assert url, "no URL printed"
    page = requests.get(url)
    request_id = re.search(r'name="request" value="([^"]+)"', page.text).group(1)
    answer = requests.post(sim["base"] + "/i/oauth2/authorize", allow_redirects=False, data={
        "request": request_id, "session[username_or_email]": sim["screen_name"], "session[password]": sim["password"],
        "allow": "Authorize app"})
    out, err = p.communicate(answer.headers["Location"] + "\n", timeout=30)
    assert p.returncode == 0, err
    return out, err


def test_oauth2_login_headless_then_reading_survives_expiry(home, sim):
    """`linnet login --headless` (OAuth 2.0, the default): the URL printed, the redirected address pasted back;
    the account keeps a refresh token (0600); reading renews the access token once it expired
    and writes the new pair back."""
    out, err = oauth2_login(home, sim)
    assert out.strip() == "Logged in as @linnet_demo (X API v2, OAuth 2.0)."
    path = accounts_file(home)
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    text = open(path).read()
    assert 'api = "v2"' in text and "refresh_token" in text and "expires_at" in text
    first_refresh = re.search(r'refresh_token = "([^"]+)"', text).group(1)
    r = run(home, "timeline", "--count", "3")
    assert r.returncode == 0 and "@" in r.stdout, r.stderr
    # Two hours later the access token has expired: reading renews it and saves the new pair.
    urllib.request.urlopen(urllib.request.Request(sim["base"] + "/_sim/clock", data=b"offset=7300"))
    with open(path) as f:
        text = f.read()
    text = re.sub(r"expires_at = \d+", "expires_at = 1", text)  # as it would read two hours on
    with open(path, "w") as f:
        f.write(text)
    r = run(home, "timeline", "--count", "3")
    assert r.returncode == 0 and "@" in r.stdout, r.stderr
    renewed = re.search(r'refresh_token = "([^"]+)"', open(path).read()).group(1)
    assert renewed != first_refresh
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    urllib.request.urlopen(urllib.request.Request(sim["base"] + "/_sim/clock", data=b"offset=0"))


def test_usage_counts_what_the_simulator_bills(home):
    """Every v2 command reports what X bills to the account's ledger on disk; `linnet usage`
    reads it back (no network call) and agrees with the simulator's own count."""
    proc, base = start_sim()
    try:
        creds = json.load(urllib.request.urlopen(base + "/_sim/credentials"))
        env = dict(home, LINNET_CONSUMER_KEY=creds["consumer_key"], LINNET_CONSUMER_SECRET=creds["consumer_secret"],
                   LINNET_ACCESS_TOKEN=creds["access_token"], LINNET_ACCESS_TOKEN_SECRET=creds["access_token_secret"],
                   LINNET_API="v2")
        for args in (("timeline", "home", "--count", "5"), ("timeline", "mentions", "--count", "5", "--json"),
                     ("timeline", "home", "--count", "5"), ("post", "a post with a link: linnet.dev/usage"),
                     ("api", "GET", "/2/users/me")):
            r = run(env, "--api-base", base, *args)
            assert r.returncode == 0, (args, r.stderr)
        billed = json.load(urllib.request.urlopen(base + "/_sim/usage"))
        r = run(env, "usage", "--json")
        assert r.returncode == 0, r.stderr
        mine = json.loads(r.stdout)
        today = mine["today"]
        assert (today["post_read"], today["owned_read"], today["user_read"], today["post_create_with_url"]) == (
            billed["post_reads"], billed["owned_reads"], billed["user_reads"], billed["posts_created_with_url"]), (mine, billed)
        assert today["owned_read"] > 0 and today["post_create_with_url"] == 1
        assert abs(float(today["cost_usd"]) - billed["cost_usd"]) < 0.001
        assert mine["this_month"]["post_read"] >= today["post_read"] and mine["budget_per_day"] is None
        ledger = os.path.join(home["XDG_STATE_HOME"], "linnet", "id-" + creds["user_id"], "usage.json")
        assert stat.S_IMODE(os.stat(ledger).st_mode) == 0o600

        # Prices and the budget come from config.toml.
        os.makedirs(os.path.join(home["XDG_CONFIG_HOME"], "linnet"), exist_ok=True)
        with open(os.path.join(home["XDG_CONFIG_HOME"], "linnet", "config.toml"), "w") as f:
            f.write("budget_per_day = 0.05\n[prices]\npost_read = 0.01\n")
        r = run(env, "usage")
        assert r.returncode == 0, r.stderr
        assert "estimate" in r.stdout and "Budget per day: $0.05" in r.stdout and "polling is stopped" in r.stdout
        assert re.search(r"posts read\s+%d\s" % today["post_read"], r.stdout), r.stdout
        assert creds["access_token"] not in r.stdout + r.stderr
        # Past the budget a read is not sent: said in words, counted as refused, billed nothing.
        before = json.load(urllib.request.urlopen(base + "/_sim/usage"))
        r = run(env, "--api-base", base, "timeline", "home", "--count", "5")
        assert r.returncode != 0 and "Not sent" in r.stderr and "budget" in r.stderr, (r.returncode, r.stderr)
        assert json.load(urllib.request.urlopen(base + "/_sim/usage"))["post_reads"] == before["post_reads"]
        r = run(env, "usage", "--json")
        assert json.loads(r.stdout)["today"]["refused_calls"] >= 1, r.stdout
        assert "Not sent today: 1 call" in run(env, "usage").stdout
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_oauth2_secrets_kept_by_commands(home, sim, tmp_path):
    """The refresh token can live outside accounts.toml: read by refresh_token_command, and each
    rotated one handed to refresh_token_save_command before it is used."""
    oauth2_login(home, sim)
    path = accounts_file(home)
    text = open(path).read()
    token = re.search(r'refresh_token = "([^"]+)"', text).group(1)
    kept = tmp_path / "refresh"
    kept.write_text(token + "\n")
    os.chmod(kept, 0o600)
    text = re.sub(r'refresh_token = "[^"]+"\n', "", text)
    text = re.sub(r"expires_at = \d+", "expires_at = 1", text)  # due for renewal
    with open(path, "w") as f:
        f.write(text + f'refresh_token_command = "cat {kept}"\n')
    r = run(home, "timeline", "--count", "1")
    assert r.returncode == 3 and "refresh_token_save_command" in r.stderr, r.stderr
    with open(path, "w") as f:
        f.write(text + f'refresh_token_command = "cat {kept}"\nrefresh_token_save_command = "cat > {kept}"\n')
    r = run(home, "timeline", "--count", "1")
    assert r.returncode == 0 and "@" in r.stdout, r.stderr
    renewed = kept.read_text().strip()
    assert renewed and renewed != token, "the rotated refresh token reached the save command"
    after = open(path).read()
    assert "refresh_token =" not in after and renewed not in after and "refresh_token_save_command" in after
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    # A save command that fails: the read still works this once, and the error says the new token was not kept.
    with open(path, "w") as f:
        f.write(re.sub(r"expires_at = \d+", "expires_at = 1", after).replace(f"cat > {kept}", "false"))
    r = run(home, "timeline", "--count", "1")
    assert "refresh_token_save_command" in r.stderr and "not kept" in r.stderr, r.stderr
    assert renewed not in r.stderr and token not in r.stderr


def test_post_with_media_and_alt_text(home, sim, tmp_path):
    """`linnet post --media FILE --alt TEXT` on both APIs: the files go up first, the post
    carries them with their alt text; a file that is not media is refused before anything is sent."""
    photo = tmp_path / "linnet.png"
    photo.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 3000)  # larger than one segment
    env = dict(home, LINNET_CONSUMER_KEY=sim["consumer_key"], LINNET_CONSUMER_SECRET=sim["consumer_secret"],
               LINNET_ACCESS_TOKEN=sim["access_token"], LINNET_ACCESS_TOKEN_SECRET=sim["access_token_secret"])
    for api in ("v2", "v1.1"):
        r = run(env, "--api-base", sim["base"], "--api", api, "post", f"a photo via {api}",
                "--media", str(photo), "--alt", f"a linnet, seen through {api}")
        assert r.returncode == 0 and "with 1 file" in r.stdout, r.stderr
        posted = re.search(r"Posted (\d+)", r.stdout).group(1)
        r = run(env, "--api-base", sim["base"], "--api", "v2", "api", "GET", f"/2/tweets/{posted}",
                "expansions=attachments.media_keys", "tweet.fields=attachments", "media.fields=alt_text")
        assert r.returncode == 0, r.stderr
        answer = json.loads(r.stdout)
        assert len(answer["data"]["attachments"]["media_keys"]) == 1
        assert answer["includes"]["media"][0]["alt_text"] == f"a linnet, seen through {api}"
    words = tmp_path / "notes.txt"
    words.write_text("not a picture")
    r = run(env, "--api-base", sim["base"], "--api", "v2", "post", "never sent", "--media", str(words))
    assert r.returncode == 2 and "is not a photo" in r.stderr, r.stderr
    r = run(env, "--api-base", sim["base"], "--api", "v2", "post", "x", "--alt", "orphan")
    assert r.returncode == 2 and "more --alt texts than --media files" in r.stderr


def test_v2_user_timeline_reads_their_posts(home, sim):
    env = dict(home, LINNET_CONSUMER_KEY=sim["consumer_key"], LINNET_CONSUMER_SECRET=sim["consumer_secret"],
               LINNET_ACCESS_TOKEN=sim["access_token"], LINNET_ACCESS_TOKEN_SECRET=sim["access_token_secret"], LINNET_API="v2")
    r = run(env, "--api-base", sim["base"], "timeline", "user", "@ada", "--count", "5", "--json")
    assert r.returncode == 0, r.stderr
    rows = [json.loads(l) for l in r.stdout.splitlines()]
    with urllib.request.urlopen(f"{sim['base']}/_sim/timeline?name=user&user=ada") as f:
        truth = [int(i) for i in json.load(f)["ids"]]
    assert [int(t["id"]) for t in rows] == truth[:5]
    r = run(env, "--api-base", sim["base"], "timeline", "user", "nobody_by_that")
    assert r.returncode != 0 and "Could not find user with username" in r.stderr, r.stderr


def test_command_line_says_what_is_wrong(home, sim, tmp_path):
    """Small things a user of the command line hits, each in plain words with its exit status."""
    login_tokens(home, sim)
    login_tokens(home, sim, name="second")
    r = run(home, "accounts", "use", "nosuch")
    assert r.returncode == 3 and 'No account named "nosuch"' in r.stderr
    r = run(home, "accounts")
    lines = [l for l in r.stdout.splitlines() if l.strip()]
    assert len(lines) == 2 and len({l.index("@linnet_demo") for l in lines}) == 1, "aligned columns:\n" + r.stdout
    r = run(home, "--config", str(tmp_path / "missing.toml"), "config")
    assert r.returncode == 2 and "no such file" in r.stderr
    bad = tmp_path / "bad.toml"
    bad.write_text('theme = "no-such-theme"\n')
    r = run(home, "--config", str(bad), "config")
    assert r.returncode == 1 and 'theme "no-such-theme" cannot be used' in r.stderr and "dark" in r.stderr
    bad.write_text('theme = "dark\n')
    r = run(home, "--config", str(bad), "config")
    assert r.returncode == 1 and "bad.toml:1" in r.stderr and "string is not closed" in r.stderr, r.stderr
    r = run(home, "search", "zzzz-nothing-matches-this")
    assert r.returncode == 0 and r.stdout == "" and "no tweets found" in r.stderr
    env = dict(home, LINNET_BEARER_TOKEN="AAAA-app-token")
    r = run(env, "--api-base", sim["base"], "--trace", "post", "from an app")
    assert r.returncode == 3 and "read-only" in r.stderr and "POST" not in r.stderr, r.stderr


def test_sim_prints_the_line_to_sign_in(tmp_path):
    proc, base = start_sim()
    try:
        creds = json.load(urllib.request.urlopen(base + "/_sim/credentials"))
        proc.terminate()
        out = proc.stdout.read()  # the same buffered reader start_sim read the first line from
        proc.wait(timeout=10)
    finally:
        proc.kill()
    line = next(l.strip() for l in out.splitlines() if l.strip().startswith("linnet login --tokens"))
    assert f"--api-base {base}" in line and creds["access_token"] in line and creds["consumer_secret"] in line


def test_a_wrong_pin_or_password_is_named(home, sim):
    p = subprocess.Popen([LINNET, "login", "--pin", "--api-base", sim["base"], "--consumer-key", sim["consumer_key"],
                          "--consumer-secret", sim["consumer_secret"]], env=home, stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    url = printed_url(p)
    pin = re.search(r"\b(\d{7})\b", authorize(sim, url)).group(1)
    wrong = "0000000" if pin != "0000000" else "1111111"
    out, err = p.communicate(wrong + "\n" + pin + "\n", timeout=30)
    assert p.returncode == 0, err
    assert "That PIN was not accepted; type it again" in err
    assert out.strip() == "Logged in as @linnet_demo."
    r = run(home, "login", "--xauth", "--api-base", sim["base"], "--consumer-key", sim["xauth_consumer_key"],
            "--consumer-secret", sim["xauth_consumer_secret"], "--username", sim["screen_name"], stdin="not-the-password\n")
    assert r.returncode == 3 and "username or password was not accepted" in r.stderr and "consumer key" not in r.stderr, r.stderr
    assert "not-the-password" not in r.stderr + r.stdout


def bash_completes(env, *words):
    """What bash offers for `linnet WORDS<TAB>`: the generated script's own function, run as
    bash runs it (COMP_WORDS, COMP_CWORD, COMP_LINE, COMP_POINT; the command, the word and the
    word before as arguments), so the words Linnet is called with are the script's, not the test's."""
    script = run(env, "--generate-completion-script", "bash").stdout
    line = " ".join(("linnet",) + words)
    cur, prev = shlex.quote(words[-1]), shlex.quote((("linnet",) + words)[-2])
    program = (
        f'source /dev/stdin; COMP_WORDS=(linnet {" ".join(shlex.quote(w) for w in words)}); '
        f'COMP_CWORD={len(words)}; COMP_LINE={shlex.quote(line)}; COMP_POINT={len(line)}; '
        f'_linnet linnet {cur} {prev}; ' + 'printf "%s\\n" "${COMPREPLY[@]}"')
    path = os.path.dirname(os.path.abspath(LINNET)) + os.pathsep + env.get("PATH", os.defpath)
    r = subprocess.run(["bash", "-c", program], env=dict(env, PATH=path), input=script,
                       capture_output=True, text=True, timeout=30)
    assert r.returncode == 0, r.stderr
    return r.stdout.split()


def test_completions_know_kinds_accounts_and_themes(home, sim):
    """The shell completion scripts complete arguments too: timeline kinds, account names from
    accounts.toml, theme names; --help says how to install them."""
    login_tokens(home, sim, name="alpha")
    login_tokens(home, sim, name="beta")
    for shell in ("bash", "zsh", "fish"):
        r = run(home, "--generate-completion-script", shell)
        assert r.returncode == 0 and "mentions" in r.stdout and "---completion" in r.stdout, shell
    assert bash_completes(home, "accounts", "use", "") == ["alpha", "beta"]
    assert bash_completes(home, "accounts", "use", "al") == ["alpha"]
    assert "dark" in bash_completes(home, "--theme", "")
    assert "--generate-completion-script bash" in run(home, "--help").stdout
