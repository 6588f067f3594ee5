"""What a resident does with a page on a phone (Chromium at 360 px, touch): tap a number, an
address or a file, read when and where an event is, reach the forms, read facts in words, read
mixed scripts in order, share a link that shows a preview. Checked on the sample site and on a
site the test writes itself (`portal init` plus records of the kinds these rules are for), so the
rules hold for content they were not written against. docs/content.md#facts."""

import re
import subprocess
import tempfile
from pathlib import Path

import pytest

import servers
from conftest import PHONE
from test_accessibility import check

# Records of the kinds the rules are for, written as editors write them (one with Windows line
# endings), in a site whose zone is a name (times written in UTC show in Kampala's time).
SITE_YAML = """
timezone: Africa/Kampala
booking: {}
labels:
  zone-b: Zone B
  mobile-money: Mobile money
image: /media/welcome.jpg
theme_color: "#0b5cad"
"""
RECORDS = {
    "events/night-market.md": """---
title: Night market
date: 2026-12-23
summary: Stalls and music by the water tower.
start: 2026-12-23T05:00:00Z
end: 2026-12-23T16:00:00Z
venue: Water tower square
zone: zone-b
---
Bring a torch.
""",
    "events/harvest-week.md": """---
title: Harvest week
date: 2026-12-01
summary: Five days of harvest work in the shared fields.
start: 2026-12-01T06:00:00+03:00
end: 2026-12-05T18:00:00+03:00
venue: Shared fields
---
Tools are lent at the gate.
""",
    "services/health-post.md": """---
title: Health post
summary: First aid and referrals, day and night.
phone: "+256 700 000 104"
emergency_phone: "0800 100 200"
email: care@healthpost.example.org
whatsapp: "+256 700 000 105"
website: https://healthpost.example.org/a/very/long/address/that/would/push/a/phone/page/sideways/if/it/did/not/wrap
payment_methods: [cash, mobile-money]
zone: zone-b
moderated: true
spatial_id: hp-7
contact:
  desk: 0700 000 106
  form: /media/referral-form.pdf
---
Call **+256 700 000 104** at any hour.
""".replace("\n", "\r\n"),
    "artists/amina-odera.md": "---\ntitle: Amina Odera\nsummary: Potter.\n---\nAmina makes water jars.\n",
    "artworks/water-jar.md": """---
title: Water jar
summary: A fired clay jar.
artist: amina-odera
price: 30000
currency: UGX
---
Glazed inside.
""",
    "news/market-story-ar.md": """---
title: قصة من السوق
date: 2026-11-18
language: ar
summary: افتتح السوق الجديد أبوابه.
---
افتتح السوق الجديد أبوابه يوم 18 November 2026. للاتصال: +256 700 000 104

The new market opened its doors on 18 November, with forty stalls.
""",
    "community-voices/our-garden.md": """---
title: Our garden
date: 2026-11-02
author: Neema
summary: Beans and maize behind the school.
---
We planted beans and maize behind the school.
""",
}
PAGES = ["/", "/events", "/events/night-market", "/events/harvest-week", "/services/health-post",
         "/artworks/water-jar", "/news/market-story-ar", "/community-voices", "/community-voices/our-garden"]


@pytest.fixture(scope="module")
def written_site():
    """`portal serve` over a site the test writes and builds; yields its base URL."""
    root = Path(tempfile.mkdtemp(prefix="residents-", dir=servers.ROOT / "target"))
    run = lambda *args: subprocess.run([str(servers.PORTAL), *args], cwd=root, check=True, capture_output=True)  # noqa: E731
    run("init", ".")
    content = root / "content"
    with open(content / "site.yaml", "a", encoding="utf-8") as site:
        site.write(SITE_YAML)
    for name, text in RECORDS.items():
        (content / name).parent.mkdir(parents=True, exist_ok=True)
        (content / name).write_bytes(text.encode("utf-8"))
    (content / "static" / "media" / "referral-form.pdf").write_bytes(b"%PDF-1.4\n" + b"0" * 3000)
    run("build", "--content", "content", "--out", "dist")
    server = servers.start_portal(["serve", "--dist", str(root / "dist"), "--port", "0", "--rate-limit", "1000000",
                                   "--state", str(root / "state")], env={"PORTAL_SMTP_URL": ""})
    yield server.base_url
    server.stop()


@pytest.fixture
def phone(browser):
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    yield context.new_page()
    context.close()


def tappable(page, selector):
    """The links matching `selector`, each checked to be on screen, not covered by anything else
    (what a finger lands on is the link) and, for a number, on one line (never broken across
    two, where it would be misread)."""
    links = page.locator(selector)
    assert links.count() > 0, f"no {selector} on {page.url}"
    for i in range(links.count()):
        link = links.nth(i)
        link.scroll_into_view_if_needed()
        if link.get_attribute("dir") == "ltr":
            assert link.evaluate("e => e.getClientRects().length") == 1, f"{link.inner_text()} is broken across lines"
        # A finger lands on the middle of the link's first line: that point is the link's.
        box = link.evaluate("e => { const r = e.getClientRects()[0]; return {x: r.x, y: r.y, width: r.width, "
                            "height: r.height}; }")
        assert box["width"] > 0 and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"] + 1, box
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        hit = page.evaluate("([x, y]) => { const e = document.elementFromPoint(x, y); return e && e.closest('a') "
                            "&& e.closest('a').getAttribute('href'); }", [x, y])
        assert hit == link.get_attribute("href"), f"{selector} #{i} on {page.url} is covered ({hit})"
    return [links.nth(i).get_attribute("href") for i in range(links.count())]


def fact(page, label):
    return page.locator(f"dl.facts dt:text-is('{label}') + dd")


