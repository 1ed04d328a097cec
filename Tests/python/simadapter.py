"""Points tweepy's fixed https://api.twitter.com at the simulator, changing nothing in tweepy.

A requests transport adapter rewrites the scheme and host of each request to the simulator and
keeps what was signed: the original Host header and `X-Forwarded-Proto: https`, which the
simulator uses to rebuild the OAuth base string, as a server behind a proxy would."""
import urllib.parse

import requests
from requests.adapters import HTTPAdapter


class SimulatorAdapter(HTTPAdapter):
    def __init__(self, base_url, **kwargs):
        self.base = urllib.parse.urlsplit(base_url)
        super().__init__(**kwargs)

    def send(self, request, **kwargs):
        original = urllib.parse.urlsplit(request.url)
        request.headers["Host"] = original.netloc
        request.headers["X-Forwarded-Proto"] = original.scheme
        request.url = urllib.parse.urlunsplit(
            (self.base.scheme, self.base.netloc, original.path, original.query, original.fragment))
        return super().send(request, **kwargs)


def patch_session(session, base_url):
    adapter = SimulatorAdapter(base_url)
    session.mount("https://api.twitter.com/", adapter)
    session.mount("https://upload.twitter.com/", adapter)
    return session
