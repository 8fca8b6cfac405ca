#!/usr/bin/env python3
"""Checks that every Swift example in the READMEs is code the build compiles.

Each ```swift block of README.md, docs/*.md, Packages/*/README.md and Examples/*/README.md
follows a line
`<!-- snippet: PATH#NAME -->`, and PATH (a Swift file that a package's build compiles, usually
a test file) holds the same lines between `// snippet: NAME` and `// end` (indented as the
code around them). Fails naming each block that has no such line, or differs from its source.

Usage: Scripts/check-readme-snippets.py
"""
import difflib
import glob
import os
import re
import sys
import textwrap

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MARK = re.compile(r"^<!-- snippet: (\S+)#(\S+) -->$")


def region(path, name):
    """The dedented lines of snippet `name` in `path`, or None."""
    try:
        with open(os.path.join(ROOT, path)) as file:
            lines = file.read().split("\n")
    except OSError:
        return None
    for start, line in enumerate(lines):
        if line.strip() == f"// snippet: {name}":
            for end in range(start + 1, len(lines)):
                if lines[end].strip() == "// end":
                    return textwrap.dedent("\n".join(lines[start + 1:end])).split("\n")
    return None


def main():
    readmes = ["README.md"] + sorted(glob.glob("docs/*.md")) + sorted(
        glob.glob("Packages/*/README.md")) + sorted(glob.glob("Examples/*/README.md"))
    failures = []
    count = 0
    for readme in readmes:
        with open(os.path.join(ROOT, readme)) as file:
            lines = file.read().split("\n")
        index = 0
        while index < len(lines):
            if lines[index] != "```swift":
                index += 1
                continue
            end = lines.index("```", index + 1)
            block = lines[index + 1:end]
            count += 1
            mark = MARK.match(lines[index - 1]) if index > 0 else None
            if not mark:
                failures.append(f"{readme}:{index + 1}: a swift block without a "
                                "`<!-- snippet: PATH#NAME -->` line before it")
            else:
                source = region(*mark.groups())
                if source is None:
                    failures.append(f"{readme}:{index}: no snippet `{mark.group(2)}` "
                                    f"(`// snippet: {mark.group(2)}` ... `// end`) in "
                                    f"{mark.group(1)}")
                elif source != block:
                    diff = "\n".join(difflib.unified_diff(
                        source, block, mark.group(1), readme, lineterm=""))
                    failures.append(f"{readme}:{index + 1}: differs from its source\n{diff}")
            index = end + 1
    if failures:
        sys.exit("\n".join(failures))
    print(f"all {count} Swift examples of {len(readmes)} READMEs are compiled code")


main()
