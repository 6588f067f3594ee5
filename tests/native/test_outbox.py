"""The native store and mail outbox (docs/spec/api-spec.md#delivery): mails reach a real SMTP server on 127.0.0.1
(aiosmtpd) with the right recipients, survive an SMTP outage and a SIGKILL, and fall back to
.eml files when no SMTP server is configured."""

import email
import json
import signal
import socket
import subprocess
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from datetime import date, timedelta
from email import policy
from pathlib import Path

import pytest
import requests
from aiosmtpd.controller import Controller

import servers

EDITORS = "editors@example.org"
BOOKINGS = "bookings@example.org"
WAIT = 90  # seconds any mail may take to arrive (an upper bound, never asserted as a timing)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Sink:
    """Records every message an SMTP client delivers."""

    def __init__(self):
        self.messages = []
        self.lock = threading.Lock()

    async def handle_DATA(self, server, session, envelope):  # noqa: N802 - aiosmtpd's hook name
        message = email.message_from_bytes(envelope.content, policy=policy.default)
        with self.lock:
            self.messages.append({"from": envelope.mail_from, "to": list(envelope.rcpt_tos), "message": message})
        return "250 OK"

    def snapshot(self):
        with self.lock:
            return list(self.messages)

    def wait_for(self, predicate, what, timeout=WAIT):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            found = predicate(self.snapshot())
            if found:
                return found
            time.sleep(0.1)
        raise AssertionError(f"timed out waiting for {what}; got {len(self.snapshot())} messages")

    def about(self, submission_id):
        return [m for m in self.snapshot() if f".{submission_id}@" in m["message"]["Message-ID"]]


def start_sink(port=None):
    sink = Sink()
    controller = Controller(sink, hostname="127.0.0.1", port=port or free_port())
    controller.start()
    return sink, controller


def state_dir():
    return tempfile.mkdtemp(prefix="outbox-state-", dir=servers.ROOT / "target")


def serve(state, smtp_port=None):
    env = {"PORTAL_SMTP_URL": f"smtp://127.0.0.1:{smtp_port}" if smtp_port else ""}
    args = ["serve", "--dist", str(servers.conformance_dist()), "--port", "0", "--state", state, "--rate-limit", "1000"]
    server = servers.start_portal(args, env=env)
    server.state = state
    return server


def post(server, path, body, address="10.20.0.1"):
    return requests.post(server.base_url + path, json=body, headers={"X-Forwarded-For": address}, timeout=60)


def voice(n=0):
    return {"title": f"Story {n}", "author": "Ana", "content": f"Story number {n}.\nWith two lines."}


def booking(**changes):
    future = (date.today() + timedelta(days=20)).isoformat()
    return {"name": "Ana Mwangi", "email": "ana@example.org", "visitDate": future, "visitTime": "09:15",
            "groupSize": "1-5", "tourType": "community-walk", **changes}


def stored(state):
    out = subprocess.run([str(servers.PORTAL), "submissions", "--state", state], capture_output=True, text=True, check=True)
    return {s["id"]: s for s in json.loads(out.stdout)}


@pytest.fixture
def sink():
    s, controller = start_sink()
    s.port = controller.port
    yield s
    controller.stop()


@pytest.fixture
def server(sink):
    s = serve(state_dir(), sink.port)
    yield s
    s.stop()


def test_a_voice_mails_the_editors(server, sink):
    r = post(server, "/api/submit-voice", voice(1))
    assert r.status_code == 202
    vid = r.json()["id"]
    [mail] = sink.wait_for(lambda _: sink.about(vid), "the editors' mail")
    assert mail["to"] == [EDITORS]
    assert mail["from"] == "portal@example.org"
    assert mail["message"]["Subject"] == "New community voice: Story 1"
    assert mail["message"].get_body(("plain",)).get_content().count("Story number 1.") == 1
    assert "Story number 1." in mail["message"].get_body(("html",)).get_content()