def test_the_written_site_passes_axe_and_fits_a_phone(written_site, browser):
    check(browser, written_site, PAGES, PHONE, "light")


def test_numbers_addresses_and_files_can_be_tapped(written_site, phone):
    phone.goto(written_site + "/services/health-post")
    assert set(tappable(phone, "main a[href^='tel:']")) == {"tel:+256700000104", "tel:0800100200", "tel:0700000106"}
    assert fact(phone, "Phone").inner_text() == "+256 700 000 104", "shown as written"
    assert tappable(phone, "main a[href^='mailto:']") == ["mailto:care@healthpost.example.org"]
    assert tappable(phone, "a[href^='https://wa.me/']") == ["https://wa.me/256700000105"]
    download = phone.locator("a[download]")
    assert download.count() == 1 and "(3 KB)" in fact(phone, "Contact").inner_text()
    assert phone.request.get(written_site + "/media/referral-form.pdf").ok
    body_link = phone.locator(".body a[href='tel:+256700000104']")
    assert body_link.count() == 1, "a number in the text can be tapped too"


def test_an_event_says_when_in_the_sites_zone_and_its_listing_says_where(written_site, phone):
    phone.goto(written_site + "/events/night-market")
    when = fact(phone, "When")
    assert when.inner_text() == "23 December 2026, 08:00-19:00", "05:00Z is 08:00 in Kampala"
    assert fact(phone, "Date").count() == 0, "the start's day is said once"
    phone.goto(written_site + "/events/harvest-week")
    assert fact(phone, "When").inner_text() == "1 December 2026, 06:00 - 5 December 2026, 18:00"
    phone.goto(written_site + "/events")
    listing = phone.locator("main").inner_text()
    assert "23 December 2026, 08:00-19:00 · Water tower square, Zone B" in listing


def test_the_forms_can_be_reached_from_the_pages_that_mention_them(written_site, phone):
    for path in ["/community-voices", "/community-voices/our-garden"]:
        phone.goto(written_site + path)
        assert "/community-voices/new" in tappable(phone, "main a[href$='community-voices/new']")[0]
    phone.goto(written_site + "/")
    assert tappable(phone, "main a[href$='visit']") and tappable(phone, "footer a[href$='visit']")
    sitemap = phone.request.get(written_site + "/sitemap.xml").text()
    assert "/community-voices/new</loc>" in sitemap and "/visit</loc>" in sitemap


def test_facts_read_in_words(written_site, phone):
    phone.goto(written_site + "/artworks/water-jar")
    artist = fact(phone, "Artist").locator("a")
    assert artist.inner_text() == "Amina Odera"
    # Wait for the navigation the tap starts, not the load state of the page already shown.
    with phone.expect_navigation():
        artist.tap()
    assert phone.locator("h1").inner_text() == "Amina Odera"
    phone.goto(written_site + "/artworks/water-jar")
    assert fact(phone, "Price").inner_text() == "30,000 UGX"
    phone.goto(written_site + "/services/health-post")
    assert fact(phone, "Payment methods").inner_text() == "cash, Mobile money"
    assert fact(phone, "Zone").inner_text() == "Zone B"
    labels = phone.locator("dl.facts dt").all_inner_texts()
    assert not {"Moderated", "Spatial id"} & set(labels), labels


def test_mixed_scripts_read_in_order(written_site, phone):
    phone.goto(written_site + "/news/market-story-ar")
    paragraphs = phone.locator(".body p")
    direction = "e => getComputedStyle(e).direction"
    assert paragraphs.nth(0).evaluate(direction) == "rtl"
    assert paragraphs.nth(1).evaluate(direction) == "ltr", "an English paragraph in an Arabic story"
    # The date and the number inside Arabic text are isolated: their words keep their order.
    assert paragraphs.nth(0).locator("bdi").inner_text() == "18 November 2026"
    number = paragraphs.nth(0).locator("a[href^='tel:']")
    assert number.evaluate(direction) == "ltr" and number.inner_text() == "+256 700 000 104"
    assert fact(phone, "Date").locator("bdi").count() == 1
    assert phone.locator("dl.facts dt").first.inner_text() == "Date", "labels follow the interface language"


def test_a_shared_link_shows_a_preview(written_site, phone):
    phone.goto(written_site + "/events/night-market")
    meta = lambda key: phone.locator(f"meta[property='{key}'], meta[name='{key}']").first.get_attribute("content")  # noqa: E731
    assert meta("og:title") == "Night market"
    assert meta("og:description") == "Stalls and music by the water tower."
    assert meta("og:url").endswith("/events/night-market") and meta("og:locale") == "en"
    assert meta("og:image").endswith("/media/welcome.jpg"), "the site's picture when the record has none"
    assert meta("twitter:card") and meta("theme-color") == "#0b5cad"
    icon = phone.locator("link[rel='icon']").first.get_attribute("href")
    assert phone.request.get(written_site + "/" + icon.lstrip("/").removeprefix("../")).ok


def test_the_sample_site_can_be_acted_on(site, phone):
    """The sample site's own pages: the urgent numbers can be tapped, the market says its hours,
    an artwork names its artist."""
    base_url, _ = site
    phone.goto(base_url + "/urgent-help")
    numbers = tappable(phone, ".body a[href^='tel:']")
    assert "tel:+256700000100" in numbers and len(numbers) >= 4, numbers
    phone.goto(base_url + "/events/end-of-year-market")
    assert fact(phone, "When").inner_text() == "23 December 2026, 08:00-19:00"
    phone.goto(base_url + "/artworks/peace-drum")
    assert fact(phone, "Artist").locator("a").inner_text() == "Abdirahman Yusuf"
    phone.goto(base_url + "/")
    assert re.search(r"visit", " ".join(tappable(phone, "a[href$='visit']")))
