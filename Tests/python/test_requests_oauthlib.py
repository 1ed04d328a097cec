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


def test_oauth2_pkce_session_signs_in_and_refreshes(sim, monkeypatch):
    """requests-oauthlib's OAuth2Session with PKCE through the simulator's consent page; then
    its token reads /2/users/me, and a refresh rotates it."""
    import re
    import requests
    from requests_oauthlib import OAuth2Session

    monkeypatch.setenv("OAUTHLIB_INSECURE_TRANSPORT", "1")  # the simulator is plain http on loopback
    base, client_id, redirect = sim["base"], sim["oauth2_client_id"], sim["oauth2_redirect_uri"]
    oauth = OAuth2Session(client_id, redirect_uri=redirect, scope=["tweet.read", "users.read", "offline.access"], pkce="S256")
    url, state = oauth.authorization_url(base + "/i/oauth2/authorize")
    page = requests.get(url)
    assert page.status_code == 200
    request_id = re.search(r'name="request" value="([^"]+)"', page.text).group(1)
    answer = requests.post(base + "/i/oauth2/authorize", allow_redirects=False, data={
        "request": request_id, "session[username_or_email]": sim["screen_name"], "session[password]": sim["password"],
        "allow": "Authorize app"})
    assert answer.status_code == 302
    location = answer.headers["Location"]
    assert location.startswith(redirect) and f"state={state}" in location
    token = oauth.fetch_token(base + "/2/oauth2/token", authorization_response=location, include_client_id=True)
    assert token["token_type"] == "bearer" and "refresh_token" in token
    me = oauth.get(base + "/2/users/me")
    assert me.status_code == 200 and me.json()["data"]["username"] == sim["screen_name"]
    fresh = oauth.refresh_token(base + "/2/oauth2/token", client_id=client_id)
    assert fresh["access_token"] != token["access_token"] and fresh["refresh_token"] != token["refresh_token"]
    assert oauth.get(base + "/2/users/me").status_code == 200
    old = requests.get(base + "/2/users/me", headers={"Authorization": "Bearer " + token["access_token"]})
    assert old.status_code == 200, "an access token stays valid until it expires or is revoked"
