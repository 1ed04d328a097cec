"""tweepy's v2 `Client` against the simulator's v2 face, with OAuth 1.0a user tokens and with an
app-only bearer token. Only the transport is redirected (see simadapter)."""
import base64

import pytest
import requests
import tweepy

import simadapter
from conftest import ground_truth


@pytest.fixture(scope="module")
def client(sim):
    c = tweepy.Client(consumer_key=sim["consumer_key"], consumer_secret=sim["consumer_secret"],
                      access_token=sim["access_token"], access_token_secret=sim["access_token_secret"])
    simadapter.patch_session(c.session, sim["base"])
    return c


FIELDS = dict(expansions=["author_id", "referenced_tweets.id"], tweet_fields=["created_at", "author_id", "entities"],
              user_fields=["username", "name"])


def test_me_and_home(client, sim):
    me = client.get_me(user_auth=True).data
    assert me.username == "linnet_demo" and me.id == int(sim["user_id"])
    home = client.get_home_timeline(max_results=20, user_auth=True, **FIELDS)
    assert [t.id for t in home.data] == ground_truth(sim, "home")[:20]
    authors = {u.id: u.username for u in home.includes["users"]}
    assert all(t.author_id in authors for t in home.data)
    assert all(t.created_at is not None for t in home.data)
    nxt = client.get_home_timeline(max_results=20, pagination_token=home.meta["next_token"], user_auth=True)
    assert [t.id for t in nxt.data] == ground_truth(sim, "home")[20:40]


def test_mentions_search_user_posts_and_lookup(client, sim):
    me_id = int(sim["user_id"])
    mentions = client.get_users_mentions(me_id, max_results=50, user_auth=True)
    assert [t.id for t in mentions.data] == ground_truth(sim, "mentions")[:50]
    found = client.search_recent_tweets("from:ada", max_results=10, user_auth=True, **FIELDS)
    ada = [u for u in found.includes["users"] if u.username == "ada"][0]
    assert found.data and all(t.author_id == ada.id for t in found.data)
    posts = client.get_users_tweets(ada.id, max_results=5, user_auth=True)
    assert posts.data and len(posts.data) <= 5
    one = client.get_tweet(found.data[0].id, user_auth=True)
    assert one.data.id == found.data[0].id and one.data.text == found.data[0].text


def test_create_reply_like_delete(client, sim):
    me_id = int(sim["user_id"])
    created = client.create_tweet(text="posted by tweepy's v2 Client", user_auth=True)
    new_id = int(created.data["id"])
    assert ground_truth(sim, "home")[0] == new_id, "the post reaches the home timeline"
    target = ground_truth(sim, "mentions")[0]
    reply = client.create_tweet(text="a reply from tweepy", in_reply_to_tweet_id=target, user_auth=True)
    got = client.get_tweet(reply.data["id"], tweet_fields=["referenced_tweets"], user_auth=True).data
    assert any(r.type == "replied_to" and r.id == target for r in got.referenced_tweets)
    assert client.like(target, user_auth=True).data["liked"] is True
    assert client.unlike(target, user_auth=True).data["liked"] is False
    assert client.delete_tweet(new_id, user_auth=True).data["deleted"] is True
    assert new_id not in ground_truth(sim, "home")
    with pytest.raises(tweepy.NotFound):
        client.delete_tweet(new_id, user_auth=True)
    gone = client.get_tweets([new_id, int(reply.data["id"])], user_auth=True)
    assert [t.id for t in gone.data] == [int(reply.data["id"])]
    assert gone.errors[0]["resource_id"] == str(new_id)
    client.delete_tweet(reply.data["id"], user_auth=True)
    assert me_id


def test_bearer_searches_but_cannot_read_home(sim):
    session = simadapter.patch_session(requests.Session(), sim["base"])
    basic = base64.b64encode(f"{sim['consumer_key']}:{sim['consumer_secret']}".encode()).decode()
    r = session.post("https://api.twitter.com/oauth2/token", data={"grant_type": "client_credentials"},
                     headers={"Authorization": "Basic " + basic})
    app = tweepy.Client(bearer_token=r.json()["access_token"])
    simadapter.patch_session(app.session, sim["base"])
    found = app.search_recent_tweets("from:ada", max_results=10)
    assert found.data
    # tweepy's own home-timeline call insists on user tokens, so ask the route directly.
    with pytest.raises(tweepy.Forbidden) as refused:
        app.request("GET", f"/2/users/{sim['user_id']}/timelines/reverse_chronological")
    assert "unsupported-authentication" in refused.value.response.json()["type"]
    with pytest.raises(tweepy.BadRequest):
        app.search_recent_tweets("from:ada", max_results=5)
