"""Action endpoints (docs/spec/api-spec.md#actions): validation, 202 shapes, export."""

import uuid
from datetime import datetime, timedelta, timezone

import pytest

from conftest import problem
from test_collections import COLLECTIONS


def today():
    return datetime.now(timezone.utc).date()


def future(days=30):
    return (today() + timedelta(days=days)).isoformat()


def post_json(client, path, body):
    return client.post(path, json=body)


def fields(doc):
    return [e["field"] for e in doc["errors"]]


def invalid(response, *names):
    """Asserts a 400 invalid_body listing exactly `names`, one entry each."""
    doc = problem(response, 400, "invalid_body")
    assert fields(doc) == list(names), doc
    assert all(e["message"] for e in doc["errors"])
    return doc


BOOKING = {
    "name": "Ana Mwangi",
    "visitTime": "10:30",
    "groupSize": "1-5",
    "tourType": "community-walk",
}


def booking(**changes):
    """A valid booking, to an address of its own (one address gets at most 3 confirmations a day)."""
    body = {**BOOKING, "email": f"ana.{uuid.uuid4().hex[:12]}@example.org", "visitDate": future(), **changes}
    return {k: v for k, v in body.items() if v is not None}


VOICE = {"title": "Our market garden", "author": "Ana", "content": "We planted beans.\nThey grew."}


def voice(**changes):
    return {k: v for k, v in {**VOICE, **changes}.items() if v is not None}


# --- export -------------------------------------------------------------------------------------


def test_get_export_describes_the_endpoint(client):
    r = client.get("/api/export")
    assert r.status_code == 200
    doc = r.json()
    assert doc["method"] == "POST"
    assert doc["supportedCollections"] == COLLECTIONS
    assert set(doc["body"]["properties"]) == {"collections", "options"}
    assert set(doc["options"]) == {"includeMetadata", "includeStats"}


def test_export_answers_one_array_per_collection(client):
    r = post_json(client, "/api/export", {"collections": ["news", "events"]})
    assert r.status_code == 200
    doc = r.json()
    assert doc["status"] == "success"
    assert list(doc["data"]) == ["news", "events"]
    assert doc["data"]["news"] == client.get("/api/news").json()["data"]["news"]
    assert "metadata" not in doc and "stats" not in doc


def test_export_options_add_metadata_and_stats_at_the_top_level(client):
    body = {"collections": ["news", "profiles"], "options": {"includeMetadata": True, "includeStats": True}}
    doc = post_json(client, "/api/export", body).json()
    assert doc["metadata"]["collections"] == ["news", "profiles"]
    assert doc["metadata"]["totalCollections"] == 2
    exported = datetime.fromisoformat(doc["metadata"]["exportDate"].replace("Z", "+00:00"))
    assert exported.date() >= today() - timedelta(days=1), "exportDate is the time of the request, not the build"
    per = {name: len(doc["data"][name]) for name in ("news", "profiles")}
    assert doc["stats"] == {"totalItems": sum(per.values()), "itemsPerCollection": per}


def test_export_names_unknown_collections(client):
    doc = invalid(post_json(client, "/api/export", {"collections": ["news", "nonsense"]}), "collections")
    assert "nonsense" in doc["errors"][0]["message"]


@pytest.mark.parametrize("body", [{}, {"collections": []}, {"collections": "news"}, {"collections": [1]}])
def test_export_needs_a_non_empty_list_of_names(client, body):
    invalid(post_json(client, "/api/export", body), "collections")


def test_export_rejects_non_boolean_options(client):
    r = post_json(client, "/api/export", {"collections": ["news"], "options": {"includeStats": "yes"}})
    invalid(r, "options.includeStats")


# --- bodies shared by every action --------------------------------------------------------------


@pytest.mark.parametrize("path", ["/api/export", "/api/match-category", "/api/submit-voice", "/api/send-booking-confirmation"])
def test_an_action_body_must_be_a_json_object(client, path):
    for raw in ["", "{not json", "[1, 2]"]:
        r = client.post(path, data=raw, headers={"Content-Type": "application/json"})
        invalid(r, "body")
    problem(client.post(path, data="title=x", headers={"Content-Type": "text/plain"}), 415, "unsupported_media_type")


