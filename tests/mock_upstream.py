"""A local stand-in for the third-party upstreams (weather, CAP alerts, geolocation) on a fixed
loopback port, whose behaviour tests switch: ok, fail (500), hang (past the timeout), garbage, slow
(answers after 0.3 s, within the timeout), big (a valid answer padded past 2 MiB, with its
Content-Length) or big-unsized (the same, with no length: the body ends when the connection does)."""

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

PORT = 18931
MODES = {"weather": "ok", "alerts": "ok", "geo": "ok"}
SEEN = []

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


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def do_POST(self):
        _, _, endpoint, mode = self.path.split("/", 3)
        MODES[endpoint] = mode
        self.send_response(204)
        self.end_headers()

    def do_GET(self):
        endpoint = self.path.split("/")[1]
        SEEN.append(self.path)
        mode = MODES.get(endpoint, "ok")
        if mode == "hang":
            time.sleep(3)
        if mode == "slow":
            time.sleep(0.3)
        if mode == "fail":
            self.send_response(500)
            self.end_headers()
            return
        if mode == "garbage":
            body, kind = b"<html>not what you expected", "text/html"
        elif endpoint == "weather":
            body, kind = json.dumps(FORECAST).encode(), "application/json"
        elif endpoint == "alerts":
            body, kind = CAP.encode(), "application/rss+xml"
        else:
            body, kind = json.dumps(GEO).encode(), "application/json"
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
