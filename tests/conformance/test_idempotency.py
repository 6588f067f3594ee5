"""Idempotency keys on the submission POSTs (docs/spec/api-spec.md#idempotency): a story or booking sent again with
its key is answered with the first answer and stored once, on every server. The count of what is stored is checked on
`portal serve` in tests/native/test_outbox.py (the SMTP sink and `portal submissions`)."""

import re
import uuid
from datetime import date, timedelta

from conftest import problem

VOICE = {"title": "Idempotent beans", "author": "Ana", "content": "We grew beans once."}


def keyed(key):
    return {"Idempotency-Key": key}


def booking():
    return {"name": "Amina Yusuf", "email": f"amina.{uuid.uuid4().hex[:12]}@example.org",
            "visitDate": str(date.today() + timedelta(days=30)), "visitTime": "10:30", "groupSize": "1-5",
            "tourType": "community-walk"}


def test_a_voice_sent_again_with_its_key_gets_the_first_answer_marked_replayed(client):
    key = str(uuid.uuid4())
    first = client.post("/api/submit-voice", json=VOICE, headers=keyed(key))
    again = client.post("/api/submit-voice", json=VOICE, headers=keyed(f'"{key}"'))
    assert (first.status_code, again.status_code) == (202, 202), again.text
    assert again.json() == first.json()
    assert "Idempotent-Replayed" not in first.headers
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.headers["Cache-Control"] == first.headers["Cache-Control"] == "no-store"


def test_a_booking_sent_again_with_its_key_gets_the_first_reference(client):
    key, body = str(uuid.uuid4()), booking()
    first = client.post("/api/send-booking-confirmation", json=body, headers=keyed(key))
    again = client.post("/api/send-booking-confirmation", json=body, headers=keyed(key))
    assert (first.status_code, again.status_code) == (202, 202), again.text
    assert again.json()["reference"] == first.json()["reference"]
    assert again.headers["Idempotent-Replayed"] == "true"


def test_the_same_key_with_another_body_is_422(client):
    key = str(uuid.uuid4())
    assert client.post("/api/submit-voice", json=VOICE, headers=keyed(key)).status_code == 202
    other = client.post("/api/submit-voice", json={**VOICE, "title": "Other beans"}, headers=keyed(key))
    problem(other, 422, "idempotency_key_reused")


def test_one_key_at_two_endpoints_is_two_keys(client):
    key = str(uuid.uuid4())
    assert client.post("/api/submit-voice", json=VOICE, headers=keyed(key)).status_code == 202
    r = client.post("/api/send-booking-confirmation", json=booking(), headers=keyed(key))
    assert r.status_code == 202 and "Idempotent-Replayed" not in r.headers


def test_a_refused_submission_keeps_no_answer_so_the_key_may_be_retried(client):
    key = str(uuid.uuid4())
    problem(client.post("/api/submit-voice", json={**VOICE, "title": ""}, headers=keyed(key)), 400, "invalid_body")
    assert client.post("/api/submit-voice", json={**VOICE, "title": ""}, headers=keyed(key)).status_code == 400
    r = client.post("/api/submit-voice", json=VOICE, headers=keyed(key))
    assert r.status_code == 202 and "Idempotent-Replayed" not in r.headers


def test_a_key_over_255_characters_or_empty_is_400(client):
    for key in ["k" * 256, '""']:
        problem(client.post("/api/submit-voice", json=VOICE, headers=keyed(key)), 400, "bad_request")
    assert client.post("/api/submit-voice", json=VOICE, headers=keyed("k" * 255)).status_code == 202


def test_browsers_may_send_the_key_and_read_the_replay_mark(client):
    r = client.request("OPTIONS", "/api/submit-voice", headers={"Origin": "https://example.org"})
    assert "Idempotency-Key" in r.headers["Access-Control-Allow-Headers"]
    assert "Idempotent-Replayed" in r.headers["Access-Control-Expose-Headers"]


def form_key(page):
    found = re.search(r'<input type="hidden" name="idempotency_key" value="([0-9a-f-]{36})">', page)
    assert found, page[:2000]
    return found.group(1)


def test_each_form_page_carries_a_fresh_key(client):
    keys = {form_key(client.get(path).text) for path in ["/community-voices/new", "/community-voices/new", "/visit"]}
    assert len(keys) == 3


def test_a_form_posted_twice_with_its_key_leads_to_one_confirmation(client):
    key = form_key(client.get("/community-voices/new").text)
    form = {**VOICE, "website": "", "idempotency_key": key}
    headers = {"Content-Type": "application/x-www-form-urlencoded"}
    first = client.post("/community-voices/new", data=form, headers=headers)
    again = client.post("/community-voices/new", data=form, headers=headers)
    assert (first.status_code, again.status_code) == (303, 303)
    assert again.headers["Location"] == first.headers["Location"]
    assert again.headers["Idempotent-Replayed"] == "true"
    other = client.post("/community-voices/new", data={**form, "title": "Changed"}, headers=headers)
    assert other.status_code == 422 and other.headers["Content-Type"] == "text/html; charset=utf-8"


def test_a_form_sent_back_invalid_offers_a_new_key(client):
    key = form_key(client.get("/visit").text)
    r = client.post("/visit", data={**booking(), "name": "", "website": "", "idempotency_key": key},
                    headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert r.status_code == 400
    assert form_key(r.text) != key
