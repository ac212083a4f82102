#!/usr/bin/python3
"""Regenerates api_endpoints.txt and api_fields.tsv from the two parts of the bank API v2
documentation (plain-text copies, given on the command line). Not used by the build or the
tests: they read the committed extracts. Run from anywhere:

    /usr/bin/python3 tests/data/extract_api_tables.py PART1.txt PART2.txt

Only the machine-readable facts are kept: the method and path of every row of the endpoint
tables, and the name and type of every row of the field tables under "Resources and their
fields" whose Field cell is plain names (the `<entity>` placeholder row of Log is left out).
"""
import pathlib
import re
import sys

ENDPOINT_ROW = re.compile(r"^\| (GET|POST|PUT|PATCH|DELETE) \| (/v2/[^ |]*) \|")
FIELD_ROW = re.compile(r"^\| ([a-zA-Z0-9, ]+) \| ((?:STRING|INTEGER|FLOAT|LIST|BOOLEAN|OBJECT|timestamp)[^|]*)\|")


def extract(part, text, endpoints, fields):
    section = heading = ""
    last_endpoint_heading = None
    for line in text.splitlines():
        if line.startswith("## "):
            section = line[3:].strip()
        elif line.startswith("### "):
            heading = line[4:].strip()
        m = ENDPOINT_ROW.search(line)
        if m:
            if (section, heading) != last_endpoint_heading:
                endpoints.append(f"# part {part}, {section} > {heading}")
                last_endpoint_heading = (section, heading)
            endpoints.append(f"{m[1]} {m[2]}")
            continue
        m = FIELD_ROW.search(line)
        if m and section == "Resources and their fields":
            for name in m[1].split(","):
                if name.strip():
                    fields.append(f"{part}\t{heading}\t{name.strip()}\t{m[2].strip()}")


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: extract_api_tables.py PART1.txt PART2.txt")
    out = pathlib.Path(__file__).resolve().parent
    endpoints = [
        "# Every endpoint of the bank API v2 documentation: METHOD PATH, one per line.",
        "# '#' lines name the part and section the rows below them come from.",
    ]
    fields = ["part\tresource\tfield\ttype"]
    for part, path in enumerate(sys.argv[1:], start=1):
        extract(part, pathlib.Path(path).read_text(encoding="utf-8"), endpoints, fields)
    (out / "api_endpoints.txt").write_text("\n".join(endpoints) + "\n", encoding="utf-8")
    (out / "api_fields.tsv").write_text("\n".join(fields) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
