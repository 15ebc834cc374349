#!/usr/bin/env python3
"""Benchmarks `iapdoctor check` against `xmllint --noout` and Python's `xmltodict.parse` (catalogs)
and PyYAML's C loader (descriptors), and writes the measured part of BENCHMARKS.md.

usage:
  scripts/bench.py [--binary PATH] [--runs N] [--sizes 1000,10000,100000] [--output BENCHMARKS.md]
  scripts/bench.py --smoke [--binary PATH]       # CI: tiny inputs, one run, checks, writes nothing
  scripts/bench.py --sections findings --sizes 10000,100000 --runs 3   # the faulty catalogs only

Without --binary, builds the release binary with its own scratch path
(`swift build -c release --static-swift-stdlib --scratch-path /tmp/iapdoctor-bench-build`, the
binary README recommends shipping), so it never collides with
other builds. Inputs come from scripts/gen_catalog.py and scripts/gen_descriptor.py (fixed seeds)
in a temporary folder. Contenders run interleaved on the same files (machine noise hits all
alike); each run is wrapped in `/usr/bin/time` (GNU `-v` on Linux, BSD `-l` on macOS) for the
peak resident set size; the tables show
medians and the ratio to the baseline of the same series. Only the block between the
`bench:begin` and `bench:end` markers of the output file is rewritten; the rest (the profile
notes, what was changed and why) is kept.

Not part of `swift test`. Needs xmllint (libxml2-utils) and, for their rows, the Python
packages xmltodict and PyYAML (with libyaml); a missing contender is reported, not fatal.
"""
import argparse
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRATCH = "/tmp/iapdoctor-bench-build"
BEGIN, END = "<!-- bench:begin -->", "<!-- bench:end -->"

XMLTODICT = "import sys, xmltodict; xmltodict.parse(open(sys.argv[1], 'rb'))"
PYYAML = "import sys, yaml; yaml.load(open(sys.argv[1], 'rb'), Loader=yaml.CSafeLoader)"


def sh(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def python_has(module):
    return sh([sys.executable, "-c", f"import {module}"]).returncode == 0


def has_csafeloader():
    return sh([sys.executable, "-c", "import yaml; yaml.CSafeLoader"]).returncode == 0


DARWIN = sys.platform == "darwin"


def measure(cmd, ok_codes=(0,)):
    """One run under /usr/bin/time, standard output to /dev/null: (wall seconds, peak RSS in MB,
    exit code). Reading a report through a pipe into Python timed Python too (an 18 MB JSON
    report added ~45 ms to a 180 ms check); `output_size` measures the bytes apart.

    GNU time (`-v`, Linux) reports the peak in KiB; BSD time (`-l`, macOS) in bytes. A small
    parent like time(1) is needed: on Linux a child's ru_maxrss starts at its parent's peak."""
    start = time.perf_counter()
    run = subprocess.run(["/usr/bin/time", "-l" if DARWIN else "-v"] + cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wall = time.perf_counter() - start
    if run.returncode not in ok_codes:
        raise RuntimeError(f"{' '.join(cmd)} exited {run.returncode}:\n{run.stderr[-2000:]}")
    if DARWIN:
        peak = re.search(r"(\d+)\s+maximum resident set size", run.stderr)
        megabytes = int(peak.group(1)) / (1 << 20) if peak else float("nan")
    else:
        peak = re.search(r"Maximum resident set size \(kbytes\): (\d+)", run.stderr)
        megabytes = int(peak.group(1)) / 1024 if peak else float("nan")
    return wall, megabytes, run.returncode


def output_size(cmd):
    """The bytes `cmd` writes to standard output (an untimed run)."""
    return len(subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL).stdout)


def series(contenders, runs, outputs=None):
    """Runs every contender `runs` times, interleaved. contenders: {name: (cmd, ok_codes)}.
    With `outputs` (a dict), records the byte size of each contender's standard output."""
    walls = {name: [] for name in contenders}
    peaks = {name: [] for name in contenders}
    if outputs is not None:
        for name, (cmd, _) in contenders.items():
            outputs[name] = output_size(cmd)
    for _ in range(runs):
        for name, (cmd, ok) in contenders.items():
            wall, peak, _ = measure(cmd, ok)
            walls[name].append(wall)
            peaks[name].append(peak)
    return {name: (statistics.median(walls[name]), max(peaks[name]), walls[name]) for name in contenders}


def build(scratch):
    print(f"building the release binary (scratch path {scratch}) ...", flush=True)
    static = ["--static-swift-stdlib"] if sys.platform.startswith("linux") else []
    # As the README ships it: exclusivity checks dropped (Package.swift), static runtime on Linux.
    env = dict(os.environ, IAPDOCTOR_UNCHECKED_EXCLUSIVITY="1")
    subprocess.run(["swift", "build", "-c", "release", *static, "--scratch-path", scratch, "--product", "iapdoctor"],
                   cwd=ROOT, check=True, stdout=subprocess.DEVNULL, env=env)
    return os.path.join(scratch, "release", "iapdoctor")


def machine():
    cpu = "?"
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        cpu = (sh(["sysctl", "-n", "machdep.cpu.brand_string"]).stdout.strip() if DARWIN else "") or platform.processor() or "?"
    if DARWIN:
        memsize = sh(["sysctl", "-n", "hw.memsize"]).stdout.strip()
        memory = f"{int(memsize) / (1 << 30):.0f}Gi" if memsize.isdigit() else "?"
    else:
        total = re.search(r"Mem:\s+(\S+)", sh(["free", "-h"]).stdout) if shutil.which("free") else None
        memory = total.group(1) if total else "?"
    swift = sh(["swift", "--version"]).stdout.strip().splitlines()[0] if shutil.which("swift") else "?"
    xmllint = sh(["xmllint", "--version"]).stderr.strip().splitlines()[0] if shutil.which("xmllint") else "missing"
    pkgs = sh([sys.executable, "-c",
               "import importlib.metadata as m\nfor p in ('xmltodict', 'PyYAML'):\n"
               "    try: print(p, m.version(p))\n    except Exception: print(p, 'missing')"]).stdout.split("\n")
    return {
        "date": sh(["date"]).stdout.strip(),
        "nproc": str(os.cpu_count() or "?"),
        "memory": memory,
        "cpu": cpu,
        "load": os.getloadavg() if hasattr(os, "getloadavg") else None,
        "swift": swift,
        "xmllint": xmllint,
        "python": f"Python {platform.python_version()}; " + ", ".join(p for p in pkgs if p),
    }


def gen_catalog(n, folder, *extra):
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, "metadata.xml")
    subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "gen_catalog.py"), str(n), path, *extra], check=True)
    return path


