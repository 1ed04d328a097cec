"""The simulator's v2 answers validated against X's OpenAPI contract (Tests/Fixtures/x-api-v2,
version 2.159), answer by answer, success and error, so the simulator cannot drift from what X
documents. Requests are signed with OAuth 1.0a user tokens (requests-oauthlib)."""
import json
import os

import pytest
import requests
from openapi_schema_validator import OAS30Validator
from requests_oauthlib import OAuth1

SPEC = json.load(open(os.path.join(os.path.dirname(__file__), "..", "Fixtures", "x-api-v2", "openapi.json")))
FIELDS = {
    # The expansions Linnet asks for, files of quoted and reposted posts included.
    "expansions": "author_id,referenced_tweets.id,referenced_tweets.id.author_id,in_reply_to_user_id,entities.mentions.username,"
                  "attachments.media_keys,referenced_tweets.id.attachments.media_keys",
    "media.fields": "media_key,type,url,preview_image_url,width,height,alt_text,duration_ms",
    "tweet.fields": "created_at,conversation_id,referenced_tweets,entities,public_metrics,reply_settings,edit_controls,lang,note_tweet,"
                    "possibly_sensitive,in_reply_to_user_id,author_id",
    "user.fields": "name,username,profile_image_url,verified,protected,description,public_metrics,created_at",
}


def validate(template, method, response):
    """Checks `response` against the contract's schema for its status and content type."""
    answers = SPEC["paths"][template][method]["responses"]
    declared = answers.get(str(response.status_code)) or answers["default"]
    kind = response.headers["Content-Type"].split(";")[0].strip()
    assert kind in declared["content"], f"{template} {method} {response.status_code}: {kind} not in {list(declared['content'])}"
    schema = dict(declared["content"][kind]["schema"])
    schema["components"] = SPEC["components"]
    errors = sorted(OAS30Validator(schema).iter_errors(response.json()), key=lambda e: list(e.path))
    assert not errors, f"{template} {method}: " + "; ".join(f"{list(e.path)}: {e.message[:200]}" for e in errors[:5])


@pytest.fixture(scope="module")
def session(sim):
    s = requests.Session()
    s.auth = OAuth1(sim["consumer_key"], sim["consumer_secret"], sim["access_token"], sim["access_token_secret"])
    return s


def test_reads_match_the_contract(sim, session):
    base, me = sim["base"], sim["user_id"]
    cases = [
        ("/2/users/me", f"/2/users/me", {"user.fields": FIELDS["user.fields"]}),
        ("/2/users/{id}/timelines/reverse_chronological", f"/2/users/{me}/timelines/reverse_chronological", FIELDS),
        ("/2/users/{id}/mentions", f"/2/users/{me}/mentions", FIELDS),
        ("/2/users/{id}/tweets", f"/2/users/{me}/tweets", FIELDS),
        ("/2/tweets/search/recent", "/2/tweets/search/recent", {"query": "the", **FIELDS}),
    ]
    files = 0
    for template, path, params in cases:
        r = session.get(base + path, params=params)
        assert r.status_code == 200, (path, r.text[:300])
        validate(template, "get", r)
        files += len(r.json().get("includes", {}).get("media", []))
    assert files > 0, "no answer carried files, so their objects went unchecked"
    home = session.get(base + f"/2/users/{me}/timelines/reverse_chronological", params={"max_results": 5}).json()
    ids = [t["id"] for t in home["data"]]
    r = session.get(base + f"/2/tweets/{ids[0]}", params=FIELDS)
    validate("/2/tweets/{id}", "get", r)
    r = session.get(base + "/2/tweets", params={"ids": ",".join(ids[:3] + ["1"]), **FIELDS})
    assert r.json()["errors"][0]["resource_id"] == "1"
    validate("/2/tweets", "get", r)


def test_lists_and_messages_match_the_contract(sim, session):
    base, me = sim["base"], sim["user_id"]
    owned = session.get(base + f"/2/users/{me}/owned_lists")
    validate("/2/users/{id}/owned_lists", "get", owned)
    validate("/2/users/{id}/followed_lists", "get", session.get(base + f"/2/users/{me}/followed_lists"))
    list_id = owned.json()["data"][0]["id"]
    validate("/2/lists/{id}/tweets", "get", session.get(base + f"/2/lists/{list_id}/tweets", params=FIELDS))
    inbox = session.get(base + "/2/dm_events", params={"expansions": "sender_id"})
    validate("/2/dm_events", "get", inbox)
    other = inbox.json()["data"][0]["sender_id"]
    sent = session.post(base + f"/2/dm_conversations/with/{other}/messages", json={"text": "checked against the contract"})
    assert sent.status_code == 201
    validate("/2/dm_conversations/with/{participant_id}/messages", "post", sent)
    validate("/2/dm_conversations/with/{participant_id}/dm_events", "get",
             session.get(base + f"/2/dm_conversations/with/{other}/dm_events"))


