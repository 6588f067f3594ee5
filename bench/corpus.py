#!/usr/bin/env python3
"""A deterministic synthetic corpus in portal's content format: N records spread over the 19
collections, with realistic markdown bodies, plus N/10 encyclopedia entries.

    python3 bench/corpus.py --records 10000 --out target/bench/corpus-10k
"""

import argparse
import random
import shutil
from pathlib import Path

COLLECTIONS = [
    "services", "resources", "events", "photos", "jobs", "news", "courses", "community-voices", "profiles",
    "talents", "marketplace", "stores", "rights", "artists", "artworks", "poets", "dancers", "docs", "pages",
]
WORDS = (
    "water borehole clinic school registration shelter market tailoring language lessons vaccination "
    "maize harvest solar lamp mobile money savings group youth football mural poetry dance drumming "
    "legal aid asylum refugee host community zone health nutrition maternity counselling protection "
    "training carpentry welding bakery transport bicycle repair library reading mentor volunteer "
    "rainfall drought flood season firewood cooking stove hygiene sanitation latrine soap bucket "
    "kiswahili arabic somali french english interpreter bridge road clinic pharmacy malaria mosquito net "
    "certificate document birth identity permit work farm seeds goats chickens cooperative loan"
).split()
CATEGORIES = ["health", "education", "livelihoods", "protection", "culture", "water", "shelter", "law"]


def sentence(rng, n=None):
    words = [rng.choice(WORDS) for _ in range(n or rng.randint(8, 18))]
    return " ".join(words).capitalize() + "."


def body(rng):
    parts = [f"## {sentence(rng, 4)[:-1]}", "", " ".join(sentence(rng) for _ in range(rng.randint(3, 6))), ""]
    parts += [f"- {sentence(rng, 5)}" for _ in range(rng.randint(2, 5))]
    parts += ["", " ".join(sentence(rng) for _ in range(rng.randint(2, 5))), ""]
    return "\n".join(parts)


def front_matter(fields):
    lines = ["---"]
    for key, value in fields.items():
        if isinstance(value, list):
            lines.append(f"{key}: [{', '.join(value)}]")
        else:
            lines.append(f'{key}: "{value}"' if isinstance(value, str) else f"{key}: {value}")
    lines.append("---")
    return "\n".join(lines)


def generate(records, out, seed=7):
    rng = random.Random(seed)
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    (out / "site.yaml").write_text(
        "title: Benchmark Portal\ndescription: A synthetic corpus.\nbase_url: https://bench.example.org\n"
        "language: en\nlicense: CC BY-SA 4.0\nrss:\n  items: 20\n"
    )
    for i in range(records):
        collection = COLLECTIONS[i % len(COLLECTIONS)]
        folder = out / collection
        folder.mkdir(exist_ok=True)
        title = sentence(rng, rng.randint(3, 7))[:-1]
        fields = {
            "title": title,
            "date": f"2026-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}",
            "summary": sentence(rng, 12),
            "tags": [rng.choice(WORDS) for _ in range(3)],
            "category": rng.choice(CATEGORIES),
        }
        (folder / f"record-{i:06d}.md").write_text(front_matter(fields) + "\n" + body(rng))
    entries = out / "encyclopedia"
    entries.mkdir()
    for i in range(records // 10):
        fields = {
            "title": sentence(rng, rng.randint(2, 4))[:-1],
            "summary": sentence(rng, 12),
            "category": rng.choice(CATEGORIES),
            "tags": [rng.choice(WORDS) for _ in range(2)],
            "updated": f"2026-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}",
        }
        text = front_matter(fields).removesuffix("---")
        text += f"sources:\n  - title: Source {i}\n    url: https://example.org/source/{i}\n---\n"
        (entries / f"entry-{i:05d}.md").write_text(text + body(rng))


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--records", type=int, default=1000)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    generate(args.records, args.out, args.seed)


if __name__ == "__main__":
    main()
