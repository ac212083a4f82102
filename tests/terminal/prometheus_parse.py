#!/usr/bin/python3
"""Reads a Prometheus text exposition (the file named by the first argument) with
prometheus_client's parser (Debian's python3-prometheus-client, the reference Python
implementation) and prints what it understood as JSON:
[{"name", "type", "documentation", "samples": [{"name", "labels", "value"}]}].
Anything the parser refuses is an exception and a non-zero exit."""
import json
import sys

from prometheus_client.parser import text_string_to_metric_families

with open(sys.argv[1], encoding="utf-8") as exposition:
    text = exposition.read()
families = []
for family in text_string_to_metric_families(text):
    families.append({
        "name": family.name,
        "type": family.type,
        "documentation": family.documentation,
        "samples": [{"name": s.name, "labels": s.labels, "value": s.value} for s in family.samples],
    })
json.dump(families, sys.stdout, allow_nan=False)
