"""Every page of the sample site in a real browser with axe-core: no serious or critical violation
(colour contrast included, which needs a real layout) and no page wider than the screen: every page
at a phone's width, and one page of each shape at a desktop width and in the dark scheme."""

import pytest

from conftest import AXE, DESKTOP, PHONE, html_pages

SERIOUS = {"serious", "critical"}


def violations(page):
    # `check` has axe load with every page (an init script, parsed once per page rather than added
    # after the load); other callers' pages get it here.
    if not page.evaluate("() => typeof axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    result = page.evaluate("() => axe.run(document, {resultTypes: ['violations']})")
    return [
        f"{v['id']} ({v['impact']}): {v['help']} at {', '.join(n['target'][0] if isinstance(n['target'][0], str) else str(n['target']) for n in v['nodes'][:3])}"
        for v in result["violations"]
        if v["impact"] in SERIOUS
    ]


# A page checked at a phone's width and a desktop's, each in the light and the dark scheme.
every_width_and_scheme = pytest.mark.parametrize(
    ("viewport", "scheme"), [(PHONE, "light"), (PHONE, "dark"), (DESKTOP, "light"), (DESKTOP, "dark")],
    ids=["phone-light", "phone-dark", "desktop-light", "desktop-dark"])


def check(browser, base_url, paths, viewport, scheme):
    # axe is injected as an inline script, which the pages' Content-Security-Policy rightly refuses.
    context = browser.new_context(viewport=viewport, color_scheme=scheme, bypass_csp=True)
    context.add_init_script(path=str(AXE))
    page = context.new_page()
    found = {}
    for path in paths:
        response = page.goto(base_url + path, wait_until="load")
        assert response is not None and response.status < 500, path
        problems = violations(page)
        # Long values (addresses, links, numbers) wrap: no page scrolls sideways, a phone's least.
        sideways = page.evaluate("() => document.documentElement.scrollWidth - document.documentElement.clientWidth")
        if sideways > 1:
            problems.append(f"the page is {sideways} px wider than the screen")
        if problems:
            found[path] = problems
    context.close()
    assert not found, "\n".join(f"{path}: {'; '.join(p)}" for path, p in sorted(found.items()))


# The phone check is cut into shards so that scripts/test's two workers (pytest-xdist) share it.
SHARDS = 4


@pytest.mark.parametrize("shard", range(SHARDS))
def test_no_page_has_a_serious_accessibility_violation_on_a_phone(site, browser, shard):
    """Every page at a phone's width, where most readers are: what a page's own content can get
    wrong (an image without a description, a skipped heading, a link without text) shows here."""
    base_url, routes = site
    pages = html_pages(routes) + extra_pages(routes)
    check(browser, base_url, pages[shard::SHARDS], PHONE, "light")


@pytest.mark.parametrize(("viewport", "scheme"), [(DESKTOP, "light"), (PHONE, "dark"), (DESKTOP, "dark")],
                         ids=["desktop-light", "phone-dark", "desktop-dark"])
def test_one_page_of_every_kind_passes_at_every_width_and_scheme(site, browser, viewport, scheme):
    """What the width and the colour scheme change (layout, colours, contrast) comes from the
    theme's template and styles, which pages of one shape share: one page of each shape at a
    desktop width and in the dark scheme (prefers-color-scheme) checks them without axe running on
    every page four times."""
    base_url, routes = site
    check(browser, base_url, one_of_each_kind(routes) + extra_pages(routes), viewport, scheme)


def one_of_each_kind(routes):
    """One page of each shape (pages of one shape share their template and styles): every page at
    the root (the home page, each collection's listing, the site's own pages) and, below it, one
    per first segment and depth (a record of each collection, a tag page, a language's pages)."""
    kinds = {}
    for path in html_pages(routes):
        parts = path.strip("/").split("/")
        kinds.setdefault((parts[0] if len(parts) > 1 else path, len(parts)), path)
    return sorted(kinds.values())


def test_the_content_security_policy_never_has_to_stop_what_the_site_ships(site, browser):
    base_url, routes = site
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    refused = []
    page.on("console", lambda m: refused.append(f"{page.url}: {m.text}") if "Content Security Policy" in m.text else None)
    for path in one_of_each_kind(routes) + extra_pages(routes):
        page.goto(base_url + path, wait_until="load")
    context.close()
    assert not refused, "\n".join(refused)


def extra_pages(routes):
    """Pages a server renders per request: the 404 page, search results (and the message for a
    too-short query), the forms and the weather."""
    del routes
    return ["/no-such-page", "/search?q=water", "/search?q=a", "/community-voices/new", "/visit", "/weather"]
