"""Both forms are reachable from the pages people read: the community-voices listing and every voice
link the story form, the booking form is linked from the pages site.yaml names (`booking.link_from`,
default the home page and every page's footer), and both forms are in the sitemap."""

import re


def links(page):
    return set(re.findall(r'<a href="([^"]+)"', page))


def test_the_story_form_is_linked_from_the_voices_listing_and_every_footer(client):
    listing = client.get("/community-voices").text
    main = re.search(r"<main[^>]*>(.*)</main>", listing, re.S).group(1)
    assert any(link.endswith("/community-voices/new") for link in links(main)), main[:800]
    footer = re.search(r"<footer.*</footer>", client.get("/news").text, re.S).group(0)
    assert any(link.endswith("community-voices/new") or link.endswith("community-voices/new.html") for link in links(footer))


def test_the_booking_form_is_linked_from_the_home_page_and_the_footer(client):
    home = client.get("/").text
    main = re.search(r"<main[^>]*>(.*)</main>", home, re.S).group(0)
    assert any(link.rstrip("/").endswith("visit") or link.endswith("visit.html") for link in links(main + home[home.index("</main>"):]))
    footer = re.search(r"<footer.*</footer>", client.get("/services").text, re.S).group(0)
    assert any(link.endswith("visit") or link.endswith("visit.html") for link in links(footer))


def test_both_forms_are_in_the_sitemap(client):
    sitemap = client.get("/sitemap.xml").text
    locs = re.findall(r"<loc>([^<]+)</loc>", sitemap)
    assert any(loc.endswith("/visit") for loc in locs) and any(loc.endswith("/community-voices/new") for loc in locs)
