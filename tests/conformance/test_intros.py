"""Pages at the site's own URLs: a content page written where the site generates a page (a listing,
a form, `/tags`, `/encyclopedia`) introduces that page instead of breaking the build. Its title
heads the page and its `<title>`, its summary is the description, its body comes before what the
site generates there, and the generated page keeps everything it had. The fixture site has such
pages (fixtures/site/pages/{services,visit,tags,encyclopedia}.md and community-voices/new.md, one
with Windows line endings, one with a byte-order mark)."""

import re

from test_forms import controls, form_post, html, visit


def main_of(page):
    return re.search(r"<main[^>]*>(.*)</main>", page, re.S).group(1)


def title_of(page):
    return re.search(r"<title>(.*?)</title>", page, re.S).group(1)


def description_of(page):
    return re.search(r'<meta name="description" content="([^"]*)"', page).group(1)


def assert_introduced(page, title, body, generated):
    """`title` is the page's one heading and starts its `<title>`; `body` comes before `generated`."""
    main = main_of(page)
    assert re.findall(r"<h1>(.*?)</h1>", main) == [title], main[:600]
    assert title_of(page).startswith(title)
    assert body in main and generated in main, main[:1500]
    assert main.index(body) < main.index(generated), "the introduction comes before what the site generates"


def test_a_page_at_a_collection_listing_introduces_it(client):
    page = html(client.get("/services"))
    assert_introduced(page, "Services in the settlement", "free of charge at the gatehouse desk", 'class="records"')
    assert description_of(page) == "Where to get help, and how."
    assert 'href="services/cafe-amani.html"' in main_of(page), "the listing is kept"


def test_a_page_at_the_tags_index_and_the_encyclopedia_introduces_them(client):
    tags = html(client.get("/tags"))
    assert_introduced(tags, "Topics", "Each topic gathers the pages that share it.", 'class="terms"')
    encyclopedia = html(client.get("/encyclopedia"))
    assert_introduced(encyclopedia, "Encyclopedia of settlement life", "<strong>legal aid desk</strong>", "<section")
    assert description_of(encyclopedia) == "Plain-language entries, reviewed by the legal aid desk."


def test_markdown_twins_carry_the_introduction(client):
    for path, title, body, generated in [
        ("/services", "Services in the settlement", "free of charge at the gatehouse desk", "JSON: <"),
        ("/tags", "Topics", "Each topic gathers", "- ["),
        ("/encyclopedia", "Encyclopedia of settlement life", "**legal aid desk**", "## "),
    ]:
        r = client.get(path, headers={"Accept": "text/markdown"})
        assert r.status_code == 200 and r.headers["Content-Type"].startswith("text/markdown")
        text = r.text
        assert text.startswith(f"# {title}\n"), text[:200]
        assert text.count("\n# ") == 0, "one top heading"
        assert body in text and text.index(body) < text.index(generated), text[:600]


def test_the_booking_form_keeps_its_fields_and_still_books_under_its_introduction(client):
    page = html(client.get("/visit"))
    assert_introduced(page, "Visit the settlement", "<strong>gatehouse</strong> on Tuesdays", "<form")
    assert title_of(page).startswith("Visit the settlement")
    assert description_of(page) == "Guided tours for partners, students and families."
    assert {"name", "email", "visitDate", "visitTime", "groupSize", "tourType"} <= set(controls(page).controls)
    r = form_post(client, "/visit", visit(email="intro-visitor@example.org"))
    assert r.status_code == 303 and r.headers["Location"].startswith("/visit/sent?reference=BK-")
    refused = html(form_post(client, "/visit", visit(email="not-an-address")), 400)
    assert "<strong>gatehouse</strong>" in refused, "a form sent back with errors keeps its introduction"


def test_the_story_form_is_introduced_too(client):
    page = html(client.get("/community-voices/new"))
    assert_introduced(page, "Tell the settlement your story", "read by a volunteer editor", "<form")


def test_an_introducing_page_has_no_page_of_its_own_and_is_not_listed_again(client):
    items = re.search(r'<ul class="records">(.*?)</ul>', main_of(html(client.get("/pages"))), re.S).group(1)
    assert re.findall(r'<a href="([^"]+)"', items) == ["about/team.html", "urgent-help.html"]
    assert client.get("/visit.html").status_code == 404, "no second file"
    record = client.get("/api/pages/visit").json()["data"]["pages"][0]
    assert record["url"] == "/visit" and record["title"] == "Visit the settlement"
    assert client.get("/api/pages/services").json()["data"]["pages"][0]["url"] == "/services"
