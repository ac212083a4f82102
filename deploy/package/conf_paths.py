#!/usr/bin/python3
"""Checks the shipped /etc/balcao/balcao.conf against the units that run it.

usage: conf_paths.py BALCAO_CONF UNIT...
The file is JSON with // and /* */ comments (what `balcao serve --config` reads). Its
"data_dir" must be the units' StateDirectory and its "log.file" must lie in their
LogsDirectory: under ProtectSystem=strict these are the only folders the service may write.
Prints what differs and exits 1; exits 0 when they agree.
"""
import json
import re
import sys


def strip_comments(text):
    """Removes // and /* */ comments outside JSON strings (as nlohmann's ignore_comments)."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1])
            i = j + 1
        elif text.startswith("//", i):
            i = text.find("\n", i)
            i = n if i < 0 else i
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            if end < 0:
                raise ValueError("a /* comment is not closed")
            i = end + 2
        else:
            out.append(c)
            i += 1
    return "".join(out)


def unit_setting(paths, key):
    values = set()
    for path in paths:
        with open(path, encoding="utf-8") as f:
            values.update(m.group(1) for m in re.finditer(r"^" + key + r"=(\S+)\s*$", f.read(), re.M))
    return values


def main():
    conf_path, units = sys.argv[1], sys.argv[2:]
    with open(conf_path, encoding="utf-8") as f:
        conf = json.loads(strip_comments(f.read()))
    problems = []
    states = unit_setting(units, "StateDirectory")
    logs = unit_setting(units, "LogsDirectory")
    if len(states) != 1 or len(logs) != 1:
        problems.append(f"the units disagree: StateDirectory={sorted(states)} LogsDirectory={sorted(logs)}")
    else:
        state_dir, log_dir = "/var/lib/" + states.pop(), "/var/log/" + logs.pop()
        if conf.get("data_dir") != state_dir:
            problems.append(f'data_dir is {conf.get("data_dir")!r}, the units give the service {state_dir}')
        log_file = conf.get("log", {}).get("file")
        if log_file is not None and not log_file.startswith(log_dir + "/"):
            problems.append(f"log.file {log_file!r} is outside the units' {log_dir}")
    for p in problems:
        print(f"{conf_path}: {p}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
