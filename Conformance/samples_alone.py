#!/usr/bin/env python3
"""Every Swift sample of the documentation compiled alone, as a developer pastes it.

The build already compiles the README's and the DocC articles' samples
(Plugins/CompileDocSnippets) and `make snippets` runs them — but there all of
them share one file, inside async functions, with every sample's imports at
its top. A sample that forgets `import Foundation` for `Date`, or calls
`try` at the top level where the compiler cannot, passes there and fails in
the developer's `main.swift`.

Here each sample is its own `main.swift`: top-level code, only the imports it
writes, compiled by `swiftc` against the modules the default build made
(.build/debug/Modules, with the search paths and module maps SwiftPM gave
DocSnippets; not its `-package-name`, which an app does not have), through
the compiler's mandatory SIL passes (`-emit-sil`: the typed-catch crash of
Docs/Errors.md happens in the first of them, SILGenCleanup, after
`-emit-silgen` has passed). The samples are those of the README, of every DocC article
but the ones that walk through an example app (`<!-- example-app: PATH -->`:
`make examples` builds and runs those apps), and of Docs/*.md. A block that
starts with `import` opens a sample; a block without one goes on with the
sample before it in the same document, as ExtractSnippets reads them.

Errors are shown at the document's own line.

Usage: samples_alone.py [ROOT]   (ROOT: the package, after `swift build`)
Exit status 0 when every sample compiles, 1 otherwise.
"""
import concurrent.futures as cf
import glob
import json
import os
import re
import subprocess
import sys
import tempfile


def documents(root):
    paths = [os.path.join(root, "README.md")]
    paths += sorted(glob.glob(os.path.join(root, "Sources", "*", "*.docc", "*.md")))
    paths += sorted(glob.glob(os.path.join(root, "Docs", "*.md")))
    return paths


def samples(root):
    """[(document, first line, [(text, line)])]: each sample's lines with the document's line numbers."""
    found = []
    for path in documents(root):
        with open(path, encoding="utf-8") as f:
            text = f.read()
        if "\n<!-- example-app: " in text:
            continue
        relative = os.path.relpath(path, root)
        block, start, inside = [], 0, False
        for number, line in enumerate(text.split("\n"), 1):
            if not inside and line.strip() == "```swift":
                inside, block, start = True, [], number + 1
                continue
            if not inside:
                continue
            if line.strip() == "```":
                inside = False
                first = next((l for l, _ in block if l.strip()), None)
                if first is None or first.startswith("import ") or not found or found[-1][0] != relative:
                    found.append((relative, start, list(block)))
                else:
                    found[-1][2].extend(block)
                continue
            block.append((line, number))
    return found


def compiler_flags(root):
    """The search paths and module maps SwiftPM gave DocSnippets in the default build."""
    manifest = os.path.join(root, ".build", "debug.yaml")
    with open(manifest, encoding="utf-8") as f:
        lines = f.read().split("\n")
    for i, line in enumerate(lines):
        if re.match(r'\s*"C\.DocSnippets-.*-debug\.module":', line):
            for following in lines[i + 1:i + 12]:
                if following.strip().startswith("args: "):
                    args = json.loads(following.strip()[len("args: "):])
                    break
            else:
                continue
            break
    else:
        raise SystemExit("samples_alone: no DocSnippets command in %s (run swift build first)" % manifest)
    flags = []
    for i, a in enumerate(args):
        if a in ("-I", "-module-cache-path", "-target") and i + 1 < len(args):
            flags += [a, args[i + 1]]
        elif a.startswith("-I/"):
            flags.append(a)
        elif a == "-Xcc" and i + 1 < len(args) and args[i + 1].startswith("-fmodule-map-file="):
            flags += [a, args[i + 1]]
    return [args[0]] + flags + ["-swift-version", "6"]


LOCATION = re.compile(r"main\.swift:(\d+):")


def compile_one(job):
    swiftc, (document, start, lines), scratch = job
    os.makedirs(scratch)
    source = os.path.join(scratch, "main.swift")
    with open(source, "w", encoding="utf-8") as f:
        f.write("\n".join(text for text, _ in lines) + "\n")
    p = subprocess.run(swiftc + ["-emit-sil", "-o", os.devnull, "main.swift"], cwd=scratch,
                       capture_output=True, text=True, timeout=600)
    if p.returncode == 0:
        return document, start, None

    def at_document(match):
        n = int(match.group(1))
        return "%s:%d:" % (document, lines[n - 1][1]) if 0 < n <= len(lines) else match.group(0)

    report = LOCATION.sub(at_document, (p.stderr or p.stdout).strip())
    return document, start, "\n".join(report.splitlines()[:40]) or "swiftc exited %d" % p.returncode


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".")
    swiftc = compiler_flags(root)
    found = samples(root)
    failures = []
    with tempfile.TemporaryDirectory() as scratch:
        jobs = [(swiftc, sample, os.path.join(scratch, str(i))) for i, sample in enumerate(found)]
        with cf.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
            for document, start, failure in pool.map(compile_one, jobs):
                if failure:
                    failures.append("%s:%d: the sample does not compile alone:\n%s" % (document, start, failure))
    print("samples alone: %d samples from %d documents compiled each as its own main.swift, %d failed"
          % (len(found), len({d for d, _, _ in found}), len(failures)))
    for failure in failures:
        print("FAIL " + failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
