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


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_no_page_has_a_serious_accessibility_violation(site, browser, viewport, scheme):
    base_url, manifest = site
    context = browser.new_context(viewport=viewport, color_scheme=scheme)
    page = context.new_page()
    found = {}
    for path in html_pages(manifest) + extra_pages(manifest):
        response = page.goto(base_url + path, wait_until="load")
        assert response is not None and response.status < 500, path
        problems = violations(page)
        if problems:
            found[path] = problems
    context.close()
    assert not found, "\n".join(f"{path}: {'; '.join(p)}" for path, p in sorted(found.items()))


def extra_pages(manifest):
    """Pages a server renders per request: the 404 page, search results (and the message for a
    too-short query) and the forms."""
    del manifest
    return ["/no-such-page", "/search?q=water", "/search?q=a", "/community-voices/new", "/visit"]
