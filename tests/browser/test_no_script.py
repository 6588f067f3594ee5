"""The site with JavaScript turned off, as on many phones and slow connections: searching from a
page and sending both forms work with plain HTML, in a real browser."""

from datetime import date, timedelta

from conftest import no_script_page


def test_searching_from_a_record_page_shows_grouped_results(site, browser):
    base_url, _ = site
    context, page = no_script_page(browser)
    page.goto(base_url + "/news")
    page.fill("#site-search-q", "water")
    page.click("header.site form button")
    page.wait_for_load_state()
    assert page.url.startswith(base_url + "/search?q=water")
    assert page.locator("h1").inner_text() == "Search"
    assert page.locator("section.search-group h2").count() >= 2
    first = page.locator("section.search-group a").first
    first.click()
    page.wait_for_load_state()
    assert page.locator("h1").count() == 1 and "/search" not in page.url
    context.close()


def test_a_story_is_sent_with_the_form_and_confirmed(site, browser):
    base_url, _ = site
    context, page = no_script_page(browser)
    page.goto(base_url + "/community-voices/new")
    page.fill("#f-title", "Our garden")
    page.fill("#f-author", "Neema")
    page.fill("#f-content", "We planted beans and maize behind the school.")
    page.click("form.form button[type=submit]")
    page.wait_for_load_state()
    assert "/community-voices/new/sent?id=v-" in page.url
    assert page.url.split("id=")[1] in page.locator("main").inner_text()
    context.close()


def test_a_booking_with_a_mistake_comes_back_then_goes_through(site, browser):
    base_url, _ = site
    context, page = no_script_page(browser)
    page.goto(base_url + "/visit")
    page.fill("#f-name", "Amina")
    page.fill("#f-email", "amina@example")  # no top-level domain: the server refuses it
    page.fill("#f-visitDate", str(date.today() + timedelta(days=14)))
    page.fill("#f-visitTime", "10:30")
    page.select_option("#f-groupSize", index=1)
    page.select_option("#f-tourType", index=1)
    page.click("form.form button[type=submit]")
    page.wait_for_load_state()
    assert page.locator(".error-summary").count() == 1
    assert page.locator("#f-name").input_value() == "Amina"
    page.fill("#f-email", "amina@example.org")
    page.click("form.form button[type=submit]")
    page.wait_for_load_state()
    assert "/visit/sent?reference=BK-" in page.url
    context.close()