def gen_descriptor(n, path, *extra):
    subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "gen_descriptor.py"), str(n), path, *extra], check=True)
    return path


def findings(binary, path, rules=None):
    cmd = [binary, "check", path, "--format", "json"] + (["--rules", rules] if rules else [])
    run = sh(cmd)
    if run.returncode not in (0, 1):
        raise RuntimeError(f"{' '.join(cmd)} exited {run.returncode}: {run.stderr[-2000:]}")
    return [f["rule"] for f in json.loads(run.stdout)["findings"]]


def check_clean(binary, path, count):
    """A clean catalog gets the retired-feed note, and the 1,000-item finding past 1,000 items."""
    expected = ["catalog-xml-feed-retired"] + (["catalog-too-many-items"] if count > 1000 else [])
    got = sorted(findings(binary, path))
    if got != sorted(expected):
        raise RuntimeError(f"{path}: expected only {expected}, got {got[:20]}")


def summary_total(binary, path):
    """Every finding the check counts (listed or not), from the JSON summary."""
    run = sh([binary, "check", path, "--format", "json"])
    if run.returncode not in (0, 1):
        raise RuntimeError(f"{path}: exited {run.returncode}: {run.stderr[-2000:]}")
    summary = json.loads(run.stdout)["summary"]
    return summary["errors"] + summary["warnings"] + summary["notes"]


def findings_series(binary, work, sizes, densities, formats, runs, have_xmllint):
    """Clean and faulty catalogs (`gen_catalog.py --density R`) per size, each format
    against xmllint on the same file, interleaved. Per finding: the time and peak memory added over
    the clean catalog in the same format, and the output bytes."""
    blocks = []
    for n in sizes:
        for density in [0.0] + densities:
            extra = ["--density", str(density)] if density else []
            path = gen_catalog(n, os.path.join(work, f"findings-{n}-{density}"), *extra)
            total = summary_total(binary, path)
            contenders = {f: ([binary, "check", path, "--format", f], (0, 1)) for f in formats}
            if have_xmllint:
                contenders["xmllint --noout"] = (["xmllint", "--noout", path], (0,))
            r = min(runs, 3) if n >= 100000 else runs
            print(f"findings: {n} items, density {density} ({total} findings), {r} runs ...", flush=True)
            outputs = {}
            blocks.append({"n": n, "density": density, "findings": total, "mb": os.path.getsize(path) / 1e6,
                           "runs": r, "results": series(contenders, r, outputs), "outputs": outputs})
            shutil.rmtree(os.path.dirname(path), ignore_errors=True)
    return blocks


