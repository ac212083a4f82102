#!/usr/bin/python3
"""Lists the C++ functions longer than 80 lines outside tests (docs/style.md, "Function length").

Usage: check-function-length.py [SOURCE_DIR] [--max N] [--allow FILE]

A brace-matching reading of each .cc/.h file (comments, strings, character literals and
preprocessor lines blanked first): a brace at namespace or class level opens a function
when the text before it ends a parameter list (a ')' with at most qualifiers, a trailing
return type or a constructor's initializer list after it); namespaces, extern "C" and
class/struct/union bodies are scopes whose members are looked at one by one; enum bodies
and initializers (`= {`, `T x{...}`) are not functions. A function's length is counted from
the line of its opening brace to the line of its closing brace. Lambdas and local classes
count as part of the function that holds them.

The allow-list (deploy/function-length-allow.txt by default) names data tables that may be
long: one `path:Name` per line, `#` comments. Exit status: 0 when no function is over the
limit, 1 when some are (each printed as `path:line: Name is N lines`), 2 on bad usage.
"""

import os
import re
import sys

SKIP_DIRS = {".git", "node_modules", "tests", "build"}
SOURCE_SUFFIXES = (".cc", ".h")


def blank_literals(text):
    """The text with comments, string/char literals and preprocessor lines replaced by
    spaces, newlines kept, so that braces and line numbers are the code's own."""
    out = []
    i, n = 0, len(text)
    line_start = True
    while i < n:
        c = text[i]
        if line_start and c in " \t":
            out.append(c)
            i += 1
            continue
        if line_start and c == "#":  # a preprocessor line, with its continuations
            while i < n and text[i] != "\n":
                if text[i] == "\\" and i + 1 < n and text[i + 1] == "\n":
                    out.append(" \n")
                    i += 2
                    continue
                out.append(" ")
                i += 1
            continue
        line_start = False
        if c == "\n":
            out.append(c)
            line_start = True
            i += 1
        elif text.startswith("//", i):
            while i < n and text[i] != "\n":
                out.append(" ")
                i += 1
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            out.append(re.sub(r"[^\n]", " ", text[i:end]))
            i = end
        elif c == "R" and i + 1 < n and text[i + 1] == '"' and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            m = re.match(r'R"([^()\\ ]{0,16})\(', text[i:])
            if not m:
                out.append(c)
                i += 1
                continue
            close = ")" + m.group(1) + '"'
            end = text.find(close, i + m.end())
            end = n if end < 0 else end + len(close)
            out.append('""' + re.sub(r"[^\n]", " ", text[i + 2 : end]))
            i = end
        elif c in "\"'":
            if c == "'" and i > 0 and text[i - 1].isalnum():  # a digit separator: 1'000
                out.append(" ")
                i += 1
                continue
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(c + " " * (min(j, n) - i - 1) + (c if j < n else ""))
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def strip_templates(head):
    """`template <...>` prefixes removed (their angle brackets may hold parentheses)."""
    while True:
        m = re.match(r"\s*template\s*<", head)
        if not m:
            return head
        depth, i = 1, m.end()
        while i < len(head) and depth:
            depth += {"<": 1, ">": -1}.get(head[i], 0)
            i += 1
        head = head[i:]


def classify(head):
    """What a '{' at namespace or class level opens, from the text since the last ; { }."""
    h = strip_templates(re.sub(r"\[\[.*?\]\]", " ", head)).strip()
    if re.match(r"(inline\s+)?namespace\b", h) or re.match(r'extern\s*""', h):
        return "scope", None
    if re.match(r"(typedef\s+)?enum\b", h):
        return "other", None
    m = re.match(r"(class|struct|union)\s+(?:alignas\s*\([^)]*\)\s*)?([A-Za-z_]\w*)?", h)
    if m and "(" not in h.split(":", 1)[0]:
        return "class", m.group(2) or "(anonymous)"
    if "(" not in h or h.endswith("="):
        return "other", None
    # A constructor's member initializer in braces (`: a_(x), b_{`): the body comes later.
    if re.search(r"\)\s*:\s*", h) and re.search(r"[\w>]\s*$", h) and not re.search(r"\)\s*$", h):
        after_colon = h[re.search(r"\)\s*:", h).end():]
        if not re.search(r"\b(const|noexcept|override|final)\s*$", after_colon):
            return "init", None
    name_part = h.split("(", 1)[0]
    names = re.findall(r"(?:operator\s*\S+|~?[A-Za-z_][\w:~]*(?:<[^()]*>)?(?:::~?[A-Za-z_]\w*)*)\s*$", name_part)
    name = names[0].strip() if names else "(lambda)"
    if re.search(r"=\s*\[", h) or h.startswith("["):
        name = name_part.split("=")[0].split()[-1] if "=" in name_part else "(lambda)"
    return "function", name


