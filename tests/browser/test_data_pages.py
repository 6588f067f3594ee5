"""The data pages and the alerts page of the sample site (docs/content.md#data-pages) in a real
browser with axe-core, at a phone's width and a desktop's, in the light and the dark scheme: no
serious or critical violation (the charts' colours and text included) and nothing wider than the
screen. The charts are drawn at build time, so they must show with script turned off too."""

import gzip

from conftest import PHONE, no_script_page, sample_dist
from test_accessibility import check, every_width_and_scheme

PAGES = ["/data", "/data/population", "/data/charts", "/data/finance", "/alerts", "/"]


@every_width_and_scheme
def test_data_pages_have_no_serious_accessibility_violation(site, browser, viewport, scheme):
    base_url, _ = site
    check(browser, base_url, PAGES, viewport, scheme)


def test_charts_show_without_script(site, browser):
    base_url, _ = site
    context, page = no_script_page(browser)
    page.goto(base_url + "/data/population", wait_until="load")
    charts = page.locator("svg.chart[role=img]")
    assert charts.count() >= 3
    box = charts.first.bounding_box()
    assert box is not None and 200 < box["width"] <= PHONE["width"], box
    assert page.locator("table.data-table").count() >= charts.count()
    context.close()


def test_each_data_page_stays_within_its_budget(site):
    """A data page is at most 60 KB compressed for the sample site, charts included."""
    pages = sorted((sample_dist() / "data").glob("*.html")) + [sample_dist() / "data.html", sample_dist() / "alerts.html"]
    assert len(pages) >= 5
    for file in pages:
        size = len(gzip.compress(file.read_bytes(), 9))
        assert size <= 60_000, f"{file.name}: {size} bytes compressed"
