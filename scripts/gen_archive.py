#!/usr/bin/env python3
"""Writes a small .xcarchive (or, with --ipa, an exported .ipa) as Xcode lays them out.

The app bundle holds a binary Info.plist, an embedded provisioning profile (a CMS-like container
around its XML plist; the signature is not real) and a Mach-O executable whose code signature
carries the entitlements. Deterministic: the same arguments give the same bytes. For examples and
trials of `iapdoctor check`; nothing here is signed for real.

  scripts/gen_archive.py OUT.xcarchive --bundle-id com.acme.coins.beta --team ABCDE12345 \
      --signed-for development [--resource Products.storekit] [--ipa OUT.ipa]
"""
import argparse
import os
import plistlib
import struct
import zipfile


def profile(app_id, team, name, development):
    body = {
        "AppIDName": name,
        "Name": f"{name} {'Development' if development else 'App Store'}",
        "UUID": "5B1C0A3E-0000-4000-8000-00000000000" + ("1" if development else "2"),
        "TeamIdentifier": [team],
        "TeamName": "Example Team",
        "Platform": ["iOS"],
        "CreationDate": plistlib.datetime.datetime(2026, 6, 1),
        "ExpirationDate": plistlib.datetime.datetime(2027, 6, 1),
        "Entitlements": {"application-identifier": app_id, "com.apple.developer.team-identifier": team,
                         "get-task-allow": development},
    }
    if development:
        body["ProvisionedDevices"] = ["00008030-001A2B3C4D5E6F70"]
    xml = plistlib.dumps(body, fmt=plistlib.FMT_XML, sort_keys=True)
    return b"\x30\x82\x10\x00\x06\x09\x2a\x86\x48\x86\xf7\x0d\x01\x07\x02" + xml + b"\xa0\x82\x01\x00"


def entitlements(app_id, team, development):
    values = {"application-identifier": app_id, "com.apple.developer.team-identifier": team, "get-task-allow": development}
    if not development:
        values["beta-reports-active"] = True
    return plistlib.dumps(values, fmt=plistlib.FMT_XML, sort_keys=True)


def superblob(xml):
    blobs = [(0, struct.pack(">II", 0xFADE0C02, 16) + bytes(8)),
             (5, struct.pack(">II", 0xFADE7171, 8 + len(xml)) + xml),
             (7, struct.pack(">II", 0xFADE7172, 12) + b"\x70\x02\x00\x00")]
    offset = 12 + 8 * len(blobs)
    index, body = b"", b""
    for kind, blob in blobs:
        index += struct.pack(">II", kind, offset)
        body += blob
        offset += len(blob)
    return struct.pack(">III", 0xFADE0CC0, offset, len(blobs)) + index + body


def macho(xml):
    """A thin arm64 image: LC_UUID, then LC_CODE_SIGNATURE pointing at the superblob."""
    signature = superblob(xml)
    uuid = struct.pack("<II", 0x1B, 24) + bytes(range(16))
    commands_size = len(uuid) + 16
    data_offset = (32 + commands_size + 15) // 16 * 16
    code_signature = struct.pack("<IIII", 0x1D, 16, data_offset, len(signature))
    header = struct.pack("<IiiIIIII", 0xFEEDFACF, 0x0100000C, 0, 2, 2, commands_size, 0, 0)
    image = header + uuid + code_signature
    return image + bytes(data_offset - len(image)) + signature


def app_files(bundle_id, team, development, resources, name="Coins"):
    """The app bundle's files, by path inside it."""
    app_id = f"{team}.{bundle_id}"
    info = {"CFBundleIdentifier": bundle_id, "CFBundleExecutable": name, "CFBundleName": name,
            "CFBundleShortVersionString": "2.1", "CFBundleVersion": "57", "MinimumOSVersion": "15.0",
            "CFBundleSupportedPlatforms": ["iPhoneOS"], "UIDeviceFamily": [1, 2]}
    files = {"Info.plist": plistlib.dumps(info, fmt=plistlib.FMT_BINARY, sort_keys=True),
             "embedded.mobileprovision": profile(app_id, team, name, development),
             name: macho(entitlements(app_id, team, development))}
    for resource in resources:
        files[resource] = b"{}\n" if resource.endswith(".storekit") else b"\x89PNG\r\n\x1a\n"
    return files


def write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as handle:
        handle.write(data)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", help="the .xcarchive to write")
    parser.add_argument("--bundle-id", required=True)
    parser.add_argument("--team", default="ABCDE12345")
    parser.add_argument("--signed-for", choices=["development", "app_store"], default="development")
    parser.add_argument("--archive-bundle-id", help="the archive Info.plist's CFBundleIdentifier (default: the app's)")
    parser.add_argument("--resource", action="append", default=[], help="a file copied into the app bundle")
    parser.add_argument("--name", default="Coins", help="the app's name: its bundle, executable and profile")
    parser.add_argument("--ipa", help="also export the app as an .ipa (Payload/NAME.app) at this path")
    args = parser.parse_args()
    development = args.signed_for == "development"
    name = args.name
    files = app_files(args.bundle_id, args.team, development, args.resource, name)
    for relative, data in files.items():
        write(os.path.join(args.out, f"Products/Applications/{name}.app", relative), data)
    identity = "Apple Development: Ada Lovelace (XYZ1234567)" if development else "Apple Distribution: Example Team (ABCDE12345)"
    archive_info = {"ApplicationProperties": {
        "ApplicationPath": f"Applications/{name}.app", "CFBundleIdentifier": args.archive_bundle_id or args.bundle_id,
        "CFBundleShortVersionString": "2.1", "CFBundleVersion": "57", "SigningIdentity": identity, "Team": args.team},
        "ArchiveVersion": 2, "Name": name, "SchemeName": name}
    write(os.path.join(args.out, "Info.plist"), plistlib.dumps(archive_info, fmt=plistlib.FMT_XML, sort_keys=True))
    if args.ipa:
        os.makedirs(os.path.dirname(os.path.abspath(args.ipa)), exist_ok=True)
        with zipfile.ZipFile(args.ipa, "w", zipfile.ZIP_DEFLATED) as archive:
            for relative in sorted(files):
                info = zipfile.ZipInfo(f"Payload/{name}.app/" + relative, date_time=(2026, 11, 27, 0, 0, 0))
                info.compress_type = zipfile.ZIP_DEFLATED
                info.external_attr = (0o755 if relative == name else 0o644) << 16
                archive.writestr(info, files[relative])


if __name__ == "__main__":
    main()