def long_functions(path, text, limit):
    code = blank_literals(text)
    found = []
    # Each open brace: (kind, name, line). kind "scope"/"class" keep looking at members.
    stack = []
    head = []
    saved_heads = []
    line = 1
    function_depth = None  # stack depth of the function being read
    for c in code:
        if c == "\n":
            line += 1
            head.append(" ")
            continue
        if function_depth is not None:
            if c == "{":
                stack.append(("inner", None, line))
            elif c == "}":
                kind, name, start = stack.pop()
                if len(stack) == function_depth:
                    length = line - start + 1
                    if length > limit:
                        found.append((start, name, length))
                    function_depth = None
                    head = []
            continue
        if c == "{":
            kind, name = classify("".join(head))
            if kind == "class":
                outer = [n for k, n, _ in stack if k == "class"]
                name = "::".join(outer + [name])
            elif kind == "function":
                outer = [n for k, n, _ in stack if k == "class"]
                name = "::".join(outer + [name])
            if kind == "init":
                saved_heads.append("".join(head) + "{")
            stack.append((kind, name, line))
            head = []
            if kind == "function":
                function_depth = len(stack) - 1
        elif c == "}":
            if not stack:
                continue  # unbalanced (a macro's brace): ignore
            kind, _, _ = stack.pop()
            head = list(saved_heads.pop() + "}") if kind == "init" else []
        elif c == ";":
            head = []
        else:
            if stack and stack[-1][0] == "other":
                continue  # inside an initializer or enum: not a member
            head.append(c)
    return [(path, start, name, length) for start, name, length in found]


def read_allow_list(path):
    allowed = set()
    if not os.path.exists(path):
        return allowed
    with open(path, encoding="utf-8") as f:
        for raw in f:
            entry = raw.split("#", 1)[0].strip()
            if entry:
                allowed.add(entry)
    return allowed


def source_files(root):
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(
            d for d in dirnames
            if d not in SKIP_DIRS and not os.path.exists(os.path.join(dirpath, d, "CMakeCache.txt"))
        )
        for name in sorted(filenames):
            if name.endswith(SOURCE_SUFFIXES):
                yield os.path.join(dirpath, name)


def main(argv):
    root, limit, allow = None, 80, None
    args = list(argv[1:])
    while args:
        a = args.pop(0)
        if a == "--max" and args:
            limit = int(args.pop(0))
        elif a == "--allow" and args:
            allow = args.pop(0)
        elif a.startswith("-") or root is not None:
            print(__doc__.strip().splitlines()[2], file=sys.stderr)
            return 2
        else:
            root = a
    root = os.path.abspath(root or os.path.join(os.path.dirname(__file__), ".."))
    allowed = read_allow_list(allow or os.path.join(root, "deploy", "function-length-allow.txt"))
    offenders = []
    for path in source_files(root):
        rel = os.path.relpath(path, root)
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
        for _, start, name, length in long_functions(rel, text, limit):
            if f"{rel}:{name}" not in allowed:
                offenders.append((rel, start, name, length))
    for rel, start, name, length in offenders:
        print(f"{rel}:{start}: {name} is {length} lines (limit {limit})")
    if offenders:
        print(f"{len(offenders)} function(s) over {limit} lines: split them into named steps (docs/style.md)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
