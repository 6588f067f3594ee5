"""Marked sections of BENCHMARKS.md that a runner of their own writes (search relevance, sources)
and that `bench/run` keeps as they are when it rewrites the rest of the file."""


def markers(name):
    return f"<!-- {name}:begin -->", f"<!-- {name}:end -->"


def section_of(text, name):
    """The marked section `name` of `text`, markers included, or None."""
    begin, end = markers(name)
    if begin not in text or end not in text:
        return None
    return begin + text.split(begin, 1)[1].split(end, 1)[0] + end


def write_section(path, text, name):
    """Replaces the marked section `name` of `path` with `text` (markers included), or puts it
    before `## Notes` (at the end when there is none)."""
    begin, end = markers(name)
    current = path.read_text() if path.exists() else ""
    if begin in current and end in current:
        head, rest = current.split(begin, 1)
        tail = rest.split(end, 1)[1].lstrip("\n")
        updated = head + text + "\n" + tail
    elif "\n## Notes" in current:
        head, tail = current.split("\n## Notes", 1)
        updated = head.rstrip("\n") + "\n\n" + text + "\n## Notes" + tail
    else:
        updated = current.rstrip("\n") + "\n\n" + text
    path.write_text(updated)