@pytest.mark.parametrize("path", ["/api/export", "/api/match-category", "/api/submit-voice", "/api/send-booking-confirmation"])
def test_action_posts_count_against_the_rate_limit(client, path):
    first = client.post(path, json={})
    second = client.post(path, json={})
    assert first.headers["RateLimit-Limit"] == "60"
    assert int(second.headers["RateLimit-Remaining"]) == int(first.headers["RateLimit-Remaining"]) - 1


def test_export_lists_bad_collections_and_bad_options_together(client):
    r = post_json(client, "/api/export", {"collections": ["nope"], "options": {"includeMetadata": 1}})
    invalid(r, "collections", "options.includeMetadata")


# --- match-category -----------------------------------------------------------------------------


def test_match_category_counts_published_profiles_case_insensitively(client):
    r = post_json(client, "/api/match-category", {"category": "TAILORING"})
    assert r.status_code == 200
    assert r.json() == {"status": "success", "category": "TAILORING", "matched": True, "profiles": 2}


def test_match_category_ignores_drafts_and_answers_no_match(client):
    doc = post_json(client, "/api/match-category", {"category": "welding"}).json()
    assert doc["matched"] is False and doc["profiles"] == 0


@pytest.mark.parametrize("value", [None, "", "   ", 7])
def test_match_category_needs_a_category(client, value):
    body = {} if value is None else {"category": value}
    invalid(post_json(client, "/api/match-category", body), "category")


# --- submit-voice -------------------------------------------------------------------------------


def test_a_voice_is_accepted_with_202_and_an_id(client):
    r = post_json(client, "/api/submit-voice", voice())
    assert r.status_code == 202, r.text
    doc = r.json()
    assert doc["status"] == "success"
    assert set(doc) == {"status", "id", "receivedAt", "message"}
    assert len(doc["id"]) >= 16
    datetime.fromisoformat(doc["receivedAt"].replace("Z", "+00:00"))


def test_two_voices_get_different_ids(client):
    a = post_json(client, "/api/submit-voice", voice()).json()["id"]
    b = post_json(client, "/api/submit-voice", voice(title="Another story")).json()["id"]
    assert a != b


def test_a_voice_lists_every_missing_field(client):
    invalid(post_json(client, "/api/submit-voice", {}), "title", "author", "content")


def test_a_voice_field_of_only_spaces_is_missing(client):
    invalid(post_json(client, "/api/submit-voice", voice(author="   ")), "author")


@pytest.mark.parametrize("name,limit", [("title", 200), ("author", 100), ("content", 20000)])
def test_voice_fields_have_length_limits(client, name, limit):
    assert post_json(client, "/api/submit-voice", voice(**{name: "x" * limit})).status_code == 202
    invalid(post_json(client, "/api/submit-voice", voice(**{name: "x" * (limit + 1)})), name)


@pytest.mark.parametrize("name", ["title", "author"])
@pytest.mark.parametrize("brk", ["\r\n", "\n", "\r"])
def test_a_line_break_in_a_header_bound_voice_field_is_rejected(client, name, brk):
    invalid(post_json(client, "/api/submit-voice", voice(**{name: f"Hi{brk}Bcc: victim@example.net"})), name)


def test_voice_content_may_have_line_breaks(client):
    assert post_json(client, "/api/submit-voice", voice(content="one\r\ntwo\nthree")).status_code == 202


def test_voice_fields_must_be_strings(client):
    invalid(post_json(client, "/api/submit-voice", voice(title=["a"], content=5)), "title", "content")


# --- send-booking-confirmation ------------------------------------------------------------------


def test_a_booking_is_accepted_with_202_a_reference_and_the_booking(client):
    body = booking(meetingPoint="main-gate", paymentMethod="cash")
    r = post_json(client, "/api/send-booking-confirmation", body)
    assert r.status_code == 202, r.text
    doc = r.json()
    assert doc["status"] == "success" and doc["reference"] and doc["message"]
    assert doc["booking"] == body


def test_a_booking_may_be_for_today(client):
    assert post_json(client, "/api/send-booking-confirmation", booking(visitDate=today().isoformat())).status_code == 202


def test_a_booking_lists_every_missing_required_field(client):
    r = post_json(client, "/api/send-booking-confirmation", {"meetingPoint": "main-gate"})
    invalid(r, "name", "email", "visitDate", "visitTime", "groupSize", "tourType")


