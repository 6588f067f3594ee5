"""The HSDS 3.0 compiled schemas the tests validate `/api/hsds` against (docs/standards.md#hsds):
the copies in `tests/standards/hsds-3.0/` (gzipped, with their licence), or the plain `.json` files
of the folder `$HSDS_SCHEMAS` names; and a check of one API item against them."""

import functools
import gzip
import json
import os
from pathlib import Path

import jsonschema
import pytest

import servers

COPIES = servers.ROOT / "tests" / "standards" / "hsds-3.0"


@functools.lru_cache(maxsize=None)
def schema(name):
    """A compiled schema by name (`service`), read once (they are megabytes)."""
    given = os.environ.get("HSDS_SCHEMAS")
    if given:
        path = Path(given) / f"{name}.json"
        if not path.is_file():
            pytest.fail(f"HSDS_SCHEMAS names {given}, which has no {name}.json")
        return json.loads(path.read_text(encoding="utf-8"))
    with gzip.open(COPIES / f"{name}.json.gz", "rt", encoding="utf-8") as file:
        return json.load(file)


def schema_of(kind, listed):
    """The schema an item of `kind` must meet, in a list or on its own."""
    term = schema("service")["properties"]["attributes"]["items"]["properties"]["taxonomy_term"]
    if kind == "taxonomy_terms":
        return term
    if kind == "taxonomies":
        return term["properties"]["taxonomy_detail"]
    singular = {"services": "service", "organizations": "organization",
                "service_at_locations": "service_at_location"}[kind]
    return schema(f"{singular}_list" if listed else singular)


@functools.lru_cache(maxsize=None)
def validator(kind, listed):
    chosen = schema_of(kind, listed)
    cls = jsonschema.validators.validator_for(chosen, default=jsonschema.Draft202012Validator)
    return cls(chosen, format_checker=cls.FORMAT_CHECKER)


def valid(kind, item, listed):
    """Asserts that `item` of `kind` meets its schema, naming the first errors."""
    errors = sorted(validator(kind, listed).iter_errors(item), key=lambda e: list(e.path))
    assert not errors, f"{kind} {item.get('id')}: " + "; ".join(
        f"{'/'.join(map(str, e.path))}: {e.message}" for e in errors[:5])
