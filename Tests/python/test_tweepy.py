"""tweepy's v1.1 `API` class against the simulator, with OAuth 1.0a user tokens and with an
app-only bearer token. Only the transport is redirected (see simadapter)."""
import base64

import pytest
import requests
import tweepy

import simadapter
from conftest import ground_truth


@pytest.fixture(scope="module")
def api(sim):
    auth = tweepy.OAuth1UserHandler(
        sim["consumer_key"], sim["consumer_secret"], sim["access_token"], sim["access_token_secret"])
    api = tweepy.API(auth)
    simadapter.patch_session(api.session, sim["base"])
    return api


def test_verify_credentials(api, sim):
    me = api.verify_credentials()
    assert me.screen_name == "linnet_demo"
    assert me.id == int(sim["user_id"])


def test_home_timeline_matches_ground_truth(api, sim):
    home = api.home_timeline(count=20, tweet_mode="extended")
    assert [t.id for t in home] == ground_truth(sim, "home")[:20]
    assert all(hasattr(t, "full_text") for t in home)
    older = api.home_timeline(count=5, max_id=home[-1].id - 1)
    assert [t.id for t in older] == ground_truth(sim, "home")[20:25]


def test_mentions_timeline(api, sim):
    mentions = api.mentions_timeline(count=200)
    assert mentions, "the backlog mentions the demo user"
    assert all("@linnet_demo" in t.text.lower() for t in mentions)
    assert [t.id for t in mentions] == ground_truth(sim, "mentions")[:200]


def test_user_timeline(api):
    tweets = api.user_timeline(screen_name="ada", count=50)
    assert tweets and all(t.user.screen_name == "ada" for t in tweets)


def test_search_tweets(api):
    results = api.search_tweets(q="from:ada", count=50)
    assert results and all(t.user.screen_name == "ada" for t in results)
    assert results.max_id is not None


def test_update_reply_favorite_retweet_destroy(api):
    status = api.update_status("tweepy says hello & <waves> ☃")
    assert status.text == "tweepy says hello &amp; &lt;waves&gt; ☃"
    target = api.mentions_timeline(count=1)[0]
    reply = api.update_status("tweepy reply", in_reply_to_status_id=target.id, auto_populate_reply_metadata=True)
    assert reply.in_reply_to_status_id == target.id
    liked = api.create_favorite(target.id)
    assert liked.favorited is True and liked.id == target.id
    rt = api.retweet(target.id)
    assert rt.retweeted_status.id == target.id
    with pytest.raises(tweepy.Forbidden) as already:
        api.retweet(target.id)
    assert 327 in already.value.api_codes
    gone = api.destroy_status(status.id)
    assert gone.id == status.id
    with pytest.raises(tweepy.NotFound) as missing:
        api.get_status(status.id)
    assert 144 in missing.value.api_codes


def test_rate_limit_status(api):
    limits = api.rate_limit_status()
    home = limits["resources"]["statuses"]["/statuses/home_timeline"]
    assert home["limit"] == 15 and 0 <= home["remaining"] < 15


def test_app_only_bearer(sim):
    session = simadapter.patch_session(requests.Session(), sim["base"])
    basic = base64.b64encode(f"{sim['consumer_key']}:{sim['consumer_secret']}".encode()).decode()
    r = session.post("https://api.twitter.com/oauth2/token", data={"grant_type": "client_credentials"},
                     headers={"Authorization": "Basic " + basic})
    assert r.status_code == 200 and r.json()["token_type"] == "bearer"
    api = tweepy.API(tweepy.OAuth2BearerHandler(r.json()["access_token"]))
    simadapter.patch_session(api.session, sim["base"])
    found = api.search_tweets(q="from:ada", count=10)
    assert found and all(t.user.screen_name == "ada" for t in found)
    assert api.user_timeline(screen_name="ada", count=5)
    assert "application" in api.rate_limit_status()["rate_limit_context"]
    with pytest.raises(tweepy.Forbidden) as refused:
        api.home_timeline()
    assert 220 in refused.value.api_codes
    with pytest.raises(tweepy.Forbidden):
        api.update_status("apps cannot post")