def test_writes_match_the_contract(sim, session):
    base, me = sim["base"], sim["user_id"]
    r = session.post(base + "/2/tweets", json={"text": "checked against the contract"})
    assert r.status_code == 201
    validate("/2/tweets", "post", r)
    new = r.json()["data"]["id"]
    first = session.get(base + f"/2/users/{me}/mentions", params={"tweet.fields": "author_id"}).json()["data"][0]
    target, author = first["id"], first["author_id"]
    for template, method, path, body in [
        ("/2/users/{id}/likes", "post", f"/2/users/{me}/likes", {"tweet_id": target}),
        ("/2/users/{id}/likes/{tweet_id}", "delete", f"/2/users/{me}/likes/{target}", None),
        ("/2/users/{id}/retweets", "post", f"/2/users/{me}/retweets", {"tweet_id": target}),
        ("/2/users/{id}/retweets/{source_tweet_id}", "delete", f"/2/users/{me}/retweets/{target}", None),
        ("/2/users/{id}/bookmarks", "post", f"/2/users/{me}/bookmarks", {"tweet_id": target}),
        ("/2/users/{id}/bookmarks/{tweet_id}", "delete", f"/2/users/{me}/bookmarks/{target}", None),
        ("/2/users/{id}/muting", "post", f"/2/users/{me}/muting", {"target_user_id": author}),
        ("/2/users/{source_user_id}/muting/{target_user_id}", "delete", f"/2/users/{me}/muting/{author}", None),
        ("/2/users/{source_user_id}/following/{target_user_id}", "delete", f"/2/users/{me}/following/{author}", None),
        ("/2/users/{id}/following", "post", f"/2/users/{me}/following", {"target_user_id": author}),
        ("/2/tweets/{id}", "delete", f"/2/tweets/{new}", None),
    ]:
        r = session.request(method.upper(), base + path, json=body)
        assert r.status_code == 200, (path, r.text[:300])
        validate(template, method, r)
    r = session.get(base + f"/2/users/{me}/bookmarks", params=FIELDS)
    validate("/2/users/{id}/bookmarks", "get", r)


def test_errors_match_the_contract(sim, session):
    base, me = sim["base"], sim["user_id"]
    r = session.get(base + f"/2/users/{me}/timelines/reverse_chronological", params={"max_results": 500})
    assert r.status_code == 400
    validate("/2/users/{id}/timelines/reverse_chronological", "get", r)
    r = requests.get(base + "/2/users/me", headers={"Authorization": "Bearer not-a-token"})
    assert r.status_code == 401
    validate("/2/users/me", "get", r)
    r = session.delete(base + "/2/tweets/1")
    assert r.status_code == 404
    validate("/2/tweets/{id}", "delete", r)


def test_stream_rules_match_the_contract(sim):
    import base64
    base = sim["base"]
    basic = base64.b64encode(f"{sim['consumer_key']}:{sim['consumer_secret']}".encode()).decode()
    token = requests.post(base + "/oauth2/token", data={"grant_type": "client_credentials"},
                          headers={"Authorization": "Basic " + basic}).json()["access_token"]
    app = requests.Session()
    app.headers["Authorization"] = "Bearer " + token
    r = app.post(base + "/2/tweets/search/stream/rules", json={"add": [{"value": "contract check", "tag": "linnet:test"}]})
    assert r.status_code == 200
    validate("/2/tweets/search/stream/rules", "post", r)
    listed = app.get(base + "/2/tweets/search/stream/rules")
    validate("/2/tweets/search/stream/rules", "get", listed)
    ids = [x["id"] for x in listed.json()["data"] if x["tag"] == "linnet:test"]
    r = app.post(base + "/2/tweets/search/stream/rules", json={"delete": {"ids": ids}})
    validate("/2/tweets/search/stream/rules", "post", r)


def test_media_upload_matches_the_contract(sim, session):
    import base64
    base = sim["base"]
    small = base64.b64encode(b"\x89PNG" + bytes(2000)).decode()
    r = session.post(base + "/2/media/upload", json={"media": small, "media_category": "tweet_image", "media_type": "image/png"})
    assert r.status_code == 200, r.text[:300]
    validate("/2/media/upload", "post", r)
    r = session.post(base + "/2/media/upload/initialize", json={"media_type": "video/mp4", "total_bytes": 3000, "media_category": "tweet_video"})
    validate("/2/media/upload/initialize", "post", r)
    media = r.json()["data"]["id"]
    r = session.post(base + f"/2/media/upload/{media}/append", json={"media": base64.b64encode(bytes(3000)).decode(), "segment_index": 0})
    validate("/2/media/upload/{id}/append", "post", r)
    r = session.post(base + f"/2/media/upload/{media}/finalize", json={})
    validate("/2/media/upload/{id}/finalize", "post", r)


