"""The native store and mail outbox (docs/spec/api-spec.md#delivery): mails reach a real SMTP server on 127.0.0.1
(aiosmtpd) with the right recipients, survive an SMTP outage, a SIGKILL and a SIGTERM mid-send, and fall back to
.eml files when no SMTP server is configured."""

import asyncio
import email
import json
import shutil
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


def serve(state, smtp_port=None, dist=None, env=None):
    env = {"PORTAL_SMTP_URL": f"smtp://127.0.0.1:{smtp_port}" if smtp_port else "", **(env or {})}
    dist = dist or servers.conformance_dist()
    args = ["serve", "--dist", str(dist), "--port", "0", "--state", state, "--rate-limit", "1000"]
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


class SlowSink(Sink):
    """A mail server that takes `delay` seconds to accept each message it has received."""

    def __init__(self, delay):
        super().__init__()
        self.delay = delay

    async def handle_DATA(self, server, session, envelope):  # noqa: N802 - aiosmtpd's hook name
        answer = await super().handle_DATA(server, session, envelope)
        await asyncio.sleep(self.delay)
        return answer


def test_a_sigterm_while_a_mail_is_being_sent_records_it_so_it_is_not_sent_again():
    """Shutdown waits for the mail server's answer and records the mail, so the next run does not send it again."""
    sink = SlowSink(delay=3)
    controller = Controller(sink, hostname="127.0.0.1", port=free_port())
    controller.start()
    state = state_dir()
    server = serve(state, controller.port)
    try:
        r = post(server, "/api/submit-voice", voice(50), address="10.25.0.1")
        assert r.status_code == 202, r.text
        sid = r.json()["id"]
        sink.wait_for(lambda _: sink.about(sid), "the mail to reach the server")
        assert server.stop() == 0, server.output()  # the server has not answered yet
        assert stored(state)[sid]["mailsPending"] == 0, stored(state)[sid]
        assert stored(state)[sid]["mailsSent"] == 1
        restarted = serve(state, controller.port)
        try:
            time.sleep(2)  # a mail the store still held would go out now
            assert len(sink.about(sid)) == 1, "sent once"
        finally:
            restarted.stop()
    finally:
        server.stop()
        controller.stop()


def visitor_mails(sink, ref, visitor):
    return [m for m in sink.about(ref) if m["to"] == [visitor]]


def test_the_recipient_quota_survives_a_restart_and_only_drops_the_confirmation(sink):
    state = state_dir()
    server = serve(state, sink.port)
    refs = []
    try:
        for n, spelling in enumerate(["Foo+x@Example.org", "foo@example.org", "f.oo+y@EXAMPLE.org"]):
            r = post(server, "/api/send-booking-confirmation", booking(email=spelling), address=f"10.20.1.{n}")
            assert r.status_code == 202, r.text
            refs.append(r.json()["reference"])
        sink.wait_for(lambda _: all(len(sink.about(ref)) == 2 for ref in refs), "three bookings' mails")
    finally:
        server.stop()
    server = serve(state, sink.port)
    try:
        fourth = post(server, "/api/send-booking-confirmation", booking(email="FOO@example.org"), address="10.20.1.9")
        other = post(server, "/api/send-booking-confirmation", booking(email="someone.else@example.org"), address="10.20.1.10")
        assert (fourth.status_code, other.status_code) == (202, 202), fourth.text
        ref, other_ref = fourth.json()["reference"], other.json()["reference"]
        sink.wait_for(lambda _: len(sink.about(other_ref)) == 2 and sink.about(ref), "the later bookings' mails")
        time.sleep(2)  # a confirmation wrongly queued would be sent by now
    finally:
        server.stop()
    assert [m["to"] for m in sink.about(ref)] == [[BOOKINGS]], "the office's copy only: the address had its 3"
    assert all(len(visitor_mails(sink, r, addr)) == 1 for r, addr in zip(refs, ["Foo+x@Example.org", "foo@example.org", "f.oo+y@EXAMPLE.org"]))
    kept = stored(state)
    assert len(kept) == 5 and kept[ref]["data"]["email"] == "FOO@example.org", "every booking is stored"
    assert (kept[ref]["mailsSent"], kept[ref]["mailsPending"]) == (1, 0)


def comparable(response):
    """An answer with what differs by design blanked: the date, the client's rate-limit counts, the
    reference and the address the booking echoes back."""
    body = response.json()
    typed = body["booking"]["email"]
    body["message"] = body["message"].replace(typed, "EMAIL")
    body["reference"], body["booking"]["email"] = "REF", "EMAIL"
    headers = {k.lower(): v for k, v in response.headers.items()
               if k.lower() not in {"date", "content-length"} and "ratelimit" not in k.lower()}
    return response.status_code, headers, json.dumps(body, sort_keys=True)


