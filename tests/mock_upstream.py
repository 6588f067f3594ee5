"""A local stand-in for the third-party upstreams (weather, CAP alerts, geolocation) on a fixed
loopback port, whose behaviour tests switch: ok, fail (500), hang (past the timeout), garbage, slow
(answers after 0.3 s, within the timeout), big (a valid answer padded past 2 MiB, with its
Content-Length) or big-unsized (the same, with no length: the body ends when the connection does),
redirect (302 to `http://localhost:<port>/internal/<endpoint>`, another loopback host) or
redirect-307 (307 to the path `/internal/<endpoint>` of the same host), where a valid answer holds
SECRET, as an internal service's would; absurd (weather: figures of 1e308 and "NaN"); hostile
(alerts: links to `javascript:` and `data:`); nowhere (geo: an answer without a location).

It is also the GitHub of the CMS sign-in: `/oauth/authorize` (which only records the request) and
`POST /oauth/token`, which trades the code `good-code` for a token when the client id and secret are
those of CMS_ENV (mode `oauth`: ok, fail, garbage, refuse, GitHub's 200 with an `error`, or redirect,
a 307 to `/oauth/elsewhere`, which records what it is sent in REDIRECTED and answers a token)."""

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs

PORT = 18931
MODES = {"weather": "ok", "alerts": "ok", "geo": "ok", "oauth": "ok"}
SEEN = []

# The CMS sign-in's settings both servers run with (environment of `portal serve`, `.dev.vars` of
# `wrangler dev`): an OAuth app of this mock.
CMS_ENV = {
    "CMS_GITHUB_CLIENT_ID": "cms-test-client",
    "CMS_GITHUB_CLIENT_SECRET": "cms-test-secret-do-not-show",
    "CMS_GITHUB_AUTHORIZE_URL": f"http://127.0.0.1:{PORT}/oauth/authorize",
    "CMS_GITHUB_TOKEN_URL": f"http://127.0.0.1:{PORT}/oauth/token",
}
CMS_TOKEN = "gho_mockToken0123456789"
# The forms the token endpoint was sent, in order.
TOKEN_REQUESTS = []
# The forms a client following the token endpoint's redirect sent on (the secret among them).
REDIRECTED = []

FORECAST = {
    "latitude": -1.3, "longitude": 30.8, "timezone": "Africa/Kampala",
    "current": {"time": "2026-11-22T10:00", "temperature_2m": 24.5, "precipitation": 0.0},
    "current_units": {"temperature_2m": "°C"},
    "daily": {"time": ["2026-11-22", "2026-11-23"], "temperature_2m_max": [29.0, 30.5], "temperature_2m_min": [17.0, 18.2]},
}
CAP = """<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:cap="urn:oasis:names:tc:emergency:cap:1.2"><channel><title>Alerts</title>
<item><title>Heavy rain &amp; flooding</title><link>https://alerts.example.org/1</link><pubDate>Sun, 22 Nov 2026 06:00:00 GMT</pubDate>
<cap:event>Flood</cap:event><cap:severity>Severe</cap:severity><cap:urgency>Expected</cap:urgency><cap:areaDesc>Zone A; Zone B</cap:areaDesc></item>
<item><title>Heat advisory</title><link>https://alerts.example.org/2</link><cap:severity>Moderate</cap:severity></item>
</channel></rss>"""
# Past the 2 MiB cap on upstream answers, as an XML comment or JSON whitespace (still valid).
PADDING = 2 * 1024 * 1024 + 1

GEO = {"country_name": "Uganda", "region": "Western", "city": "Fixture", "latitude": -1.3456, "longitude": 30.8123}

# What `/internal/<endpoint>` answers: what an upstream's redirect points at. No client may ever see it.
SECRET = "SECRET-internal-7f3a"
INTERNAL = {
    "weather": json.dumps({**FORECAST, "timezone": SECRET}),
    "alerts": CAP.replace("Heavy rain &amp; flooding", SECRET),
    "geo": json.dumps({**GEO, "city": SECRET}),
}
ABSURD = {**FORECAST, "daily": {"time": ["2026-11-22", "2026-11-23", "2026-11-24"],
                                "temperature_2m_max": [1e308, 30.5, "NaN"], "temperature_2m_min": [-1e308, 18.2, 17.0],
                                "precipitation_sum": [1e308, 3.0, -1e308]}}
