#!/usr/bin/env python3
"""Times the XML reader against `xmllint --noout` and Python's xmltodict on one synthetic catalog.

usage: bench-reader.py [N_PRODUCTS] [RUNS]     (defaults: 10000 products, 7 runs)

Builds the release reader benchmark, writes the catalog with gen_catalog.py, then runs the
contenders interleaved (so machine noise hits all alike) and prints medians, peak memory and the
ratio to xmllint. Wall times on a shared machine drift; the ratios from one run are what to quote.
"""
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def peak_kb(cmd):
    out = subprocess.run(["/usr/bin/time", "-f", "%M"] + cmd, capture_output=True, text=True)
    return int(out.stderr.strip().splitlines()[-1])


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 10000
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 7
    subprocess.run(["swift", "build", "-c", "release", "--product", "XMLReaderBench"], cwd=ROOT,
                   check=True, stdout=subprocess.DEVNULL, env=dict(os.environ, IAPDOCTOR_UNCHECKED_EXCLUSIVITY="1"))
    bench = os.path.join(ROOT, ".build", "release", "XMLReaderBench")
    with tempfile.TemporaryDirectory() as tmp:
        catalog = os.path.join(tmp, f"catalog-{n}.xml")
        subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "gen_catalog.py"), str(n), catalog],
                       check=True)
        contenders = {
            "xmllint --noout": ["xmllint", "--noout", catalog],
            "reader, tree": [bench, catalog, "tree"],
            "reader, stream per product": [bench, catalog, "stream", "5"],
            "xmltodict.parse": [sys.executable, "-c",
                                "import sys, xmltodict; xmltodict.parse(open(sys.argv[1], 'rb'))", catalog],
        }
        times = {name: [] for name in contenders}
        for _ in range(runs):
            for name, cmd in contenders.items():
                start = time.perf_counter()
                subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
                times[name].append(time.perf_counter() - start)
        base = statistics.median(times["xmllint --noout"])
        print(f"catalog: {n} products, {os.path.getsize(catalog) / 1e6:.1f} MB; {runs} interleaved runs")
        print(f"{'contender':30} {'median s':>9} {'× xmllint':>10} {'peak MB':>8}")
        for name, cmd in contenders.items():
            median = statistics.median(times[name])
            print(f"{name:30} {median:9.3f} {median / base:10.2f} {peak_kb(cmd) / 1024:8.1f}")


if __name__ == "__main__":
    main()
