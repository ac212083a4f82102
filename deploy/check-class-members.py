#!/usr/bin/python3
"""Lists the classes and structs of the box's code (terminal/) that own more than 12 members
(docs/style.md, "Parts own a few things").

Usage: check-class-members.py [SOURCE_DIR] [--max N] [--dir DIR]... [--list]

Each .cc/.h file under the dirs (terminal/ by default; tests and build skipped) is read with
its comments, strings and preprocessor lines blanked (check-function-length.py's reading).
In each class or struct body, every top-level declaration that is not a function, a type, a
`using`, a `static` or `friend` one, nor a reference or raw pointer (a part is given what it
calls; a raw pointer never owns here) is an owned member; `T a, b;` is two. Nested classes are
counted on their own. A record -- a struct of plain values with no function and nothing that
holds a resource (no unique_ptr, shared_ptr, thread, mutex or atomic), such as a config file's
fields -- is data, not a part: it is listed with --list but never over the limit. --list
prints every class with its count. Exit status: 0 when none is over the limit, 1 when some are
(each printed as `path:line: Name owns N members`), 2 on bad usage.
"""

import importlib.util
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("function_length", os.path.join(HERE, "check-function-length.py"))
_fl = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_fl)

RESOURCE = re.compile(r"\b(unique_ptr|shared_ptr|thread|mutex|atomic|Wakeup)\b")
CLASS_HEAD = re.compile(r"\b(class|struct)\s+(?:\[\[[^\]]*\]\]\s*)?([A-Za-z_]\w*(?:::\w+)*)\s*(?:final\s*)?(?::[^;{]*)?$")


def strip_nested(text, open_ch, close_ch):
    """`text` without what sits inside `open_ch`...`close_ch` pairs (the pairs themselves kept)."""
    out, depth = [], 0
    for c in text:
        if c == open_ch:
            if depth == 0:
                out.append(c)
            depth += 1
        elif c == close_ch and depth > 0:
            depth -= 1
            if depth == 0:
                out.append(c)
        elif depth == 0:
            out.append(c)
    return "".join(out)


def owned_in(declaration):
    """How many owned members one top-level declaration of a class body declares."""
    d = " ".join(declaration.split())
    d = re.sub(r"^(public|private|protected)\s*:\s*", "", d)
    if not d or re.match(r"(using|typedef|friend|static|enum|template|class|struct|union)\b", d):
        return 0
    if d.startswith("~") or re.search(r"\boperator\b", d):
        return 0
    d = strip_nested(d, "<", ">")
    d = re.split(r"\s*=\s*", d, maxsplit=1)[0] if "=" in d and "(" not in d.split("=")[0] else d
    if "(" in strip_nested(d, "{", "}").split("=")[0]:
        return -1  # a function (or a constructor) declaration
    d = strip_nested(d, "{", "}")
    names = [part for part in d.split(",") if part.strip()]
    count = 0
    for part in names:
        if "&" in part or "*" in part:
            continue  # a reference or a raw pointer: given, not owned
        count += 1
    return count


def classes_in(text):
    """(line, name, owned, is_part) for every class or struct body of blanked `text`."""
    found = []

    def body(start, name, line):
        # `start` is just past the class's '{'; returns the index past its '}'.
        state = {"owned": 0, "part": False}
        decl, i, n = [], start, len(text)

        def take(declaration):
            count = owned_in(declaration)
            if count < 0 or RESOURCE.search(declaration):
                state["part"] = True
            state["owned"] += max(count, 0)

        while i < n:
            c = text[i]
            if c == "}":
                take("".join(decl))
                found.append((line, name, state["owned"], state["part"]))
                return i + 1
            if c == "{":
                head = "".join(decl).strip()
                m = CLASS_HEAD.search(" ".join(head.split()))
                if m:
                    i = body(i + 1, name + "::" + m.group(2), text.count("\n", 0, i) + 1)
                    decl = []  # a nested class: its own count; `} name;` would follow
                    continue
                depth, j = 1, i + 1
                while j < n and depth:
                    depth += {"{": 1, "}": -1}.get(text[j], 0)
                    j += 1
                if "(" in strip_nested(head, "<", ">") and not re.search(r"=\s*$", head):
                    state["part"] = True
                    decl, i = [], j  # a function body (or a constructor's): not a member
                    continue
                decl.append(text[i:j])
                i = j
                continue
            if c == ";":
                take("".join(decl))
                decl = []
            elif c == ":" and re.search(r"\b(public|private|protected)\s*$", "".join(decl)):
                decl = []
            else:
                decl.append(c)
            i += 1
        return i

    i, n = 0, len(text)
    head_start = 0
    while i < n:
        c = text[i]
        if c in ";}":
            head_start = i + 1
        elif c == "{":
            head = " ".join(text[head_start:i].split())
            m = CLASS_HEAD.search(head)
            if m and not re.search(r"\benum\b", head):
                i = body(i + 1, m.group(2), text.count("\n", 0, i) + 1)
                head_start = i
                continue
            head_start = i + 1
        i += 1
    return found


def main(argv):
    root, limit, dirs, listing = ".", 12, [], False
    args = list(argv[1:])
    while args:
        a = args.pop(0)
        if a == "--max" and args:
            limit = int(args.pop(0))
        elif a == "--dir" and args:
            dirs.append(args.pop(0))
        elif a == "--list":
            listing = True
        elif a.startswith("-"):
            print(__doc__)
            return 2
        else:
            root = a
    counted = []  # (path, line, name, owned, is_part)
    for d in dirs or ["terminal"]:
        for path in _fl.source_files(os.path.join(root, d)):
            with open(path, encoding="utf-8", errors="replace") as fh:
                text = _fl.blank_literals(fh.read())
            counted += [(os.path.relpath(path, root),) + found for found in classes_in(text)]
    if listing:
        for rel, line, name, owned, part in counted:
            print(f"{owned:3d}  {rel}:{line}: {name}{'' if part else '  (record)'}")
    over = [c for c in counted if c[4] and c[3] > limit]
    if not over:
        return 0
    print("\n".join(f"{rel}:{line}: {name} owns {owned} members (limit {limit})" for rel, line, name, owned, _ in over))
    print(f"{len(over)} class(es) own more than {limit} members: split them into parts (docs/style.md S19)")
    return 1

if __name__ == "__main__":
    sys.exit(main(sys.argv))
