"""The events as iCalendar (docs/standards.md#icalendar, docs/spec/api-spec.md#calendar): `/events.ics`
and `/events/<slug>.ics`, parsed with the `icalendar` package, on both servers."""

import datetime
import re

import icalendar

import spec

CALENDAR = spec.CALENDAR


def lines_of(body):
    """The physical lines of an iCalendar body, which must all end in CRLF."""
    assert body.endswith(b"\r\n")
    assert b"\n" not in body.replace(b"\r\n", b""), "a bare LF"
    return body[:-2].split(b"\r\n")


def events_of(body):
    calendar = icalendar.Calendar.from_ical(body)
    assert calendar["VERSION"] == "2.0" and str(calendar["PRODID"]).startswith("-//portal//")
    return {str(e["UID"]): e for e in calendar.walk("VEVENT")}


def test_the_calendar_of_every_event_is_crlf_folded_and_typed(client):
    r = client.get("/events.ics")
    assert r.status_code == 200
    assert r.headers["Content-Type"] == CALENDAR
    for line in lines_of(r.content):
        assert len(line) <= 75, line
        line.decode("utf-8")  # folding never splits a character
    events = events_of(r.content)
    records = client.get("/api/events").json()["data"]["events"]
    # Translations of one event are one VEVENT: the record in the site's language.
    api = {e["url"] for e in records if not e.get("language") or e["language"] == "en"}
    assert {str(e["URL"]) for e in events.values()} == {f"https://fixture.example.org{u}" for u in api}
    assert len(events) == len(api) == len(re.findall(rb"BEGIN:VEVENT", r.content)), "UIDs unique"
    assert all(uid.endswith("@fixture.example.org") for uid in events)


def test_long_text_is_folded_and_unfolds_to_the_escaped_value(client):
    body = client.get("/events.ics").content
    folded = [line for line in lines_of(body) if line.startswith(b" ")]
    assert folded, "market day's long description is folded"
    unfolded = body.replace(b"\r\n ", b"").decode("utf-8")
    assert "DESCRIPTION:Stalls of vegetables\\, crafts and tools\\; music\\, food and a repair corner\\, " in unfolded
    assert "SUMMARY:أمسية سينمائية\r\n" not in unfolded, "a translation is not a second event"
    arabic = client.get("/events/film-evening-ar.ics").content.replace(b"\r\n ", b"").decode("utf-8")
    assert "SUMMARY:أمسية سينمائية\r\n" in arabic
    assert "CATEGORIES:Santé communautaire,farming\r\n" in unfolded


def test_a_timed_event_is_in_utc_and_an_all_day_one_a_date(client):
    events = events_of(client.get("/events.ics").content)
    market = events["events/market-day@fixture.example.org"]
    assert market["DTSTART"].dt == datetime.datetime(2026, 12, 5, 5, 0, tzinfo=datetime.timezone.utc)
    assert market["DTEND"].dt == datetime.datetime(2026, 12, 5, 10, 30, tzinfo=datetime.timezone.utc)
    assert str(market["LOCATION"]) == "Market square, Zone B"
    fair = events["events/harvest-fair@fixture.example.org"]
    assert fair["DTSTART"].dt == datetime.date(2026, 8, 15) and "DTEND" not in fair
    assert str(fair["DESCRIPTION"]) == "Seeds, tools and the season's best vegetables."
    assert [str(c) for c in fair["CATEGORIES"].cats] == ["Santé communautaire", "farming"]
    gathering = events["events/old-gathering@fixture.example.org"]
    assert gathering["DTSTART"].dt == datetime.date(2026, 1, 10), "`date` stands in for `start`"


def test_stamps_come_from_the_content_and_are_never_after_the_build(client):
    """DTSTAMP is when the object was made: the record's `updated`/`date` (else its start), never
    after the build (`SOURCE_DATE_EPOCH` when set, as for the conformance build)."""
    first = client.get("/events.ics").content
    assert first == client.get("/events.ics").content
    built = datetime.datetime.fromisoformat(client.get("/api/status").json()["generatedAt"].replace("Z", "+00:00"))
    events = events_of(first)
    for uid, event in events.items():
        assert event["DTSTAMP"].dt <= built, (uid, event["DTSTAMP"].dt, built)
    assert events["events/old-gathering@fixture.example.org"]["DTSTAMP"].dt == datetime.datetime(
        2026, 1, 10, tzinfo=datetime.timezone.utc), "a stamp before the build is the content's"
    market = events["events/market-day@fixture.example.org"]["DTSTAMP"].dt
    assert market == built.replace(microsecond=0), "market day's `date` is after the build: the build's time"


def test_translations_of_one_event_share_one_uid(client):
    english = events_of(client.get("/events/film-evening.ics").content)
    arabic = events_of(client.get("/events/film-evening-ar.ics").content)
    assert list(english) == list(arabic) == ["events/film-evening@fixture.example.org"]
    assert str(arabic["events/film-evening@fixture.example.org"]["SUMMARY"]) == "أمسية سينمائية"
    feed = events_of(client.get("/events.ics").content)
    assert str(feed["events/film-evening@fixture.example.org"]["SUMMARY"]) == "Film evening"


def test_one_event_has_its_own_calendar_with_the_same_uid(client):
    r = client.get("/events/market-day.ics")
    assert r.status_code == 200 and r.headers["Content-Type"] == CALENDAR
    assert all(len(line) <= 75 for line in lines_of(r.content))
    events = events_of(r.content)
    assert list(events) == ["events/market-day@fixture.example.org"]
    whole = events_of(client.get("/events.ics").content)
    assert events["events/market-day@fixture.example.org"].to_ical() == whole["events/market-day@fixture.example.org"].to_ical()
    missing = client.get("/events/no-such-event.ics")
    assert missing.status_code == 404 and missing.headers["Content-Type"] == "application/problem+json"


def test_pages_link_the_calendars(client):
    listing = client.get("/events").text
    assert '<link rel="alternate" type="text/calendar"' in listing
    assert re.search(r'<a href="[^"]*events\.ics" type="text/calendar">Subscribe to the events calendar</a>', listing)
    page = client.get("/events/market-day").text
    assert re.search(r'<a href="[^"]*market-day\.ics" type="text/calendar" download>Add to calendar</a>', page)
