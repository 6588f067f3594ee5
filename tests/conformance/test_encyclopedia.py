"""The encyclopedia (docs/spec/api-spec.md#encyclopedia)."""

import pytest
from pyld import jsonld


TITLE_ORDER = ["asylum", "education", "etat-civil", "non-refoulement", "oral-rehydration", "water-trucking"]


def listing(client, **params):
    r = client.get("/api/encyclopedia", params=params)
    assert r.status_code == 200, r.text
    return r.json()


def slugs(body):
    return [e["slug"] for e in body["data"]["entries"]]


def test_the_list_has_the_d5_shape_in_title_order(client):
    body = listing(client)
    assert body["status"] == "success"
    assert (body["total"], body["count"], body["page"], body["pageSize"], body["totalPages"]) == (6, 6, 1, 20, 1)
    assert slugs(body) == TITLE_ORDER
    assert all("body" not in e for e in body["data"]["entries"])
    assert body["links"]["self"].startswith("/api/encyclopedia?")
    assert "next" not in body["links"] and "prev" not in body["links"]


def test_pages_link_to_each_other(client):
    body = listing(client, pageSize=2, page=2)
    assert slugs(body) == ["etat-civil", "non-refoulement"]
    assert body["totalPages"] == 3
    assert "page=3" in body["links"]["next"] and "pageSize=2" in body["links"]["next"]
    assert "page=1" in body["links"]["prev"]
    last = listing(client, pageSize=2, page=3)
    assert slugs(last) == ["oral-rehydration", "water-trucking"] and "next" not in last["links"]


def test_a_page_past_the_end_is_empty(client):
    body = listing(client, page=9)
    assert body["count"] == 0 and body["data"]["entries"] == [] and body["total"] == 6


@pytest.mark.parametrize(
    "params,expected",
    [
        ({"category": "law"}, ["asylum", "etat-civil", "non-refoulement"]),
        ({"category": "LAW"}, ["asylum", "etat-civil", "non-refoulement"]),
        ({"tag": "rights"}, ["asylum", "education", "non-refoulement"]),
        ({"letter": "e"}, ["education", "etat-civil"]),
        ({"letter": "É"}, ["education", "etat-civil"]),
        ({"letter": "E"}, ["education", "etat-civil"]),
        ({"category": "law", "letter": "e"}, ["etat-civil"]),
        ({"category": "health", "tag": "water"}, ["oral-rehydration", "water-trucking"]),
        ({"q": "water", "category": "health", "sort": "title"}, ["oral-rehydration", "water-trucking"]),
        ({"category": "nothing"}, []),
    ],
)
def test_filters_alone_and_combined(client, params, expected):
    assert slugs(listing(client, **params)) == expected


def test_q_ranks_by_relevance_by_default(client):
    assert slugs(listing(client, q="water"))[0] == "water-trucking"
    assert set(slugs(listing(client, q="water"))) == {"water-trucking", "oral-rehydration"}


def test_sort_updated_is_newest_first(client):
    assert slugs(listing(client, sort="updated")) == [
        "etat-civil", "non-refoulement", "asylum", "oral-rehydration", "water-trucking", "education",
    ]


def test_detail_has_body_html_and_sources(client):
    r = client.get("/api/encyclopedia/asylum")
    assert r.status_code == 200
    entry = r.json()["data"]["entry"]
    assert entry["slug"] == "asylum" and entry["url"] == "/encyclopedia/asylum"
    assert "<strong>seek asylum</strong>" in entry["html"]
    assert "seek asylum" in entry["body"]
    assert entry["sources"][0]["publisher"] == "UNHCR"
    assert "RateLimit-Remaining" not in r.headers


def test_suggestions_by_title_and_alias(client):
    def suggest(**params):
        r = client.get("/api/encyclopedia/suggest", params=params)
        assert r.status_code == 200, r.text
        return [s["slug"] for s in r.json()["suggestions"]]

    assert suggest(q="e") == ["education", "etat-civil"]
    assert suggest(q="ét") == ["etat-civil"]
    assert suggest(q="refu") == ["asylum"]
    assert suggest(q="ors") == ["oral-rehydration"]
    assert suggest(q="e", limit=1) == ["education"]
    body = client.get("/api/encyclopedia/suggest", params={"q": "schoo"}).json()
    assert body["query"] == "schoo"
    assert body["suggestions"][0] == {"slug": "education", "title": "Education for refugees", "url": "/encyclopedia/education", "alias": "Schooling"}


@pytest.mark.parametrize("params", [{}, {"category": "law"}, {"tag": "water"}, {"q": "rights"}, {"letter": "é"}])
def test_facet_counts_match_the_filtered_list(client, params):
    facets = client.get("/api/encyclopedia/facets", params=params).json()["facets"]
    entries = listing(client, **params)["data"]["entries"]
    assert sum(facets["letter"].values()) == len(entries)
    categories = {}
    for e in entries:
        categories[e["category"]] = categories.get(e["category"], 0) + 1
    assert facets["category"] == categories


def test_facets_fold_letters(client):
    facets = client.get("/api/encyclopedia/facets").json()["facets"]
    assert facets["letter"] == {"A": 1, "E": 2, "N": 1, "O": 1, "W": 1}
    assert facets["category"] == {"culture": 1, "health": 2, "law": 3}
    assert facets["tags"]["rights"] == 3


def test_list_suggest_and_facets_are_rate_limited(client):
    for path in ["/api/encyclopedia", "/api/encyclopedia/suggest?q=a", "/api/encyclopedia/facets"]:
        assert "RateLimit-Remaining" in client.get(path).headers


def test_entries_are_searchable_by_title_and_alias(client):
    body = client.get("/api/search", params={"q": "political", "collections": "entries"}).json()
    assert body["results"]["entries"][0]["url"] == "/encyclopedia/asylum"
    index = client.get("/api/search-index.json").json()
    assert any(e["collection"] == "entries" and e["url"] == "/encyclopedia/etat-civil" for e in index)


SCHEMA_CONTEXT = {"@context": {"@vocab": "https://schema.org/", "url": {"@id": "https://schema.org/url", "@type": "@id"}}}


def local_loader(url, options=None):
    assert url.rstrip("/") in ("https://schema.org", "http://schema.org"), url
    return {"contextUrl": None, "documentUrl": url, "document": SCHEMA_CONTEXT}


def test_json_ld_expands_to_an_article_with_citations(client):
    r = client.get("/api/encyclopedia/asylum/jsonld")
    assert r.status_code == 200
    assert r.headers["Content-Type"].startswith("application/ld+json")
    doc = r.json()
    [article] = jsonld.expand(doc, {"documentLoader": local_loader})
    s = "https://schema.org/"
    assert article["@type"] == [s + "Article"]
    assert article["@id"].endswith("/encyclopedia/asylum")
    citations = article[s + "citation"]
    assert len(citations) == 2
    assert citations[0][s + "name"][0]["@value"].startswith("Convention and Protocol")
    assert citations[0][s + "publisher"][0][s + "name"][0]["@value"] == "UNHCR"
    assert article[s + "about"][0][s + "name"][0]["@value"] == "law"
    assert {k["@value"] for k in article[s + "keywords"]} == {"rights", "protection"}
    assert article[s + "dateModified"][0]["@value"] == "2026-09-01"
    assert article[s + "inLanguage"][0]["@value"] == "en"
    assert doc["license"] == "https://creativecommons.org/licenses/by-sa/4.0/"
