"""Every page of the sample site in a real browser with axe-core: no serious or critical violation
(colour contrast included, which needs a real layout), at a phone width and a desktop width."""

import pytest

from conftest import AXE, DESKTOP, PHONE, html_pages

SERIOUS = {"serious", "critical"}


def violations(page):
    page.add_script_tag(path=str(AXE))
    result = page.evaluate("() => axe.run(document, {resultTypes: ['violations']})")
    return [
        f"{v['id']} ({v['impact']}): {v['help']} at {', '.join(n['target'][0] if isinstance(n['target'][0], str) else str(n['target']) for n in v['nodes'][:3])}"
        for v in result["violations"]
        if v["impact"] in SERIOUS
    ]


def check(browser, base_url, paths, viewport, scheme):
    # axe is injected as an inline script, which the pages' Content-Security-Policy rightly refuses.
    context = browser.new_context(viewport=viewport, color_scheme=scheme, bypass_csp=True)
    page = context.new_page()
    found = {}
    for path in paths:
        response = page.goto(base_url + path, wait_until="load")
        assert response is not None and response.status < 500, path
        problems = violations(page)
        if problems:
            found[path] = problems
    context.close()
    assert not found, "\n".join(f"{path}: {'; '.join(p)}" for path, p in sorted(found.items()))


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_no_page_has_a_serious_accessibility_violation(site, browser, viewport):
    base_url, routes = site
    check(browser, base_url, html_pages(routes) + extra_pages(routes), viewport, "light")


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_one_page_of_every_kind_passes_in_the_dark_scheme_too(site, browser, viewport):
    """The theme's dark colours (prefers-color-scheme) on one page of each shape: pages of one
    shape share their template and styles."""
    base_url, routes = site
    check(browser, base_url, one_of_each_kind(routes) + extra_pages(routes), viewport, "dark")


def one_of_each_kind(routes):
    """One page of each shape (pages of one shape share their template and styles)."""
    kinds = {}
    for path in html_pages(routes):
        parts = path.strip("/").split("/")
        kinds.setdefault((parts[0] if len(parts) > 1 else "", len(parts)), path)
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
    too-short query) and the forms."""
    del routes
    return ["/no-such-page", "/search?q=water", "/search?q=a", "/community-voices/new", "/visit"]