def test_an_address_seen_before_is_answered_byte_for_byte_like_a_new_one(server, sink):
    seen = "Seen.Before+tag@Example.org"
    for n in range(3):
        assert post(server, "/api/send-booking-confirmation", booking(email=seen), address=f"10.23.0.{n}").status_code == 202
    again = post(server, "/api/send-booking-confirmation", booking(email="seenbefore@example.org"), address="10.23.0.8")
    new = post(server, "/api/send-booking-confirmation", booking(email="never.seen@example.org"), address="10.23.0.9")
    assert comparable(again) == comparable(new)
    assert len(again.content) - len(again.json()["booking"]["email"]) * 2 == len(new.content) - len(new.json()["booking"]["email"]) * 2
    ref = again.json()["reference"]
    sink.wait_for(lambda _: sink.about(ref) and len(sink.about(new.json()["reference"])) == 2, "the office's copy")
    time.sleep(2)
    assert [m["to"] for m in sink.about(ref)] == [[BOOKINGS]]


CAP = 4
WINDOW = 12  # seconds: PORTAL_MAIL_WINDOW_SECS, the window of the site's cap in this test


@pytest.fixture(scope="module")
def capped_dist():
    """fixtures/site built with `mail.max_per_hour: 4`."""
    content = Path(tempfile.mkdtemp(prefix="capped-", dir=servers.ROOT / "target")) / "content"
    shutil.copytree(servers.ROOT / "fixtures" / "site", content)
    with open(content / "site.yaml", "a", encoding="utf-8") as settings:
        settings.write(f"\nmail:\n  max_per_hour: {CAP}\n")
    out = content.parent / "dist"
    built = subprocess.run([str(servers.PORTAL), "build", "--content", str(content), "--out", str(out)],
                           capture_output=True, text=True, check=False)
    assert built.returncode == 0, built.stderr
    return out


def test_past_the_site_cap_submissions_are_stored_and_their_mail_waits_for_the_window(sink, capped_dist):
    state = state_dir()
    server = serve(state, sink.port, dist=capped_dist, env={"PORTAL_MAIL_WINDOW_SECS": str(WINDOW)})
    try:
        started = time.monotonic()
        refs = []
        for n in range(CAP + 1):  # 2 mails each: 10 mails under a cap of 4
            r = post(server, "/api/send-booking-confirmation", booking(email=f"capped.{n}@example.org"), address=f"10.24.0.{n}")
            assert r.status_code == 202, r.text
            refs.append(r.json()["reference"])
        voice_answer = post(server, "/api/submit-voice", voice(40), address="10.24.1.1")
        assert voice_answer.status_code == 202, "a story is not refused either"
        sink.wait_for(lambda msgs: len(msgs) >= CAP, "the first window's mails")
        time.sleep(1.5)  # anything past the cap would be sent by now if it were not held back
        held_back = len(sink.snapshot())
        early = time.monotonic() - started < WINDOW - 1
        kept = stored(state)
        assert all(ref in kept for ref in refs) and voice_answer.json()["id"] in kept, "every submission is stored"
        if early:  # (only meaningful while the first window is still open)
            assert held_back == CAP, f"{held_back} mails went out under a cap of {CAP}"
            assert sum(s["mailsPending"] for s in kept.values()) == 2 * len(refs) + 1 - CAP
        sink.wait_for(lambda msgs: len(msgs) >= 2 * CAP, "the second window's mails", timeout=WINDOW * 3 + WAIT)
        assert time.monotonic() - started >= WINDOW - 1, "the second window's mails waited for the first to end"
        sink.wait_for(lambda msgs: len(msgs) == 2 * len(refs) + 1, "every waiting mail", timeout=WINDOW * 3 + WAIT)
        order = [m["message"]["Message-ID"] for m in sink.snapshot()]
        outbox_ids = [int(i.split("-")[1].split(".")[0]) for i in order]
        assert outbox_ids == sorted(outbox_ids), "oldest first"
        assert len(set(order)) == len(order), "each mail once"
    finally:
        server.stop()
    kept = stored(state)
    assert all(s["mailsPending"] == 0 and s["mailsUndeliverable"] == 0 for s in kept.values()), kept


def test_a_voice_sent_many_times_at_once_with_one_key_is_stored_and_mailed_once(server, sink):
    """docs/spec/api-spec.md#idempotency: a phone retrying on a flaky connection, and a form tapped twice, store once."""
    body, key = voice(31), "0b7c2a52-3f6e-4c1e-9d0a-1f2e3d4c5b6a"

    def send(n):
        headers = {"X-Forwarded-For": f"10.20.1.{n + 1}", "Idempotency-Key": key}
        return requests.post(server.base_url + "/api/submit-voice", json=body, headers=headers, timeout=60)

    with ThreadPoolExecutor(8) as pool:
        answers = list(pool.map(send, range(8)))
    answers.append(send(9))
    assert {r.status_code for r in answers} <= {202, 409}, [r.text for r in answers]
    accepted = [r for r in answers if r.status_code == 202]
    assert len([r for r in accepted if "Idempotent-Replayed" not in r.headers]) == 1
    assert answers[-1].status_code == 202 and answers[-1].headers["Idempotent-Replayed"] == "true"
    [vid] = {r.json()["id"] for r in accepted}
    sink.wait_for(lambda _: sink.about(vid), "the editors' mail")
    time.sleep(1)
    assert len(sink.about(vid)) == 1
    assert [s for s in stored(server.state).values() if s["data"]["title"] == "Story 31"] == [stored(server.state)[vid]]
