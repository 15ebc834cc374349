#!/usr/bin/env python3
"""Prints .build-fuzz/logs/history.tsv (one line per scripts/fuzz.sh run) as the Markdown tables of
FUZZING.md: every run, then executions per target added up over the runs that resumed its corpus.

usage: scripts/fuzz-history.py [HISTORY.tsv]
"""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, ".build-fuzz", "logs", "history.tsv")
runs = []
for line in open(path, encoding="utf-8"):
    cells = line.rstrip("\n").split("\t")
    if len(cells) < 7:
        continue
    date, target, execs, seconds, coverage, corpus, verdict = cells[:7]
    revision = cells[7] if len(cells) > 7 else "?"
    runs.append((date, target, int(execs), int(seconds), coverage, corpus, verdict, revision))

print("| ended (UTC) | target | built from | executions | seconds | exec/s | coverage | corpus files | verdict |")
print("|---|---|---|---:|---:|---:|---|---:|---|")
for date, target, execs, seconds, coverage, corpus, verdict, revision in runs:
    rate = execs // seconds if seconds else execs
    print(f"| {date} | `{target}` | {revision} | {execs:,} | {seconds:,} | {rate:,} | {coverage} | {corpus} | {verdict} |")
print()
print("| target | runs | executions in all | last run's verdict | last coverage |")
print("|---|---:|---:|---|---|")
for target in ("xml", "descriptor", "pbxproj", "storekit", "typo", "pattern", "resolver", "manifest", "xcconfig", "snapshot"):
    mine = [r for r in runs if r[1] == target]
    if not mine:
        continue
    total = sum(r[2] for r in mine)
    print(f"| `{target}` | {len(mine)} | {total:,} | {mine[-1][6]} | {mine[-1][4]} |")