def test_the_forms_store_and_mail_exactly_like_the_json_actions(server, sink):
    form = {"Content-Type": "application/x-www-form-urlencoded", "X-Forwarded-For": "10.20.0.9"}
    r = requests.post(server.base_url + "/community-voices/new", data=voice(7), headers=form, allow_redirects=False, timeout=60)
    assert r.status_code == 303
    vid = r.headers["Location"].split("id=")[1]
    [mail] = sink.wait_for(lambda _: sink.about(vid), "the editors' mail of a form voice")
    assert mail["to"] == [EDITORS] and mail["message"]["Subject"] == "New community voice: Story 7"
    assert mail["message"].get_body(("plain",)).get_content().count("With two lines.") == 1
    r = requests.post(server.base_url + "/visit", data=booking(), headers=form, allow_redirects=False, timeout=60)
    assert r.status_code == 303
    ref = r.headers["Location"].split("reference=")[1]
    mails = sink.wait_for(lambda _: len(sink.about(ref)) == 2 and sink.about(ref), "the booking mails of a form")
    assert {m["to"][0] for m in mails} == {"ana@example.org", BOOKINGS}
    saved = stored(server.state)
    assert saved[vid]["kind"] == "voice" and saved[vid]["data"]["content"] == "Story number 7.\nWith two lines."
    assert saved[ref]["kind"] == "booking" and saved[ref]["data"]["groupSize"] == "1-5"


def test_a_filled_honeypot_stores_and_mails_nothing(server, sink):
    form = {"Content-Type": "application/x-www-form-urlencoded", "X-Forwarded-For": "10.20.0.10"}
    body = {**voice(8), "website": "http://spam.example"}
    r = requests.post(server.base_url + "/community-voices/new", data=body, headers=form, allow_redirects=False, timeout=60)
    assert r.status_code == 400
    assert not [s for s in stored(server.state).values() if s["data"].get("title") == "Story 8"]


def test_a_booking_mails_the_visitor_and_the_bookings_address(server, sink):
    r = post(server, "/api/send-booking-confirmation", booking(name="Ana <b>M</b>"))
    assert r.status_code == 202
    ref = r.json()["reference"]
    mails = sink.wait_for(lambda _: len(sink.about(ref)) == 2 and sink.about(ref), "two booking mails")
    by_rcpt = {tuple(m["to"]): m["message"] for m in mails}
    assert set(by_rcpt) == {("ana@example.org",), (BOOKINGS,)}
    visitor = by_rcpt[("ana@example.org",)]
    assert visitor["Reply-To"] == BOOKINGS and ref in visitor["Subject"]
    assert by_rcpt[(BOOKINGS,)]["Reply-To"] == "ana@example.org"
    assert "Ana &lt;b&gt;M&lt;/b&gt;" in visitor.get_body(("html",)).get_content()


def test_no_header_injection_reaches_the_mail_server(server, sink):
    attacks = [
        ("/api/submit-voice", voice() | {"title": "Hi\r\nBcc: victim@example.net"}),
        ("/api/submit-voice", voice() | {"author": "Ana\nTo: victim@example.net"}),
        ("/api/send-booking-confirmation", booking(email="ana@example.org\r\nBcc: victim@example.net")),
        ("/api/send-booking-confirmation", booking(email="victim@example.net,ana@example.org")),
        ("/api/send-booking-confirmation", booking(name="Ana\r\nCc: victim@example.net")),
    ]
    for path, body in attacks:
        assert post(server, path, body).status_code == 400, body
    ok = post(server, "/api/submit-voice", voice() | {"title": "Bcc: victim@example.net"})
    assert ok.status_code == 202
    sink.wait_for(lambda _: sink.about(ok.json()["id"]), "the harmless mail")
    for mail in sink.snapshot():
        assert mail["to"] == [EDITORS]
        assert "Bcc" not in mail["message"] and "Cc" not in mail["message"]
        assert "victim" not in str(mail["message"]["To"])