HOSTILE = """<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0"><channel><title>Alerts</title>
<item><title>Script link</title><link>javascript:alert(document.domain)</link></item>
<item><title>Data link</title><link>data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==</link></item>
<item><title>Web link</title><link>https://alerts.example.org/3</link></item>
</channel></rss>"""


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def token(self):
        length = int(self.headers.get("Content-Length") or 0)
        form = {k: v[0] for k, v in parse_qs(self.rfile.read(length).decode()).items()}
        TOKEN_REQUESTS.append(form)
        mode = MODES["oauth"]
        if mode == "redirect":
            self.send_response(307)
            self.send_header("Location", f"http://127.0.0.1:{PORT}/oauth/elsewhere")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        if mode == "fail":
            self.send_response(500)
            self.end_headers()
            return
        good = (form.get("client_id"), form.get("client_secret"), form.get("code")) == (
            CMS_ENV["CMS_GITHUB_CLIENT_ID"], CMS_ENV["CMS_GITHUB_CLIENT_SECRET"], "good-code")
        if mode == "garbage":
            body = b"<html>not what you expected"
        elif mode == "refuse" or not good:
            body = json.dumps({"error": "bad_verification_code", "error_description": "The code is wrong."}).encode()
        else:
            body = json.dumps({"access_token": CMS_TOKEN, "token_type": "bearer", "scope": "repo,user"}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def elsewhere(self):
        length = int(self.headers.get("Content-Length") or 0)
        REDIRECTED.append({k: v[0] for k, v in parse_qs(self.rfile.read(length).decode()).items()})
        body = json.dumps({"access_token": CMS_TOKEN, "token_type": "bearer"}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self):
        if self.path.startswith("/oauth/elsewhere"):
            self.elsewhere()
            return
        if self.path.startswith("/oauth/token"):
            SEEN.append(self.path)
            self.token()
            return
        _, _, endpoint, mode = self.path.split("/", 3)
        MODES[endpoint] = mode
        self.send_response(204)
        self.end_headers()

    def do_GET(self):
        endpoint = self.path.split("/")[1]
        SEEN.append(self.path)
        mode = "ok" if endpoint == "oauth" else MODES.get(endpoint, "ok")
        if mode == "hang":
            time.sleep(3)
        if mode == "slow":
            time.sleep(0.3)
        if mode == "fail":
            self.send_response(500)
            self.end_headers()
            return
        if mode.startswith("redirect"):
            moved = f"/internal/{endpoint}"
            self.send_response(307 if mode == "redirect-307" else 302)
            self.send_header("Location", moved if mode == "redirect-307" else f"http://localhost:{PORT}{moved}")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        if endpoint == "internal":
            body = INTERNAL.get(self.path.split("/")[2], SECRET).encode()
            kind = "application/rss+xml" if "alerts" in self.path else "application/json"
        elif endpoint == "oauth":
            body, kind = b"<html>the mock provider's sign-in page</html>", "text/html"
        elif mode == "garbage":
            body, kind = b"<html>not what you expected", "text/html"
        elif endpoint == "weather":
            body, kind = json.dumps(ABSURD if mode == "absurd" else FORECAST).encode(), "application/json"
        elif endpoint == "alerts":
            body, kind = (HOSTILE if mode == "hostile" else CAP).encode(), "application/rss+xml"
        else:
            body, kind = json.dumps({"ip": "x"} if mode == "nowhere" else GEO).encode(), "application/json"
        if mode.startswith("big"):
            body += b"<!--" + b"x" * PADDING + b"-->" if endpoint == "alerts" else b" " * PADDING
        try:
            self.send_response(200)
            self.send_header("Content-Type", kind)
            if mode != "big-unsized":
                self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):
            pass


def start():
    server = ThreadingHTTPServer(("127.0.0.1", PORT), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def set_mode(endpoint, mode):
    MODES[endpoint] = mode
