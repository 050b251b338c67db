"""Reads SARIF logs the way their consumers do, and prints what they found as JSON.

Usage: read_sarif.py SCHEMA LOG...

Each log is validated against the SARIF 2.1.0 JSON schema with `jsonschema` (draft 4, the
schema's own dialect), then loaded with sarif-tools (PyPI `sarif-tools`), which lists its
results as records. Prints {log: {"schemaErrors": [...], "records": [...]}}.
"""
import json
import sys

import jsonschema
from sarif import loader


def main():
    schema_path, logs = sys.argv[1], sys.argv[2:]
    with open(schema_path, encoding="utf-8") as f:
        schema = json.load(f)
    validator = jsonschema.Draft4Validator(schema, format_checker=jsonschema.Draft4Validator.FORMAT_CHECKER)
    out = {}
    for path in logs:
        with open(path, encoding="utf-8") as f:
            document = json.load(f)
        errors = ["%s: %s" % ("/".join(str(p) for p in e.absolute_path), e.message)
                  for e in validator.iter_errors(document)]
        records = loader.load_sarif_file(path).get_records()
        out[path] = {
            "schemaErrors": errors,
            "records": [{"code": r["Code"], "severity": r["Severity"], "line": r["Line"],
                         "location": r["Location"]} for r in records],
        }
    json.dump(out, sys.stdout)


main()
