#!/usr/bin/python3
"""Lists the repository paths that README.md and docs/ name but the tree does not have.

Usage: check-doc-paths.py [SOURCE_DIR]

A doc that names a file (`terminal/service/routes.cc`, `deploy/run.sh`) sends a reader to
it; when the file moves or goes, the sentence is wrong (docs/style.md S18). Every token that
starts with one of the tree's top-level folders and a slash is taken as a path; it must
exist as a file or a folder. Tokens that are patterns, not paths, are skipped: with `*`,
`<`, `{` or a placeholder segment written in capitals (`NNNN-title.md`, `DATA/tls/`).

Exit status: 0 when every named path exists, 1 when some do not (each printed as
`doc:line: path`), 2 on bad usage.
"""

import os
import re
import sys

DOC_SUFFIX = ".md"
# A path token: a top-level folder of the tree, then path characters. What comes before
# must not be a path character (so `/v2/invoice` or `https://` do not count).
PATH_CHARS = r"[A-Za-z0-9_./*{}<>-]"
TRAILING_PUNCTUATION = ".,:;)"


def top_level_folders(root):
    return sorted(
        name for name in os.listdir(root)
        if os.path.isdir(os.path.join(root, name)) and name != ".git" and not name.startswith("build"))


def is_pattern(token):
    if any(c in token for c in "*<{"):
        return True
    # A segment such as NNNN_name.sql or DATA names a placeholder, not a file.
    return any(re.match(r"^[A-Z]{3,}", segment) for segment in token.split("/")[1:])


def doc_files(root):
    yield os.path.join(root, "README.md")
    for folder, _dirs, files in os.walk(os.path.join(root, "docs")):
        for name in sorted(files):
            if name.endswith(DOC_SUFFIX):
                yield os.path.join(folder, name)


def missing_paths(root):
    folders = "|".join(re.escape(f) for f in top_level_folders(root))
    token = re.compile(r"(?<![A-Za-z0-9_./-])(?:%s)/%s*" % (folders, PATH_CHARS))
    for doc in doc_files(root):
        with open(doc, encoding="utf-8") as handle:
            for number, line in enumerate(handle, start=1):
                for match in token.finditer(line):
                    path = match.group(0).rstrip(TRAILING_PUNCTUATION)
                    if is_pattern(path):
                        continue
                    if not os.path.exists(os.path.join(root, path)):
                        yield os.path.relpath(doc, root), number, path


def main(argv):
    if len(argv) > 2:
        print(__doc__, file=sys.stderr)
        return 2
    root = argv[1] if len(argv) == 2 else os.path.join(os.path.dirname(__file__), "..")
    found = list(missing_paths(os.path.abspath(root)))
    for doc, number, path in found:
        print("%s:%d: %s" % (doc, number, path))
    if found:
        print("check-doc-paths: %d path(s) named by the docs do not exist" % len(found), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