def fmt(x, digits=3):
    return f"{x:.{digits}f}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", help="iapdoctor to measure (default: build a release binary)")
    parser.add_argument("--scratch-path", default=SCRATCH)
    parser.add_argument("--sizes", default="1000,10000,100000")
    parser.add_argument("--runs", type=int, default=5, help="runs per contender (100,000 items: at most 3)")
    parser.add_argument("--requests", default="100,300,1000", help="requested-ID counts for the cross-check series (0 is always added)")
    parser.add_argument("--output", default=os.path.join(ROOT, "BENCHMARKS.md"))
    parser.add_argument("--smoke", action="store_true", help="tiny inputs, one run, correctness checks; writes nothing")
    parser.add_argument("--keep", help="keep the generated inputs in this folder")
    parser.add_argument("--sections", default="catalogs,findings,descriptor,requests,startup",
                        help="which series to run (comma-separated)")
    parser.add_argument("--densities", default="0.01,1,2.5", help="findings per item of the faulty catalogs")
    parser.add_argument("--formats", default="json,sarif,text", help="formats timed on the faulty catalogs")
    args = parser.parse_args()

    if not shutil.which("/usr/bin/time") and not os.path.exists("/usr/bin/time"):
        sys.exit("/usr/bin/time (GNU time on Linux: apt-get install time) is required for peak memory")
    binary = os.path.abspath(args.binary) if args.binary else build(args.scratch_path)
    sizes = [200, 2000] if args.smoke else [int(s) for s in args.sizes.split(",")]
    request_counts = [100] if args.smoke else [int(s) for s in args.requests.split(",")]
    runs = 1 if args.smoke else args.runs
    have_xmllint = shutil.which("xmllint") is not None
    have_xmltodict = python_has("xmltodict")
    have_pyyaml = python_has("yaml") and has_csafeloader()
    skipped = [name for name, ok in [("xmllint", have_xmllint), ("xmltodict", have_xmltodict),
                                     ("PyYAML CSafeLoader", have_pyyaml)] if not ok]

    work = args.keep or tempfile.mkdtemp(prefix="iapdoctor-bench-")
    os.makedirs(work, exist_ok=True)
    linked = sh(["ldd", binary]).stdout if shutil.which("ldd") else ""
    report = {"machine": machine(), "binary": binary, "runs": runs, "skipped": skipped,
              "static": "libswiftCore" not in linked if linked else None}
    print(f"inputs in {work}; {runs} run(s) per contender", flush=True)

    # Determinism: the same seed gives the same bytes.
    a = gen_catalog(300, os.path.join(work, "det-a"), "--faults")
    b = gen_catalog(300, os.path.join(work, "det-b"), "--faults")
    if open(a, "rb").read() != open(b, "rb").read():
        raise RuntimeError("gen_catalog.py is not deterministic")

    sections = set(args.sections.split(","))
    # 1. Catalogs: iapdoctor vs xmllint vs xmltodict, per size.
    catalogs = []
    for n in (sizes if "catalogs" in sections else []):
        path = gen_catalog(n, os.path.join(work, f"catalog-{n}"))
        check_clean(binary, path, n)
        contenders = {"iapdoctor check --format json": ([binary, "check", path, "--format", "json"], (0, 1))}
        if have_xmllint:
            contenders["xmllint --noout"] = (["xmllint", "--noout", path], (0,))
        if have_xmltodict:
            contenders["xmltodict.parse"] = ([sys.executable, "-c", XMLTODICT, path], (0,))
        r = min(runs, 3) if n >= 100000 else runs
        print(f"catalog {n} items ({os.path.getsize(path) / 1e6:.1f} MB), {r} runs ...", flush=True)
        catalogs.append({"n": n, "mb": os.path.getsize(path) / 1e6, "runs": r, "results": series(contenders, r)})
    report["catalogs"] = catalogs

    # A faulty catalog (one fault in 97 items): the worst case has findings to report.
    n = sizes[1] if len(sizes) > 1 else sizes[0]
    if "catalogs" in sections:
        faulty = gen_catalog(n, os.path.join(work, f"faulty-{n}"), "--faults")
        report["faulty"] = {"n": n, "findings": len(findings(binary, faulty)),
                            "results": series({"iapdoctor check (faulty)": ([binary, "check", faulty, "--format", "json"], (0, 1))},
                                              min(runs, 3))}

    # 1b. Findings: faulty catalogs at several densities, per format.
    if "findings" in sections:
        densities = [0.01, 1.0] if args.smoke else [float(x) for x in args.densities.split(",")]
        report["findings"] = findings_series(binary, work, sizes, densities, args.formats.split(","), runs, have_xmllint)

    # 2. Descriptor: iapdoctor check vs PyYAML CSafeLoader on the same file.
    d = 200 if args.smoke else 10000
    if "descriptor" not in sections:
        d = 0
    if d:
        descriptor = gen_descriptor(d, os.path.join(work, f"project-{d}.yaml"), "--requests", "300")
        contenders = {"iapdoctor check project.yaml": ([binary, "check", descriptor, "--format", "json"], (0, 1))}
        if have_pyyaml:
            contenders["PyYAML yaml.load(CSafeLoader)"] = ([sys.executable, "-c", PYYAML, descriptor], (0,))
        print(f"descriptor {d} products ...", flush=True)
        report["descriptor"] = {"n": d, "mb": os.path.getsize(descriptor) / 1e6, "results": series(contenders, min(runs, 3))}

    # 3. Requested IDs against a catalog (did-you-mean, short forms): time against request count.
    # A small descriptor (20 products) lists the catalog and requests IDs drawn from all of its
    # items, a mix of exact, short, case, white-space, typo and missing ones. The catalog/descriptor
    # product comparison is switched off (the descriptor lists 20 of the catalog's products on purpose).
    rules = os.path.join(work, "requests.iapdoctor.yml")
    with open(rules, "w") as f:
        f.write("rules:\n  catalog-descriptor-mismatch: off\n")
    cross = []
    for c in ([] if "requests" not in sections else [2000] if args.smoke else [s for s in sizes if s >= 10000] or [sizes[-1]]):
        base = gen_catalog(c, os.path.join(work, f"requests-{c}"))
        for k in [0] + request_counts:
            project = gen_descriptor(20, os.path.join(work, f"requests-{c}", f"project-{k}.yaml"),
                                     "--catalog", base, "--requests", str(k), "--faults")
            res = series({f"{k} requests": ([binary, "check", project, "--rules", rules, "--format", "json"], (0, 1))},
                         min(runs, 3))
            cross.append({"catalog": c, "requests": k, "results": res})
    report["requests"] = {"series": cross}

    # 4. Start-up.
    if "startup" in sections:
        tiny = gen_catalog(1, os.path.join(work, "tiny"), "--screenshots", "1")
        report["startup"] = series({
            "iapdoctor --version": ([binary, "--version"], (0,)),
            "iapdoctor check (1-item catalog)": ([binary, "check", tiny, "--format", "json"], (0, 1)),
        }, 3 if args.smoke else 11)

    print_report(report)
    if args.smoke:
        # Start-up: a check must not load libcurl (the pull loads it with dlopen when it runs;
        # linking it made every start resolve ~30 more libraries).
        if "libcurl" in linked:
            sys.exit("smoke benchmark failed: the binary links libcurl:\n" + linked)
        # Memory is the one bound a smoke run can check on any machine: the catalog streams.
        for block in report["catalogs"]:
            peak = block["results"]["iapdoctor check --format json"][1]
            if peak > 64:
                sys.exit(f"smoke benchmark failed: {block['n']} items took {peak:.1f} MB (the bound is 64 MB)")
        # JSON and SARIF list every finding, past the text's 2,000 per rule: a catalog
        # with about 6,700 findings for each of three rules.
        listed = gen_catalog(8000, os.path.join(work, "every-finding"), "--density", "2.5")
        for fmt_name in ("json", "sarif"):
            run = sh([binary, "check", listed, "--format", fmt_name])
            if run.returncode != 1:
                sys.exit(f"smoke benchmark failed: the 8,000-item faulty catalog exited {run.returncode}: {run.stderr[-2000:]}")
            document = json.loads(run.stdout)
            if fmt_name == "json":
                summary = document["summary"]
                count = len(document["findings"])
                expected = summary["errors"] + summary["warnings"] + summary["notes"]
            else:
                count = len(document["runs"][0]["results"])
            if count != expected or count < 20000:
                sys.exit(f"smoke benchmark failed: --format {fmt_name} listed {count} findings of {expected}")
        print("smoke benchmark passed (nothing written)")
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
        return
    if sections != {"catalogs", "findings", "descriptor", "requests", "startup"}:
        # A partial run rewrites nothing of the file: its table goes to standard output.
        print("\n".join(render_findings(report)) if "findings" in report else "")
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
        return
    write(args.output, render(report))
    print(f"wrote {args.output}")
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)


