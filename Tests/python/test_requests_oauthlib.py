"""requests-oauthlib signs requests the simulator must verify: a GET with query parameters, a
POST with a form body, and a request altered after signing that must be refused."""
import requests
from requests_oauthlib import OAuth1


def auth(sim):
    return OAuth1(sim["consumer_key"], sim["consumer_secret"], sim["access_token"], sim["access_token_secret"])


def test_signed_get_with_query(sim):
    r = requests.get(sim["base"] + "/1.1/search/tweets.json",
                     params={"q": "from:ada OR from:hanako", "count": "7", "result_type": "recent"}, auth=auth(sim))
    assert r.status_code == 200, r.text
    body = r.json()
    assert 0 < len(body["statuses"]) <= 7
    assert {t["user"]["screen_name"] for t in body["statuses"]} <= {"ada", "hanako"}
    assert body["search_metadata"]["count"] == 7


def test_signed_post_with_form_body(sim):
    text = "oauthlib: ünïcödé, spaces + plus & ☃"
    r = requests.post(sim["base"] + "/1.1/statuses/update.json", data={"status": text}, auth=auth(sim))
    assert r.status_code == 200, r.text
    assert r.json()["text"] == text.replace("&", "&amp;")
    assert r.json()["user"]["screen_name"] == "linnet_demo"


def test_tampered_request_is_refused(sim):
    signed = requests.Request("POST", sim["base"] + "/1.1/statuses/update.json",
                              data={"status": "what was signed"}, auth=auth(sim)).prepare()
    signed.body = "status=something+else"
    signed.headers["Content-Length"] = str(len(signed.body))
    r = requests.Session().send(signed)
    assert r.status_code == 401
    assert r.json()["errors"][0]["code"] == 32
