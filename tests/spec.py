"""The facts of the API contract the Python suites check (docs/spec/api-spec.md), named once.

Each is the core's: `generator/tests/python_spec.rs` fails when a value here differs from the
core's constant, or when a name here has no constant to check it against. Values are literals so
that the Rust side can read them.
"""

# Media types (core/src/http/media.rs).
PROBLEM_JSON = "application/problem+json"
RSS = "application/rss+xml; charset=utf-8"
GEOJSON = "application/geo+json"
JSON_LD = "application/ld+json"
CALENDAR = "text/calendar; charset=utf-8"
OPENAPI = "application/openapi+json"
SCHEMA_JSON = "application/schema+json"

# Limits.
MAX_FILE_BYTES = 26_214_400  # 25 MiB, Cloudflare's limit for one asset (docs/deploying.md#deploy-limits)
MIN_QUERY_CHARS = 2  # docs/spec/api-spec.md#query-limits
MAX_QUERY_CHARS = 256
MAX_QUERY_WORDS = 16
OFFLINE_BUDGET = 1_500_000  # the precache's default budget in bytes (docs/offline.md)