def print_report(report):
    for block in report["catalogs"]:
        print(f"\ncatalog {block['n']} items:")
        base = block["results"].get("xmllint --noout", (None,))[0]
        for name, (median, peak, _) in block["results"].items():
            ratio = f"{median / base:6.2f}×" if base else "   n/a"
            print(f"  {name:34} {median:8.3f} s {ratio} xmllint  {peak:8.1f} MB")
    for block in report.get("findings", []):
        base = block["results"].get("xmllint --noout", (None,))[0]
        for name, (median, peak, _) in block["results"].items():
            ratio = f"{median / base:6.2f}×" if base else "   n/a"
            print(f"  findings {block['n']:>7} items × {block['density']:<4} ({block['findings']:>6}): {name:16} "
                  f"{median:8.3f} s {ratio} xmllint {peak:8.1f} MB")
    for name, (median, peak, _) in report.get("descriptor", {"results": {}})["results"].items():
        print(f"descriptor: {name:34} {median:8.3f} s {peak:8.1f} MB")
    for entry in report["requests"]["series"]:
        for name, (median, peak, _) in entry["results"].items():
            print(f"cross-check: {entry['catalog']} items, {name:16} {median:8.3f} s {peak:8.1f} MB")
    for name, (median, peak, _) in report.get("startup", {}).items():
        print(f"start-up: {name:34} {median * 1000:8.1f} ms {peak:8.1f} MB")
    if report["skipped"]:
        print("skipped (not installed):", ", ".join(report["skipped"]))


