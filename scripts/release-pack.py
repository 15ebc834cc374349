#!/usr/bin/env python3
"""The deterministic packing steps of scripts/release.sh (same inputs, same bytes):

    release-pack.py tarball OUT.tar.gz PREFIX NAME=FILE...   a .tar.gz of FILEs as PREFIX/NAME
    release-pack.py bundle BUNDLE_DIR VERSION                info.json from the variant folders, then BUNDLE_DIR.zip
    release-pack.py sums OUT FILE...                         SHA-256 lines, as `shasum -a 256` writes them
    release-pack.py formula FORMULA VERSION SOURCE.tar.gz    the formula's url and sha256 for VERSION
    release-pack.py bottle FORMULA ROOT_URL [JSON...]        the formula's `bottle do` block from the
                                                             `brew bottle --json` files (none: no block)
    release-pack.py plugin TEMPLATE_DIR OUT_DIR VERSION BUNDLE.zip
                                                             the published plugin package: the template
                                                             with the bundle's release URL and checksum
"""
import gzip
import hashlib
import io
import json
import os
import re
import shutil
import sys
import tarfile
import zipfile

EPOCH = 1_700_000_000  # a fixed time for every packed entry
REPOSITORY = "https://github.com/iapdoctor/iapdoctor"


def sha256(path):
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def tarball(out, prefix, pairs):
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w", format=tarfile.USTAR_FORMAT) as tar:
        for pair in pairs:
            name, source = pair.split("=", 1)
            info = tarfile.TarInfo(f"{prefix}/{name}")
            info.size = os.path.getsize(source)
            info.mtime = EPOCH
            info.mode = 0o755 if os.access(source, os.X_OK) else 0o644
            info.uid = info.gid = 0
            info.uname = info.gname = ""
            with open(source, "rb") as handle:
                tar.addfile(info, handle)
    with open(out, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0, filename="") as gz:
        gz.write(buffer.getvalue())


def bundle(folder, version):
    variants = []
    for name in sorted(os.listdir(folder)):
        triples_file = os.path.join(folder, name, "triples")
        if not os.path.isfile(triples_file):
            continue
        with open(triples_file, encoding="utf-8") as handle:
            triples = json.loads("[" + handle.read().strip() + "]")
        variants.append({"path": f"{name}/bin/iapdoctor", "supportedTriples": triples})
    if not variants:
        sys.exit(f"release-pack: {folder} holds no variant folder (NAME/bin/iapdoctor with NAME/triples)")
    info = {"schemaVersion": "1.0", "artifacts": {"iapdoctor": {"version": version, "type": "executable", "variants": variants}}}
    with open(os.path.join(folder, "info.json"), "w", encoding="utf-8") as handle:
        json.dump(info, handle, indent=2, sort_keys=True)
        handle.write("\n")
    base = os.path.basename(folder.rstrip("/"))
    with zipfile.ZipFile(folder.rstrip("/") + ".zip", "w", zipfile.ZIP_DEFLATED) as archive:
        for root, folders, files in os.walk(folder):
            folders.sort()
            for name in sorted(files):
                if name == "triples":
                    continue
                path = os.path.join(root, name)
                entry = zipfile.ZipInfo(os.path.join(base, os.path.relpath(path, folder)), date_time=(2023, 11, 14, 22, 13, 20))
                entry.external_attr = (0o755 if os.access(path, os.X_OK) else 0o644) << 16
                entry.compress_type = zipfile.ZIP_DEFLATED
                with open(path, "rb") as handle:
                    archive.writestr(entry, handle.read())


def sums(out, files):
    with open(out, "w", encoding="utf-8") as handle:
        for path in sorted(files):
            handle.write(f"{sha256(path)}  {os.path.basename(path)}\n")


