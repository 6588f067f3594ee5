"""The offline HSDS 3.0 compiled schemas (`<repo>/../shared/standards/hsds-3.0` or
`$HSDS_SCHEMAS`) and a check of one API item against them, for suites that read `/api/hsds`
(docs/standards.md#hsds). Without the schemas a test fails under CI and is skipped elsewhere."""

import functools
import json
import os
from pathlib import Path

import jsonschema
import pytest

import servers


def schema_dir():
    given = os.environ.get("HSDS_SCHEMAS")
    folder = Path(given) if given else servers.ROOT.parent / "shared" / "standards" / "hsds-3.0"
    if not (folder / "service.json").is_file():
        if os.environ.get("CI"):
            pytest.fail(f"the HSDS 3.0 schemas are missing at {folder} (set HSDS_SCHEMAS)")
        pytest.skip(f"the HSDS 3.0 schemas are not at {folder} (set HSDS_SCHEMAS)")
    return folder


@functools.lru_cache(maxsize=None)
def schema(name):
    """A compiled schema by file name, read once (they are megabytes)."""
    return json.loads((schema_dir() / f"{name}.json").read_text(encoding="utf-8"))


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
