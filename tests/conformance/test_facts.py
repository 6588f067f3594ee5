"""A record's facts read as words a resident can act on (docs/content.md#facts): phone
numbers are `tel:` links, WhatsApp numbers `wa.me` links, e-mail addresses `mailto:` links, web
addresses links, slugs shown through the site's labels, a price with its currency grouped, and
internal keys left off the page though kept in the JSON. fixtures/site/services/legal-aid.yml has
one of each."""

import re


def facts(page):
    block = re.search(r'<dl class="facts">(.*?)</dl>', page, re.S).group(1)
    return dict(re.findall(r"<dt>(.*?)</dt><dd>(.*?)</dd>", block, re.S))


def test_phone_numbers_addresses_and_links_can_be_tapped(client):
    shown = facts(client.get("/services/legal-aid").text)
    assert shown["Phone"] == '<a dir="ltr" href="tel:+256700000104">+256 700 000 104</a>'
    assert shown["WhatsApp"] == '<a dir="ltr" href="https://wa.me/256700000105">+256 700 000 105</a>'
    assert shown["Email"] == '<a href="mailto:desk@legal.example.org">desk@legal.example.org</a>'
    contact = shown["Contact"]
    assert '<a dir="ltr" href="tel:0700000106">0700 000 106</a>' in contact
    assert '<a href="https://legal.example.org/desk">https://legal.example.org/desk</a>' in contact


def test_slugs_read_as_labels_prices_are_grouped_and_internal_keys_are_left_off(client):
    shown = facts(client.get("/services/legal-aid").text)
    assert shown["Zone"] == "Zone B"
    assert shown["Price"] == "30,000 UGX" and "Currency" not in shown
    assert not {"Moderated", "Spatial id"} & set(shown), shown.keys()
    record = client.get("/api/services/legal-aid").json()["data"]["services"][0]
    assert record["moderated"] is True and record["spatial_id"] == "sr-0042", "the JSON keeps every key"


def test_the_markdown_twin_links_them_too(client):
    text = client.get("/services/legal-aid", headers={"Accept": "text/markdown"}).text
    assert "[+256 700 000 104](tel:+256700000104)" in text
    assert "[desk@legal.example.org](mailto:desk@legal.example.org)" in text
    assert "Moderated" not in text


def test_an_event_says_when_on_one_line_and_its_listing_says_when_and_where(client):
    shown = facts(client.get("/events/market-day").text)
    assert shown["When"] == "<bdi>5 December 2026, 08:00-13:30</bdi>", shown
    assert "Starts" not in shown and "Ends" not in shown
    listing = client.get("/events").text + client.get("/events/page/2").text
    assert "<bdi>5 December 2026, 08:00-13:30</bdi> · Market square, Zone B" in listing


def test_mixed_scripts_keep_their_order_in_a_right_to_left_record(client):
    page = client.get("/events/film-evening-ar").text
    assert '<article lang="ar" dir="rtl">' in page
    shown = facts(page)
    assert shown["When"].startswith("<bdi>") and "2026" in shown["When"], shown
    body = re.search(r'<div class="body">(.*?)</div>', page, re.S).group(1)
    assert '<p dir="auto">' in body, "each block takes its direction from its own text"
    phone = facts(client.get("/services/legal-aid").text)["Phone"]
    assert phone.startswith('<a dir="ltr"'), "a number reads left to right inside any text"
