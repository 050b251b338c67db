"""Reads a JUnit XML report with junitparser (PyPI) and prints what it found as JSON.

Usage: read_junit.py REPORT

Prints {"suites": [{"name", "tests", "failures", "errors", "skipped",
"cases": [{"name", "classname", "results": [{"kind", "type", "message", "text"}]}]}]}.
"""
import json
import sys

from junitparser import JUnitXml, TestSuite


def main():
    xml = JUnitXml.fromfile(sys.argv[1])
    suites = [xml] if isinstance(xml, TestSuite) else list(xml)
    out = []
    for suite in suites:
        cases = []
        for case in suite:
            results = [{"kind": type(r).__name__.lower(), "type": r.type, "message": r.message, "text": r.text}
                       for r in case.result]
            cases.append({"name": case.name, "classname": case.classname, "results": results})
        out.append({"name": suite.name, "tests": suite.tests, "failures": suite.failures, "errors": suite.errors,
                    "skipped": suite.skipped, "cases": cases})
    json.dump({"suites": out}, sys.stdout)


main()