def test_a_booking_lists_every_invalid_field_at_once(client):
    body = booking(name="A\nB", email="nope", visitDate="2020-01-01", visitTime="25:00", groupSize="99",
                   tourType="x", meetingPoint="y", paymentMethod="z")
    invalid(post_json(client, "/api/send-booking-confirmation", body), "name", "email", "visitDate", "visitTime",
            "groupSize", "tourType", "meetingPoint", "paymentMethod")


@pytest.mark.parametrize("brk", ["\r\n", "\n", "\r"])
def test_a_line_break_in_the_name_is_rejected(client, brk):
    invalid(post_json(client, "/api/send-booking-confirmation", booking(name=f"Ana{brk}Bcc: x@example.net")), "name")


def test_a_line_break_in_the_email_is_rejected(client):
    body = booking(email="ana@example.org\r\nBcc: victim@example.net")
    invalid(post_json(client, "/api/send-booking-confirmation", body), "email")


@pytest.mark.parametrize("email", [
    "ana.example.org", "ana@@example.org", "a@b@example.org", "ana maria@example.org", "ana@localhost",
    "ana@example..org", ".ana@example.org", "ana@-example.org", "ana@example.org,victim@example.net",
    "<ana@example.org>", "a" * 65 + "@example.org", "ana@" + "b" * 250 + ".org",
])
def test_an_email_a_mail_server_would_refuse_is_rejected(client, email):
    invalid(post_json(client, "/api/send-booking-confirmation", booking(email=email)), "email")


@pytest.mark.parametrize("date", ["yesterday", "past", "2027-02-30", "05/01/2027", "2027-1-5", "2026\ufeff-21",
                                  "2027-01-0\u00e9"])
def test_a_visit_date_must_be_a_calendar_date_not_in_the_past(client, date):
    value = {"yesterday": (today() - timedelta(days=1)).isoformat(), "past": "2001-01-01"}.get(date, date)
    invalid(post_json(client, "/api/send-booking-confirmation", booking(visitDate=value)), "visitDate")


@pytest.mark.parametrize("time", ["24:00", "9:30", "10:60", "10:30pm", "10h30", "1\u00e9:3"])
def test_a_visit_time_must_be_hh_mm_24h(client, time):
    invalid(post_json(client, "/api/send-booking-confirmation", booking(visitTime=time)), "visitTime")


@pytest.mark.parametrize("field", ["groupSize", "tourType", "meetingPoint", "paymentMethod"])
def test_choice_fields_take_only_the_values_of_site_yaml(client, field):
    doc = invalid(post_json(client, "/api/send-booking-confirmation", booking(**{field: "something-else"})), field)
    assert "must be one of" in doc["errors"][0]["message"]


def same_for_any_address(response):
    """What a client sees of a booking's answer, with what differs by design blanked: the date, the
    client's rate-limit counts, the reference and the address the booking echoes back."""
    body = response.json()
    typed = body["booking"]["email"]
    body["message"] = body["message"].replace(typed, "EMAIL")
    body["reference"], body["booking"]["email"] = "REF", "EMAIL"
    varying = {"date", "content-length", "cf-ray", "report-to", "nel"}
    # The client's own budget counts down with every request, whatever was booked before.
    headers = {k.lower(): v for k, v in response.headers.items()
               if k.lower() not in varying and "ratelimit" not in k.lower()}
    return response.status_code, headers, body


def test_a_fourth_booking_to_one_address_is_answered_exactly_like_a_new_one(new_client):
    address = f"Quota.{uuid.uuid4().hex[:12]}@Example.org"
    local, domain = address.split("@")
    spellings = [address, f"{local}+tag@{domain}", f" {address.upper()} "]
    for spelling in spellings:
        r = post_json(new_client(), "/api/send-booking-confirmation", booking(email=spelling))
        assert r.status_code == 202, r.text
    seen = post_json(new_client(), "/api/send-booking-confirmation", booking(email=address.lower()))
    new = post_json(new_client(), "/api/send-booking-confirmation", booking())
    assert seen.status_code == 202 and "Retry-After" not in seen.headers, seen.text
    assert same_for_any_address(seen) == same_for_any_address(new)
    assert seen.json()["reference"] != new.json()["reference"]
