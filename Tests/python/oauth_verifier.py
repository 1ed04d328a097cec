"""An independent OAuth 1.0a verifier: a small HTTP server that checks each request's signature
with oauthlib (not Linnet's code) and answers 200 with what it verified, or 401 with why not.

Usage: oauth_verifier.py CONSUMER_KEY CONSUMER_SECRET TOKEN TOKEN_SECRET
Prints `listening on http://127.0.0.1:PORT` and serves until its standard input closes."""
import json
import os
import sys
import threading
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from oauthlib.oauth1 import RequestValidator, SignatureOnlyEndpoint

CONSUMER_KEY, CONSUMER_SECRET, TOKEN, TOKEN_SECRET = sys.argv[1:5]


class Validator(RequestValidator):
    enforce_ssl = False
    dummy_client = "dummy-client"
    dummy_access_token = "dummy-token"

    # Linnet's keys need not follow oauthlib's default length and alphabet rules.
    def check_client_key(self, key):
        return True

    def check_access_token(self, token):
        return True

    def check_nonce(self, nonce):
        return bool(nonce)

    def validate_client_key(self, client_key, request):
        return client_key == CONSUMER_KEY

    def validate_access_token(self, client_key, token, request):
        return token == TOKEN

    def get_client_secret(self, client_key, request):
        return CONSUMER_SECRET

    def get_access_token_secret(self, client_key, token, request):
        return TOKEN_SECRET

    def validate_timestamp_and_nonce(self, client_key, timestamp, nonce, request, request_token=None, access_token=None):
        return True


endpoint = SignatureOnlyEndpoint(Validator())


class Handler(BaseHTTPRequestHandler):
    def handle_any(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length).decode("utf-8") if length else None
        uri = f"http://{self.headers['Host']}{self.path}"
        headers = {k: v for k, v in self.headers.items()}
        valid, request = endpoint.validate_request(uri, self.command, body, headers)
        params = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(self.path).query, keep_blank_values=True))
        if body and "application/x-www-form-urlencoded" in (self.headers.get("Content-Type") or ""):
            params.update(urllib.parse.parse_qsl(body, keep_blank_values=True))
        seen = {"user-agent": self.headers.get("User-Agent"), "accept-encoding": self.headers.get("Accept-Encoding")}
        answer = json.dumps({"valid": valid, "params": params, "headers": seen}).encode()
        self.send_response(200 if valid else 401)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(answer)))
        self.end_headers()
        self.wfile.write(answer)

    do_GET = handle_any
    do_POST = handle_any

    def log_message(self, *args):
        pass


def exit_when_parent_closes_stdin():
    sys.stdin.read()
    os._exit(0)


threading.Thread(target=exit_when_parent_closes_stdin, daemon=True).start()
server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(f"listening on http://127.0.0.1:{server.server_address[1]}", flush=True)
server.serve_forever()
