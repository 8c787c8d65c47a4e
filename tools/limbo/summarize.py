#!/usr/bin/env python3
"""Agreement with x509-limbo's expected results per namespace, Coffer beside its two anchors.

usage: summarize.py LIMBO_JSON --result NAME=RESULT_JSON ... [--disagreements FILE]
                    [--notes FILE] [--header TEXT ...] [--check NAME]

Each RESULT_JSON is limbo's result format, {"version": 1, "harness": ..., "results": [{"id",
"actual_result", "context"}]}, as limbo's harnesses and Coffer's coffer-limbo write it; a missing
file gives a column of "-". If RESULT_JSON.wall exists it holds the run's wall time in seconds.

Prints one table: per namespace (the id's prefix before "::"), for each result, the cases that
agree with the expected result out of all cases, and in brackets the false accepts (expected
FAILURE, got SUCCESS), false rejects (the reverse) and skipped ones. A case with no result, or with
HANG, counts as a disagreement.

--disagreements FILE  lists every testcase where the result named by --check (default: the first,
                      Coffer) disagrees with the expected result or skipped it: expected and actual
                      results, the other results on the same case, the harness's reason, the
                      testcase's description, and the note for that id from --notes if any.
--notes FILE          lines "ID<TAB>WHY": why a known disagreement is right or acceptable.
--check NAME          also marks namespaces where NAME agrees on fewer cases than the best other.
"""

import argparse
import json
import os
import sys
from collections import Counter, defaultdict


def ns_of(tc_id: str) -> str:
    return tc_id.split("::", 1)[0]


def classify(expected: str, actual: str) -> str:
    if actual == "SKIPPED":
        return "skipped"
    if actual == expected:
        return "agree"
    if expected == "FAILURE" and actual == "SUCCESS":
        return "false_accept"
    if expected == "SUCCESS" and actual == "FAILURE":
        return "false_reject"
    return "other"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("limbo")
    parser.add_argument("--result", action="append", default=[], metavar="NAME=RESULT_JSON")
    parser.add_argument("--disagreements")
    parser.add_argument("--notes")
    parser.add_argument("--header", action="append", default=[])
    parser.add_argument("--check")
    args = parser.parse_args()

    with open(args.limbo) as f:
        testcases = json.load(f)["testcases"]
    expected = {tc["id"]: tc["expected_result"] for tc in testcases}
    descriptions = {tc["id"]: " ".join((tc.get("description") or "").split()) for tc in testcases}
    namespaces = sorted({ns_of(i) for i in expected})

    results = []  # (name, harness, wall, by_id or None)
    for spec in args.result:
        name, path = spec.split("=", 1)
        if not os.path.exists(path):
            results.append((name, "not run", None, None))
            continue
        with open(path) as f:
            raw = json.load(f)
        wall = None
        if os.path.exists(path + ".wall"):
            wall = open(path + ".wall").read().strip()
        by_id = {r["id"]: r for r in raw["results"]}
        results.append((name, raw.get("harness", "?"), wall, by_id))

    counts = {}
    for name, _, _, by_id in results:
        if by_id is None:
            continue
        c: dict[str, Counter] = defaultdict(Counter)
        for tc_id, exp in expected.items():
            r = by_id.get(tc_id)
            cat = classify(exp, r["actual_result"]) if r else "other"
            for key in (ns_of(tc_id), "ALL"):
                c[key][cat] += 1
        counts[name] = c

    out = []
    for line in args.header:
        out.append(line)
    out.append(f"limbo.json: {len(expected)} testcases in {len(namespaces)} namespaces")
    for name, harness, wall, by_id in results:
        extra = ""
        if by_id is not None:
            unknown = len(set(by_id) - set(expected))
            extra = f", {len(by_id)} results" + (f" ({unknown} ids not in limbo.json)" if unknown else "")
        out.append(f"  {name}: harness {harness}" + (f", wall time {wall} s" if wall else "") + extra)
    out.append("")
    out.append("Cases that agree with the expected result / all cases [false accepts, false rejects, skipped];")
    out.append("a HANG or a missing result is a disagreement of neither kind.")
    names = [r[0] for r in results]
    width = 26
    header = f"{'namespace':<14}{'cases':>6}  " + "".join(f"{n:<{width}}" for n in names)
    if args.check:
        header += "  best?"
    out.append(header)
    out.append("-" * len(header))
    behind = []
    for key in namespaces + ["ALL"]:
        if key == "ALL":
            out.append("-" * len(header))
        total = sum(1 for i in expected if key == "ALL" or ns_of(i) == key)
        row = f"{key:<14}{total:>6}  "
        agree_by = {}
        for n in names:
            if n not in counts:
                row += f"{'-':<{width}}"
                continue
            c = counts[n][key]
            agree_by[n] = c["agree"]
            cell = f"{c['agree']}/{total} [{c['false_accept']},{c['false_reject']},{c['skipped']}]"
            row += f"{cell:<{width}}"
        if args.check and args.check in agree_by:
            others = [v for n, v in agree_by.items() if n != args.check]
            best = max(others) if others else 0
            ok = agree_by[args.check] >= best
            row += "  " + ("yes" if ok else f"no ({agree_by[args.check] - best:+d})")
            if not ok and key != "ALL":
                behind.append(key)
        out.append(row)
    if args.check and args.check in counts:
        out.append("")
        out.append(f"{args.check} agrees on at least as many cases as the better anchor in every namespace"
                   if not behind else f"{args.check} is behind the better anchor in: {', '.join(behind)}")
    text = "\n".join(out) + "\n"
    sys.stdout.write(text)

    if args.disagreements:
        check = args.check or names[0]
        by_id = dict((r[0], r[3]) for r in results).get(check)
        notes = {}
        if args.notes and os.path.exists(args.notes):
            for line in open(args.notes):
                if line.strip() and not line.startswith("#") and "\t" in line:
                    tc_id, why = line.rstrip("\n").split("\t", 1)
                    notes[tc_id] = why
        lines = [f"Testcases where {check} disagrees with x509-limbo's expected result, or skipped it."]
        lines += args.header
        if by_id is None:
            lines.append(f"{check} was not run.")
        else:
            listed = 0
            for key in namespaces:
                ids = [i for i in sorted(expected) if ns_of(i) == key
                       and classify(expected[i], (by_id.get(i) or {}).get("actual_result", "MISSING")) != "agree"]
                if not ids:
                    continue
                lines.append("")
                lines.append(f"== {key} ({len(ids)})")
                for i in ids:
                    r = by_id.get(i)
                    actual = r["actual_result"] if r else "MISSING"
                    others = []
                    for n, _, _, other in results:
                        if n != check and other is not None:
                            others.append(f"{n} {(other.get(i) or {}).get('actual_result', 'MISSING')}")
                    lines.append(f"{i}")
                    lines.append(f"  expected {expected[i]}, {check} {actual}" + (f"; {', '.join(others)}" if others else ""))
                    lines.append(f"  {check}'s reason: {((r or {}).get('context') or '(none given)')}")
                    if i in notes:
                        lines.append(f"  why: {notes[i]}")
                    if descriptions[i]:
                        d = descriptions[i]
                        lines.append(f"  case: {d[:300] + ('…' if len(d) > 300 else '')}")
                    listed += 1
            lines.insert(1 + len(args.header), f"{listed} testcases.")
        with open(args.disagreements, "w") as f:
            f.write("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
