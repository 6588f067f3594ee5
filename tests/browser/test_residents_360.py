"""What a resident sees on a phone (Chromium at 360 px) on the sample site's pages the visitor
trial found rough: every column of a table can be read (rows stack), numbers in alerts can be
tapped, charts say their units, map markers are named links that no zone name covers, and the
pages pass axe in the light and the dark scheme. docs/content.md#facts, #units and
#places-and-the-map."""

import pytest

from conftest import PHONE
from test_accessibility import check

PAGES = ["/urgent-help", "/alerts", "/", "/data/finance", "/data/population", "/map", "/places/hc-amani",
         "/services/amani-health-centre"]


@pytest.fixture
def phone(browser):
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    yield context.new_page()
    context.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_pages_pass_axe_and_fit_a_phone(site, browser, scheme):
    base_url, _ = site
    check(browser, base_url, PAGES, PHONE, scheme)


def cells_on_screen(page, selector):
    """Every cell of the tables matching `selector` lies inside the screen's width and is not
    hidden by a scrolling box: no column is silently cut."""
    boxes = page.evaluate("""(sel) => [...document.querySelectorAll(sel + ' td, ' + sel + ' tbody th')].map(c => {
        const r = c.getBoundingClientRect(); const box = c.closest('.table-scroll');
        return {right: r.right, left: r.left, scrolls: box ? box.scrollWidth - box.clientWidth : 0,
                text: c.innerText, label: c.getAttribute('data-label')}; })""", selector)
    assert boxes, f"no table {selector} on {page.url}"
    for box in boxes:
        assert box["left"] >= 0 and box["right"] <= PHONE["width"] + 1, box
        assert box["scrolls"] <= 1, box
    return boxes


def test_every_column_of_the_urgent_numbers_is_readable(site, phone):
    base_url, _ = site
    phone.goto(base_url + "/urgent-help")
    boxes = cells_on_screen(phone, ".body table")
    assert any(b["label"] == "Hours" and b["text"] == "24 h" for b in boxes), boxes
    label = phone.locator(".body td[data-label='Hours']").first.evaluate(
        "e => getComputedStyle(e, '::before').content")
    assert "Hours" in label, "each stacked cell says its column"


def test_numbers_in_alerts_can_be_tapped(site, phone):
    base_url, _ = site
    for path in ["/alerts", "/"]:
        phone.goto(base_url + path)
        link = phone.locator("a[href='tel:+256700000108']").first
        assert link.count() == 1, path
        box = link.bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"] + 1, (path, box)


def test_charts_say_their_units_and_their_tables_fit(site, phone):
    base_url, _ = site
    phone.goto(base_url + "/data/finance")
    figures = phone.locator("dl.figures dd").all_inner_texts()
    assert "USD 38,400,000" in figures and "37%" in figures, figures
    cells_on_screen(phone, "table.data-table")
    captions = phone.locator("table.data-table caption").all_inner_texts()
    assert any("Percentage funded" in c for c in captions) and any("Required, Funded" in c for c in captions)


def test_map_markers_are_named_links_and_no_name_covers_one(site, phone):
    base_url, _ = site
    phone.goto(base_url + "/map")
    links = phone.locator("svg.map a[aria-label]")
    assert links.count() > 10 and links.first.get_attribute("aria-label")
    assert phone.locator("svg.map a[aria-hidden='true'][tabindex='-1']").count() == links.count(), "touch targets"
    overlaps = phone.evaluate("""() => {
        const markers = [...document.querySelectorAll('svg.map .map-marker')].map(m => m.getBoundingClientRect());
        const labels = [...document.querySelectorAll('svg.map .map-label')].map(l => l.getBoundingClientRect());
        const meet = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
        return labels.flatMap(l => markers.filter(m => meet(l, m)).map(m => [l.x, l.y, m.x, m.y]));
    }""")
    assert overlaps == [], overlaps
    # A finger on a marker reaches its link (markers of places side by side may overlap: the
    # first whose middle is its own is tapped).
    phone.locator("svg.map").scroll_into_view_if_needed()
    name = phone.evaluate("""() => [...document.querySelectorAll('svg.map a[aria-label]')].map(a => {
        const r = a.getBoundingClientRect(); const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
        return hit && hit.closest('a') === a ? a.getAttribute('aria-label') : null; }).find(n => n)""")
    assert name, "some marker can be tapped"
    with phone.expect_navigation():
        phone.locator(f"svg.map a[aria-label='{name}']").tap()
    assert phone.locator("h1").inner_text() == name
    phone.goto(base_url + "/places/hc-amani")
    assert phone.locator("#here + ul a").first.inner_text() == "Amani Health Centre III"