def render_findings(report):
    """The findings table: per size, density and format, against the clean catalog's run."""
    out = ["### Findings (`gen_catalog.py --density R`, R findings per item)", "",
           "Kinds: a description too long, a review screenshot file missing, a type in the wrong case. "
           "Per finding: time and peak RSS added over the clean catalog of the same size in the same format, "
           "and the bytes of output.", "",
           "| items | findings/item | findings | format | median s | × xmllint | peak RSS MB | µs/finding | "
           "RSS bytes/finding | output bytes/finding |",
           "|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|"]
    clean = {}
    for block in report["findings"]:
        if block["density"] == 0:
            clean[block["n"]] = block
    for block in report["findings"]:
        base = block["results"].get("xmllint --noout", (None,))[0]
        ref = clean.get(block["n"])
        for name, (median, peak, _) in block["results"].items():
            if name == "xmllint --noout":
                out.append(f"| {block['n']:,} | {block['density']:g} | {block['findings']:,} | xmllint --noout | "
                           f"{median:.3f} | 1.00 | {peak:.1f} | | | |")
                continue
            ratio = f"{median / base:.2f}" if base else "n/a"
            extra = block["findings"] - (ref["findings"] if ref else 0)
            if ref and block is not ref and extra > 0:
                us = f"{(median - ref['results'][name][0]) / extra * 1e6:.1f}"
                rss = f"{(peak - ref['results'][name][1]) * (1 << 20) / extra:,.0f}"
            else:
                us = rss = "–"
            bpf = f"{block['outputs'].get(name, 0) / block['findings']:,.0f}" if block["findings"] else "–"
            out.append(f"| {block['n']:,} | {block['density']:g} | {block['findings']:,} | {name} | {median:.3f} | "
                       f"{ratio} | {peak:.1f} | {us} | {rss} | {bpf} |")
    return out + [""]