def test_without_smtp_mails_are_written_as_eml_files():
    state = state_dir()
    server = serve(state)
    try:
        r = post(server, "/api/send-booking-confirmation", booking())
        assert r.status_code == 202
        ref = r.json()["reference"]
        folder = Path(state) / "mail"
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline and len(list(folder.glob(f"{ref}-*.eml"))) < 2:
            time.sleep(0.1)
        files = sorted(folder.glob(f"{ref}-*.eml"))
        assert len(files) == 2
        recipients = {email.message_from_bytes(f.read_bytes(), policy=policy.default)["To"] for f in files}
        assert recipients == {"ana@example.org", BOOKINGS}
    finally:
        server.stop()
    assert stored(state)[ref]["mailsSent"] == 2
    assert stored(state)[ref]["deliveredVia"] == "file"


def test_an_smtp_outage_loses_nothing_and_sends_each_mail_once():
    port = free_port()
    state = state_dir()
    server = serve(state, port)  # nothing listens on `port` yet
    try:
        ids = []
        for n in range(20):
            r = post(server, "/api/submit-voice", voice(n), address=f"10.21.0.{n + 1}")
            assert r.status_code == 202
            ids.append(r.json()["id"])
        time.sleep(2)  # let the outbox fail a few attempts
        sink, controller = start_sink(port)
        try:
            sink.wait_for(lambda msgs: len(msgs) >= 20, "20 mails after the outage")
            time.sleep(3)  # anything sent twice would arrive now
            ids_seen = [m["message"]["Message-ID"] for m in sink.snapshot()]
            assert len(ids_seen) == 20 and len(set(ids_seen)) == 20
            assert all(len(sink.about(i)) == 1 for i in ids)
        finally:
            controller.stop()
    finally:
        server.stop()
    assert all(stored(state)[i]["mailsSent"] == 1 for i in ids)
    assert all(stored(state)[i]["deliveredVia"] == "smtp" for i in ids)


def test_a_sigkill_loses_no_accepted_submission_and_no_mail(sink):
    state = state_dir()
    server = serve(state, sink.port)
    accepted = []

    def submit(n):
        try:
            r = post(server, "/api/submit-voice", voice(n), address=f"10.22.{n // 200}.{n % 200 + 1}")
        except requests.RequestException:
            return None
        return r.json()["id"] if r.status_code == 202 else None

    with ThreadPoolExecutor(max_workers=32) as pool:
        futures = [pool.submit(submit, n) for n in range(200)]
        done = 0
        for future in as_completed(futures):
            done += 1
            if future.result():
                accepted.append(future.result())
            if done == 60:
                server.stop(signal.SIGKILL)
    assert server.process.returncode == -signal.SIGKILL
    assert accepted, "some submissions were answered before the kill"
    print(f"{len(accepted)} of 200 accepted before SIGKILL")
    restarted = serve(state, sink.port)
    try:
        kept = stored(state)
        missing = [i for i in accepted if i not in kept]
        assert not missing, f"{len(missing)} accepted submissions were lost"
        sink.wait_for(lambda _: all(sink.about(i) for i in accepted), f"mails of {len(accepted)} accepted submissions")
    finally:
        restarted.stop()


def test_the_mail_quota_survives_a_restart_on_the_same_state():
    state = state_dir()
    address = "quota.restart@example.org"
    server = serve(state)
    try:
        for n in range(3):
            r = post(server, "/api/send-booking-confirmation", booking(email=address), address=f"10.20.1.{n}")
            assert r.status_code == 202, r.text
    finally:
        server.stop()
    server = serve(state)
    try:
        refused = post(server, "/api/send-booking-confirmation", booking(email=address.upper()), address="10.20.1.9")
        other = post(server, "/api/send-booking-confirmation", booking(email="someone.else@example.org"), address="10.20.1.10")
    finally:
        server.stop()
    assert refused.status_code == 429 and refused.json()["code"] == "rate_limited", refused.text
    assert 0 < int(refused.headers["Retry-After"]) <= 86_400
    assert other.status_code == 202
    assert len(stored(state)) == 4, "the refused booking stored nothing"
