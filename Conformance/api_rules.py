#!/usr/bin/env python3
"""The public API's house rules, checked on the sources (issue 43, points 5 and 6).

1. Deprecations are listed: 0.5.0 shipped with none, and from then on a
   renamed declaration keeps its old name, deprecated, for one minor release
   (CHANGELOG.md, "What 0.5.0 promises"). Every `@available(*, deprecated…)`
   in Sources/ must be named, in backticks, under a `### Deprecated` heading
   of CHANGELOG.md, so none stays by accident.
2. No new public names on the standard library's or Foundation's types: an
   app that declares its own `Duration.minutes(_:)` must not clash with the
   library's. The bridges to Foundation listed in ALLOWED are the exception.

Usage: python3 Conformance/api_rules.py [REPO]   (exit 1 naming each breach)
"""
import pathlib
import re
import sys

# Types an app owns as much as Horari does: extending them publicly adds
# names to every file that imports Horari.
FOREIGN = {
    "Array", "Bool", "Calendar", "Character", "Collection", "Data", "Date", "DateComponents",
    "DateInterval", "Dictionary", "Double", "Duration", "Int", "Int64", "Locale", "Optional",
    "Result", "Sequence", "Set", "String", "Substring", "TimeInterval", "TimeZone", "URL", "UUID",
}
# Foundation bridges kept public on purpose (CHANGELOG 0.5.0, "Removed").
ALLOWED = {
    ("Duration", "init(timeInterval"),
    ("Duration", "var timeInterval"),
}

DECL = re.compile(r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(public|open)\s+(?:static\s+|final\s+|mutating\s+|nonisolated\s+)*"
                  r"(func\s+\w+|var\s+\w+|let\s+\w+|init\??\s*\(\s*\w+|subscript|typealias\s+\w+|struct\s+\w+|enum\s+\w+|class\s+\w+)")


def strip_comments(line: str) -> str:
    """The line without a `//` comment (string literals holding `//` are rare enough here)."""
    return line.split("//", 1)[0] if "//" in line and '"' not in line.split("//", 1)[0] else line


def foreign_extensions(path: pathlib.Path, text: str):
    lines = [strip_comments(l) for l in text.split("\n")]
    i = 0
    while i < len(lines):
        m = re.match(r"^\s*(public\s+)?extension\s+(\w+)\b[^{]*\{", lines[i])
        if not m or m.group(2) not in FOREIGN:
            i += 1
            continue
        typ = m.group(2)
        if m.group(1):
            yield f"{path}:{i + 1}: `public extension {typ}` makes every member public"
        depth = lines[i].count("{") - lines[i].count("}")
        j = i + 1
        while depth > 0 and j < len(lines):
            d = DECL.match(lines[j]) if depth == 1 else None
            if d:
                key = re.sub(r"\s+", " ", d.group(2))
                if not any(typ == t and key.startswith(k) for t, k in ALLOWED):
                    yield f"{path}:{j + 1}: public `{key}` on `{typ}`, a type apps extend too"
            depth += lines[j].count("{") - lines[j].count("}")
            j += 1
        i = j


def main() -> int:
    repo = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".")
    changelog = (repo / "CHANGELOG.md").read_text(encoding="utf-8")
    listed = set()
    for section in re.findall(r"^### Deprecated\n(.*?)(?=^#)", changelog, flags=re.S | re.M):
        listed |= set(re.findall(r"`([^`]+)`", section))
    breaches, deprecated, files = [], 0, 0
    for path in sorted((repo / "Sources").rglob("*.swift")):
        files += 1
        text = path.read_text(encoding="utf-8")
        rel = path.relative_to(repo)
        lines = text.split("\n")
        for n, line in enumerate(lines):
            if re.search(r"@available\([^)]*\bdeprecated\b", line):
                deprecated += 1
                decl = next((l for l in lines[n + 1:n + 6] if not l.strip().startswith("@") and l.strip()), "")
                name = re.search(r"(?:func|var|let|typealias|struct|class|enum|init)\s*(\w*)", decl)
                word = (name.group(1) or "init") if name else decl.strip()
                if not any(word in entry for entry in listed):
                    breaches.append(f"{rel}:{n + 1}: `{word}` is deprecated but not listed under "
                                    "### Deprecated in CHANGELOG.md (say what replaces it and when it goes)")
        breaches.extend(foreign_extensions(rel, text))
    for b in breaches:
        print(b)
    print(f"api rules: {files} source files, {deprecated} deprecated declarations, "
          f"{len(breaches)} breaches")
    return 1 if breaches else 0


if __name__ == "__main__":
    sys.exit(main())
