"""A link to any page shows a preview where it is shared: Open Graph and Twitter card tags with the
page's title, description, address, language and picture (the record's, else none), a real icon
(the site's initial when site.yaml names none) and a theme colour."""

import re


def meta(page):
    found = dict(re.findall(r'<meta property="(og:[a-z_]+)" content="([^"]*)"', page))
    found.update(re.findall(r'<meta name="(twitter:[a-z]+|theme-color)" content="([^"]*)"', page))
    return found


def test_a_record_page_carries_its_preview(client):
    page = client.get("/news/water-points-reopen").text
    tags = meta(page)
    assert tags["og:title"] == "Water points reopen in Zone B"
    assert tags["og:url"].endswith("/news/water-points-reopen")
    assert tags["og:description"] and tags["twitter:card"] in {"summary", "summary_large_image"}
    assert tags["og:locale"] == "en" and tags["og:type"] == "article"
    assert re.match(r"#[0-9a-fA-F]{6}$", tags["theme-color"])


def test_every_listing_and_the_home_page_have_one_too_and_the_icon_is_served(client):
    for path in ["/", "/services", "/tags", "/encyclopedia"]:
        tags = meta(client.get(path).text)
        assert {"og:title", "og:description", "og:url", "twitter:card"} <= set(tags), path
    page = client.get("/").text
    icon = re.search(r'<link rel="icon" href="([^"]+)"', page).group(1)
    assert icon != "data:,"
    r = client.get("/" + icon.lstrip("/"))
    assert r.status_code == 200 and r.headers["Content-Type"].startswith("image/svg+xml")
    assert "<svg" in r.text
