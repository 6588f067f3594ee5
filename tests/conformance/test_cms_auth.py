"""The CMS sign-in (docs/spec/api-spec.md#cms-sign-in) on both servers, against the mock GitHub of
tests/mock_upstream.py: both servers run with its OAuth app (mock_upstream.CMS_ENV, given to
`portal serve` as environment and to `wrangler dev` as `.dev.vars`). The state cookie is a `Secure`
`__Host-` cookie, so the tests send it back by hand over plain HTTP."""

import base64
import hashlib
import re
from urllib.parse import parse_qs, quote, urlsplit

import mock_upstream

SECRET = mock_upstream.CMS_ENV["CMS_GITHUB_CLIENT_SECRET"]
COOKIE = "__Host-portal_cms_state"


def start(client):
    """Starts a sign-in as Decap CMS does; returns the state the redirect carries."""
    response = client.get("/api/cms/auth?provider=github&site_id=fixture.example.org&scope=repo")
    assert response.status_code == 302, response.text
    location = response.headers["Location"]
    assert location.startswith(mock_upstream.CMS_ENV["CMS_GITHUB_AUTHORIZE_URL"] + "?")
    state = parse_qs(urlsplit(location).query)["state"][0]
    assert response.headers["Set-Cookie"].startswith(f"{COOKIE}={state};")
    return state


def finish(client, query, state):
    headers = {"Cookie": f"{COOKIE}={state}"} if state is not None else {}
    return client.get(f"/api/cms/callback?{query}", headers=headers)


def assert_no_secret(response):
    assert SECRET not in response.text
    assert all(SECRET not in value for value in response.headers.values())


def assert_popup_page(response, status):
    assert response.status_code == status, response.text
    assert response.headers["Content-Type"].startswith("text/html")
    assert response.headers["Cache-Control"] == "no-store"
    script = re.search(r"<script>(.*?)</script>", response.text, re.S).group(1)
    digest = base64.b64encode(hashlib.sha256(script.encode()).digest()).decode()
    csp = response.headers["Content-Security-Policy"]
    assert f"script-src 'sha256-{digest}'" in csp and "unsafe-inline" not in csp, csp
    assert "Max-Age=0" in response.headers["Set-Cookie"], "the state is good for one try"
    assert_no_secret(response)


def test_the_sign_in_redirects_with_client_id_scope_and_a_fresh_state(client):
    response = client.get("/api/cms/auth?provider=github&site_id=fixture.example.org")
    assert response.status_code == 302
    query = parse_qs(urlsplit(response.headers["Location"]).query)
    assert query["client_id"] == [mock_upstream.CMS_ENV["CMS_GITHUB_CLIENT_ID"]]
    assert query["scope"] == ["repo,user"]
    assert re.fullmatch(r"[0-9a-f]{32}", query["state"][0])
    cookie = response.headers["Set-Cookie"]
    assert cookie.startswith(f"{COOKIE}="), cookie
    attributes = [a.strip() for a in cookie.split(";")[1:]]
    for attribute in ["HttpOnly", "SameSite=Lax", "Path=/", "Max-Age=600", "Secure"]:
        assert attribute in attributes, cookie
    assert not [a for a in attributes if a.lower().startswith("domain")], "a __Host- cookie has no Domain"
    assert response.headers["Cache-Control"] == "no-store"
    assert_no_secret(response)
    assert start(client) != start(client), "every sign-in gets its own state"


def test_a_good_callback_posts_the_token_to_the_cms(client):
    state = start(client)
    mock_upstream.TOKEN_REQUESTS.clear()
    response = finish(client, f"code=good-code&state={state}", state)
    assert_popup_page(response, 200)
    token = mock_upstream.CMS_TOKEN
    assert f'authorization:github:success:{{\\"token\\":\\"{token}\\",\\"provider\\":\\"github\\"}}' in response.text
    assert '"authorizing:github"' in response.text, "the handshake of Decap's authenticator"
    assert mock_upstream.TOKEN_REQUESTS[-1]["code"] == "good-code"


def test_the_token_goes_only_to_an_opener_at_the_cms_page(client):
    state = start(client)
    response = finish(client, f"code=good-code&state={state}", state)
    assert_popup_page(response, 200)
    script = re.search(r"<script>(.*?)</script>", response.text, re.S).group(1)
    assert 'var pages = ["/admin","/admin.html"];' in script, script
    assert "if (!opener || !isCms(opener)) { return; }" in script, "nothing is posted to another page"
    assert '&& isCms(opener)) {\n      opener.postMessage(message, origin);' in script, script


def test_a_state_not_of_the_form_drawn_is_refused_even_when_the_cookie_agrees(client):
    mock_upstream.TOKEN_REQUESTS.clear()
    for state in ["x" * 32, "A" * 32, "0" * 31, "0" * 64, "a b"]:
        response = finish(client, f"code=good-code&state={quote(state)}", state)
        assert_popup_page(response, 400)
        assert "could not be checked" in response.text
    assert mock_upstream.TOKEN_REQUESTS == []


def test_the_token_endpoint_redirecting_is_not_followed_and_the_secret_goes_nowhere_else(client, upstream_mode):
    upstream_mode("oauth", "redirect")
    mock_upstream.REDIRECTED.clear()
    mock_upstream.TOKEN_REQUESTS.clear()
    state = start(client)
    response = finish(client, f"code=good-code&state={state}", state)
    assert_popup_page(response, 502)
    assert "status 307" in response.text and mock_upstream.CMS_TOKEN not in response.text
    assert len(mock_upstream.TOKEN_REQUESTS) == 1
    assert mock_upstream.REDIRECTED == [], "the client secret was sent on to the redirect's target"


def test_a_state_that_is_not_the_cookie_is_refused_without_asking_the_provider(client):
    state = start(client)
    mock_upstream.TOKEN_REQUESTS.clear()
    for query, cookie in [
        (f"code=good-code&state={state}", None),
        (f"code=good-code&state={state}", "0" * 32),
        ("code=good-code", state),
    ]:
        response = finish(client, query, cookie)
        assert_popup_page(response, 400)
        assert "could not be checked" in response.text
        assert mock_upstream.CMS_TOKEN not in response.text
    assert mock_upstream.TOKEN_REQUESTS == []


def test_provider_failures_are_told_to_the_editor(client, upstream_mode):
    state = start(client)
    declined = finish(client, f"error=access_denied&error_description=nope&state={state}", state)
    assert_popup_page(declined, 403)
    assert "access_denied" in declined.text and "authorization:github:error:" in declined.text
    for mode, says in [("fail", "status 500"), ("garbage", "could not be read"), ("refuse", "bad_verification_code")]:
        upstream_mode("oauth", mode)
        state = start(client)
        response = finish(client, f"code=good-code&state={state}", state)
        assert_popup_page(response, 502)
        assert says in response.text and "Sign-in failed" in response.text, response.text
        assert mock_upstream.CMS_TOKEN not in response.text


def test_another_provider_is_told_on_a_page(client):
    response = client.get("/api/cms/auth?provider=gitlab")
    assert response.status_code == 400
    assert "GitHub only" in response.text
    assert_no_secret(response)