def formula(path, version, source):
    with open(path, encoding="utf-8") as handle:
        text = handle.read()
    url = f"{REPOSITORY}/releases/download/v{version}/iapdoctor-{version}-source.tar.gz"
    stable = f'  url "{url}"\n  sha256 "{sha256(source)}"\n'
    # Replaces the stable version's lines, or adds them after `homepage` (a head-only formula).
    text = re.sub(r'^  url ".*"\n  sha256 ".*"\n', "", text, flags=re.M)
    text, count = re.subn(r'^(  homepage ".*"\n)', lambda match: match.group(1) + stable, text, count=1, flags=re.M)
    if count != 1:
        sys.exit(f"release-pack: {path} has no `homepage` line to put the release after")
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(text)


def bottle(path, root_url, json_files):
    """One `sha256 cellar: ..., TAG: "..."` line per bottle, checked against the bottle file beside
    its JSON (the release serves NAME-VERSION.TAG.bottle.tar.gz, the JSON's `filename`)."""
    lines = []
    for json_file in json_files:
        with open(json_file, encoding="utf-8") as handle:
            for entry in json.load(handle).values():
                for tag, item in sorted(entry["bottle"]["tags"].items()):
                    local = os.path.join(os.path.dirname(json_file), item["filename"])
                    if os.path.exists(local) and sha256(local) != item["sha256"]:
                        sys.exit(f"release-pack: {local} does not have the SHA-256 {json_file} gives")
                    cellar = str(item.get("cellar") or entry["bottle"]["cellar"]).lstrip(":")
                    cellar = f":{cellar}" if cellar in ("any", "any_skip_relocation") else f'"{cellar}"'
                    lines.append((tag, f'    sha256 cellar: {cellar}, {tag}: "{item["sha256"]}"\n'))
    with open(path, encoding="utf-8") as handle:
        text = handle.read()
    # Replaces the block, or adds it after `head`, where `brew style` expects it.
    text = re.sub(r"^\n  bottle do\n(?:    .*\n)*  end\n", "", text, flags=re.M)
    if lines:
        block = f'\n  bottle do\n    root_url "{root_url}"\n' + "".join(line for _, line in sorted(lines)) + "  end\n"
        text, count = re.subn(r"^(  head .*\n)", lambda match: match.group(1) + block, text, count=1, flags=re.M)
        if count != 1:
            sys.exit(f"release-pack: {path} has no `head` line to put the bottles after")
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(text)


def plugin(template, out, version, bundle_zip):
    if os.path.exists(out):
        shutil.rmtree(out)
    shutil.copytree(template, out, ignore=shutil.ignore_patterns(".build", "iapdoctor.artifactbundle", ".swiftpm"))
    manifest = os.path.join(out, "Package.swift")
    with open(manifest, encoding="utf-8") as handle:
        text = handle.read()
    release = (f'.binaryTarget(\n            name: "IAPDoctorBinary",\n'
               f'            url: "{REPOSITORY}/releases/download/v{version}/iapdoctor.artifactbundle.zip",\n'
               f'            checksum: "{sha256(bundle_zip)}")')
    text, count = re.subn(r'\.binaryTarget\(name: "IAPDoctorBinary", path: "iapdoctor\.artifactbundle"\)', release, text)
    if count != 1:
        sys.exit(f"release-pack: {manifest} has no local binary target to replace")
    with open(manifest, "w", encoding="utf-8") as handle:
        handle.write(text)


def main(argv):
    if not argv:
        sys.exit(__doc__)
    command, rest = argv[0], argv[1:]
    if command == "tarball" and len(rest) >= 3:
        tarball(rest[0], rest[1], rest[2:])
    elif command == "bundle" and len(rest) == 2:
        bundle(rest[0], rest[1])
    elif command == "sums" and len(rest) >= 2:
        sums(rest[0], rest[1:])
    elif command == "formula" and len(rest) == 3:
        formula(*rest)
    elif command == "bottle" and len(rest) >= 2:
        bottle(rest[0], rest[1], rest[2:])
    elif command == "plugin" and len(rest) == 4:
        plugin(*rest)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
