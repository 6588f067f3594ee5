"""The weather page, the map and a place's page in a real browser with axe-core, at a phone's width
and a desktop's, in the light and the dark scheme: no serious or critical violation (the colours of
the map's categories and the weather chart included, which need a real layout to check) and nothing
wider than the screen. The sample site's weather upstream is not reachable from the test machine,
so /weather shows its seasonal fallback here. docs/content.md#places-and-the-map."""

import gzip

from conftest import PHONE, no_script_page, sample_dist
from test_accessibility import check, every_width_and_scheme

PAGES = ["/weather", "/map", "/map/category/water", "/places/bh-a1", "/places/main-access-road"]


@every_width_and_scheme
def test_the_weather_and_map_pages_pass_axe_at_every_width_and_scheme(site, browser, viewport, scheme):
    base_url, _ = site
    check(browser, base_url, PAGES, viewport, scheme)


def test_the_map_needs_no_script_and_fits_a_phone(site, browser):
    base_url, _ = site
    context, page = no_script_page(browser)
    page.goto(base_url + "/map")
    box = page.locator("svg.map").bounding_box()
    assert box is not None and 0 < box["width"] <= PHONE["width"], box
    assert page.locator("svg.map path.map-marker").count() > 0
    page.goto(base_url + "/places/bh-a1")
    assert page.locator('a[href^="geo:"]').count() == 1
    context.close()


def test_the_map_page_is_within_its_budget():
    """At most 60 KB compressed for the sample site: the drawing is made at build time, with no
    script, tiles or fonts to fetch (docs/content.md#places-and-the-map)."""
    html = (sample_dist() / "map.html").read_bytes()
    assert len(gzip.compress(html, 9)) <= 60 * 1024
