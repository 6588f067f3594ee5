"""The sitemap (docs/standards.md, Sitemaps protocol): every page's `<loc>`, and `<lastmod>` from each
record's or entry's `updated`, else its `date`, in W3C datetime form, on both servers."""

import re
import xml.etree.ElementTree as ET

NS = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9"}
BASE = "https://fixture.example.org"
# W3C datetime (https://www.w3.org/TR/NOTE-datetime): a date, or a time with its zone designator.
W3C = re.compile(r"^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?$")


def lastmods(client):
    r = client.get("/sitemap.xml")
    assert r.status_code == 200
    root = ET.fromstring(r.content)
    return {url.findtext("s:loc", namespaces=NS): url.findtext("s:lastmod", namespaces=NS)
            for url in root.findall("s:url", NS)}


def test_lastmod_is_each_pages_updated_or_date_in_w3c_datetime(client):
    dates = lastmods(client)
    assert dates[f"{BASE}/news/clinic-hours"] == "2026-10-14T06:30:00Z", "`date` 09:30+03:00, in UTC"
    assert dates[f"{BASE}/services/legal-aid"] == "2026-10-28", "`updated`, a date"
    assert dates[f"{BASE}/encyclopedia/asylum"] == "2026-09-01", "entries too"
    assert dates[f"{BASE}/news"] is None, "a listing has no date of its own"
    written = [d for d in dates.values() if d is not None]
    assert len(written) >= 10 and all(W3C.match(d) for d in written), written