def render(report):
    m = report["machine"]
    out = [BEGIN, "",
           f"Measured {m['date']} by `scripts/bench.py` ({report['runs']} interleaved runs per contender, "
           f"3 at 100,000 items; medians; peak RSS from `/usr/bin/time {'-l' if DARWIN else '-v'}`).", "",
           f"Machine: {m['nproc']} cores ({m['cpu']}), {m['memory']} RAM; load average at the start "
           f"{', '.join(f'{x:.2f}' for x in m['load']) if m['load'] else '?'}. {m['swift']}; {m['xmllint']}; {m['python']}.",
           "",
           "Binary: release build, " + {True: "Swift runtime and Foundation linked statically (`--static-swift-stdlib`).",
                                        False: "Swift runtime and Foundation linked dynamically.",
                                        None: "linkage unknown."}[report["static"]],
           ""]
    if report["skipped"]:
        out += [f"Not installed, so not measured: {', '.join(report['skipped'])}.", ""]
    out += ["### Catalogs (`iapdoctor check catalog.xml --format json`)", "",
            "| items | MB | contender | median s | × xmllint | peak RSS MB | runs (s) |",
            "|---:|---:|---|---:|---:|---:|---|"]
    per_item = []
    for block in report["catalogs"]:
        base = block["results"].get("xmllint --noout", (None,))[0]
        for name, (median, peak, walls) in block["results"].items():
            ratio = f"{median / base:.2f}" if base else "n/a"
            out.append(f"| {block['n']:,} | {block['mb']:.1f} | {name} | {median:.3f} | {ratio} | {peak:.1f} | "
                       f"{', '.join(f'{w:.2f}' for w in walls)} |")
        ours = block["results"]["iapdoctor check --format json"][0]
        per_item.append((block["n"], ours))
    out += ["", "Time per item (linearity): " + ", ".join(
        f"{n:,} items: {t / n * 1e6:.1f} µs" for n, t in per_item) + ".", ""]
    faulty = report["faulty"]
    for name, (median, peak, _) in faulty["results"].items():
        out += [f"Faulty catalog ({faulty['n']:,} items, one fault in 97 items, {faulty['findings']} findings): "
                f"{median:.3f} s, {peak:.1f} MB.", ""]
    if "findings" in report:
        out += render_findings(report)
    d = report["descriptor"]
    out += [f"### Descriptor ({d['n']:,} products, {d['mb']:.1f} MB, 300 requested IDs)", "",
            "| contender | median s | peak RSS MB |", "|---|---:|---:|"]
    for name, (median, peak, _) in d["results"].items():
        out.append(f"| {name} | {median:.3f} | {peak:.1f} |")
    out += ["", "### Requested IDs cross-checked against a catalog", "",
            "A 20-product descriptor lists the catalog and requests IDs drawn from all its items: one in eight "
            "exact, the rest short forms, case and white-space variants, one-character typos, the bundle ID and "
            "IDs that exist nowhere (`gen_descriptor.py --faults`); `catalog-descriptor-mismatch` is off. "
            "The 0-request row is the catalog check alone.", "",
            "| catalog items | requested IDs | median s | added by the requests, s | ms per request | peak RSS MB |",
            "|---:|---:|---:|---:|---:|---:|"]
    zero = {}
    for entry in report["requests"]["series"]:
        for name, (median, peak, _) in entry["results"].items():
            if entry["requests"] == 0:
                zero[entry["catalog"]] = median
            added = median - zero.get(entry["catalog"], median)
            per = f"{added / entry['requests'] * 1000:.2f}" if entry["requests"] else "–"
            out.append(f"| {entry['catalog']:,} | {entry['requests']:,} | {median:.3f} | {added:.3f} | {per} | {peak:.1f} |")
    out += ["", "### Start-up", "", "| command | median ms | peak RSS MB |", "|---|---:|---:|"]
    for name, (median, peak, _) in report["startup"].items():
        out.append(f"| `{name}` | {median * 1000:.1f} | {peak:.1f} |")
    out += ["", END]
    return "\n".join(out)


def write(path, block):
    text = open(path).read() if os.path.exists(path) else f"# Benchmarks\n\n{BEGIN}\n{END}\n"
    if BEGIN in text and END in text:
        text = text[:text.index(BEGIN)] + block + text[text.index(END) + len(END):]
    else:
        text = text.rstrip("\n") + "\n\n" + block + "\n"
    with open(path, "w") as f:
        f.write(text)


if __name__ == "__main__":
    main()
