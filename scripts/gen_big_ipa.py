#!/usr/bin/env python3
"""Writes a large stand-in .ipa for timing `iapdoctor check X.ipa` (BENCHMARKS.md, "Builds"): an
App Store export whose executable has CODE_MB of code (half random, half a repeating pattern, so it
deflates about as a real one does), 120,000 C string constants among them 50 product IDs, its code
signature at the end as the linker puts it; a Products.plist of 40 IDs; 3,000 small images.

    python3 scripts/gen_big_ipa.py CODE_MB OUT.ipa
"""
import os
import random
import struct
import sys
import zipfile
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_archive as g

def macho_with_strings(xml, strings, code_bytes):
    signature = g.superblob(xml)
    cstr = b"".join(s.encode() + b"\0" for s in strings)
    uuid = struct.pack("<II", 0x1B, 24) + bytes(range(16))
    seg_size = 72 + 80
    commands_size = len(uuid) + seg_size + 16
    strings_off = 32 + commands_size
    code_off = strings_off + len(cstr)
    data_offset = (code_off + code_bytes + 15) // 16 * 16
    end = strings_off + len(cstr)
    seg = struct.pack("<II16sQQQQIIII", 0x19, seg_size, b"__TEXT", 0, end, 0, end, 5, 5, 1, 0)
    sect = struct.pack("<16s16sQQIIIIIIII", b"__cstring", b"__TEXT", strings_off, len(cstr), strings_off, 0, 0, 0, 2, 0, 0, 0)
    cs = struct.pack("<IIII", 0x1D, 16, data_offset, len(signature))
    header = struct.pack("<IiiIIIII", 0xFEEDFACF, 0x0100000C, 0, 2, 3, commands_size, 0, 0)
    rnd = random.Random(7)
    half = code_bytes // 2
    code = rnd.randbytes(half) + bytes(range(256)) * ((code_bytes - half) // 256)
    image = header + uuid + seg + sect + cs + cstr + code
    return image + bytes(data_offset - len(image)) + signature

size_mb = int(sys.argv[1])
out = sys.argv[2]
files = g.app_files("com.acme.coins", "ABCDE12345", False, [])
rnd = random.Random(3)
strings = [f"com.acme.coins.item{i}" for i in range(50)] + ["".join(rnd.choice("abcdefghij._") for _ in range(rnd.randint(4, 40))) for _ in range(120_000)]
files["Coins"] = macho_with_strings(g.entitlements("ABCDE12345.com.acme.coins", "ABCDE12345", False), strings, size_mb << 20)
files["Products.plist"] = b'<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0">\n<array>\n' + b"".join(f"  <string>com.acme.coins.item{i}</string>\n".encode() for i in range(40)) + b"</array>\n</plist>\n"
for i in range(3000):
    files[f"Assets/img{i}.png"] = b"\x89PNG\r\n\x1a\n" + rnd.randbytes(2000)
with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
    for name in sorted(files):
        z.writestr("Payload/Coins.app/" + name, files[name])
print(out, os.path.getsize(out))