def test_the_simulator_checks_come_from_the_contract():
    """Sources/TwitterSimulator/ContractTable/ is exactly what Tools/contract-table.py derives from
    openapi.json, so a change to the contract (or a hand edit) cannot leave the simulator's checks
    behind."""
    import subprocess
    import sys
    root = os.path.join(os.path.dirname(__file__), "..", "..")
    r = subprocess.run([sys.executable, os.path.join(root, "Tools", "contract-table.py"), "--check"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr or r.stdout


def test_invalid_requests_get_the_contracts_problem(sim, session):
    """A request the contract rules out is answered 400 with the InvalidRequestProblem schema."""
    me = session.get(f"{sim['base']}/2/users/me").json()["data"]["id"]
    template = "/2/users/{id}/timelines/reverse_chronological"
    for query in ("tweet.fields=foo", "nonsense=1", "max_results=1000", "expansions=nonsense"):
        r = session.get(f"{sim['base']}/2/users/{me}/timelines/reverse_chronological?{query}")
        assert r.status_code == 400, query
        validate(template, "get", r)
        schema = {"$ref": "#/components/schemas/InvalidRequestProblem", "components": SPEC["components"]}
        assert not list(OAS30Validator(schema).iter_errors(r.json())), r.text
        assert query.split("=")[0] in r.json()["errors"][0]["parameters"], r.text


def test_every_page_of_home_with_media_matches_the_contract(sim, session):
    """The whole home timeline, paged, with media and polls expanded: every media key of the
    contract's form, every poll of its Poll schema."""
    base, me = sim["base"], sim["user_id"]
    params = {"max_results": 100, "expansions": "attachments.media_keys,author_id,attachments.poll_ids",
              "media.fields": "media_key,type,width,height,alt_text,url", "tweet.fields": "attachments,created_at",
              "poll.fields": "duration_minutes,end_datetime,options,voting_status"}
    keys, pages, polls = 0, 0, 0
    while True:
        r = session.get(base + f"/2/users/{me}/timelines/reverse_chronological", params=params)
        assert r.status_code == 200, r.text[:300]
        validate("/2/users/{id}/timelines/reverse_chronological", "get", r)
        body = r.json()
        keys += len(body.get("includes", {}).get("media", []))
        polls += len(body.get("includes", {}).get("polls", []))
        pages += 1
        token = body.get("meta", {}).get("next_token")
        if not token or pages > 50:
            break
        params["pagination_token"] = token
    assert keys > 0 and pages > 1 and polls > 0, (keys, pages, polls)


def test_an_http_level_refusal_on_v2_is_a_problem(sim):
    """A request line too long for the server: on a /2/ path the answer is the contract's Problem."""
    r = requests.get(sim["base"] + "/2/tweets?ids=" + "1," * 6000)
    assert r.status_code == 414
    assert r.headers["Content-Type"].startswith("application/problem+json"), r.headers
    schema = {"$ref": "#/components/schemas/Problem", "components": SPEC["components"]}
    assert not list(OAS30Validator(schema).iter_errors(r.json())), r.text


def test_the_limits_tables_come_from_docs_x_limits():
    """Both XLimits.swift files are what Tools/x-limits.py makes from docs/X-LIMITS.md, whose
    every row names its source."""
    import subprocess
    import sys
    root = os.path.join(os.path.dirname(__file__), "..", "..")
    r = subprocess.run([sys.executable, os.path.join(root, "Tools", "x-limits.py"), "--check"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr or r.stdout
    table = open(os.path.join(root, "docs", "X-LIMITS.md")).read().split("## Rate limits", 1)[1].split("\n## ", 1)[0]
    rows = [l for l in table.splitlines() if l.startswith("| GET") or l.startswith("| POST") or l.startswith("| DELETE")]
    assert len(rows) > 40 and all(l.rstrip(" |").split("|")[-1].strip() for l in rows), "a row without its source"


def test_the_simulator_answers_with_the_documented_limits(sim, session):
    """x-rate-limit-limit on a v2 answer is the figure of docs/X-LIMITS.md for that endpoint."""
    r = session.get(f"{sim['base']}/2/users/{sim['user_id']}/timelines/reverse_chronological", params={"max_results": 5})
    assert r.headers["x-rate-limit-limit"] == "180"  # RL §Timelines: 180 per user per 15 minutes
    r = session.get(f"{sim['base']}/2/tweets", params={"ids": "20"})
    assert r.headers["x-rate-limit-limit"] == "5000"  # RL §Tweets lookup
