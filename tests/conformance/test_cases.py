"""The request cases both test layers check, written once in tests/cases/requests.json (its `about`
says how): here against `portal serve` and `wrangler dev`, in generator/tests/handlers/cases.rs
against core."""

import json
from pathlib import Path

import pytest

from conftest import problem

CASES = json.loads((Path(__file__).resolve().parents[1] / "cases" / "requests.json").read_text())["cases"]
REQUESTS = [(case, request) for case in CASES for request in case["requests"]]


def merged(case, request):
    """The case's expectations with the request's own added."""
    expect = dict(case.get("expect", {}))
    for key, more in request.get("expect", {}).items():
        have = expect.get(key)
        if isinstance(have, dict) and isinstance(more, dict):
            expect[key] = {**have, **more}
        elif isinstance(have, list) and isinstance(more, list):
            expect[key] = have + more
        else:
            expect[key] = more
    return expect


def pointer(doc, path):
    """The value at a JSON pointer (RFC 6901), or KeyError."""
    for token in path.lstrip("/").split("/") if path else []:
        token = token.replace("~1", "/").replace("~0", "~")
        doc = doc[int(token)] if isinstance(doc, list) else doc[token]
    return doc


def check(r, expect):
    body = None
    try:
        body = r.json()
    except ValueError:
        pass
    at = lambda path: pointer(body, path)  # noqa: E731
    for key, want in expect.items():
        if key == "status":
            assert r.status_code == want, r.text[:500]
        elif key == "problem":
            problem(r, r.status_code, want)
        elif key == "headers":
            for name, value in want.items():
                assert r.headers.get(name) == value, name
        elif key == "headers_start":
            for name, value in want.items():
                assert r.headers.get(name, "").startswith(value), name
        elif key in ("headers_contain", "headers_lack"):
            for name, parts in want.items():
                for part in parts:
                    assert (part in r.headers.get(name, "")) == (key == "headers_contain"), (name, part)
        elif key == "headers_absent":
            for name in want:
                assert name not in r.headers, name
        elif key == "headers_positive":
            for name in want:
                assert int(r.headers[name]) > 0, name
        elif key == "body_empty":
            assert (r.content == b"") == want
        elif key in ("body_contains", "body_lacks"):
            for part in want:
                assert (part in r.text) == (key == "body_contains"), part
        elif key == "json":
            for path, value in want.items():
                assert at(path) == value, path
        elif key == "json_contains":
            for path, parts in want.items():
                for part in parts:
                    assert part in at(path), (path, part)
        elif key == "json_nonempty":
            for path in want:
                assert isinstance(at(path), str) and at(path), path
        elif key == "ids":
            for collection, ids in want.items():
                assert [record["id"] for record in at(f"/data/{collection}")] == ids, collection
        else:
            raise AssertionError(f"the cases file says {key!r}, which no test reads")


@pytest.mark.parametrize(("case", "request_"), REQUESTS,
                         ids=[f"{case['name']} - {request['method']} {request['path']}" for case, request in REQUESTS])
def test_a_shared_case_holds_on_the_server(client, case, request_):
    headers = {**case.get("headers", {}), **request_.get("headers", {})}
    kwargs = {"json": request_["json"]} if "json" in request_ else {"data": request_.get("body", "").encode()}
    r = client.request(request_["method"], request_["path"], headers=headers, **kwargs)
    check(r, merged(case, request_))
