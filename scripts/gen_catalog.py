#!/usr/bin/env python3
"""Writes a synthetic bulk in-app purchase catalog (App Store Package metadata.xml, software5.12).

usage: gen_catalog.py N OUT.xml [--seed S] [--faults] [--screenshots K] [--fault-every M] [--density R]

Deterministic for a given N, seed and flags (same bytes every time).

Clean (the default): every item is valid for iapdoctor's catalog rules. Consumables and
non-consumables sit directly in <in_app_purchases>; auto-renewables sit in <subscription_group>s of
50 with a duration. Items have one or two locales and a price tier, 40 % of them as a price interval
with a start date (about 800 bytes per item: 10,000 items are ~8 MB). Review screenshots are K real PNG files (640x1136, default K=4) written next to
OUT.xml and shared by the items, with their true <size> and MD5, so the screenshot rules read real
files. A clean catalog of more than 1,000 items still gets the one `catalog-too-many-items` finding
(Apple's per-upload limit) and the `catalog-xml-feed-retired` note; nothing else.

--faults plants one fault every M items (default 97), cycling through ten kinds: bad characters in
a product ID, an over-long title, a duplicate product ID, a duplicate reference name, an unknown
type, a placeholder, a misspelt element, a price tier out of range, a bad locale code and a date
that is not YYYY-MM-DD. `--faults` catalogs are for correctness and worst-case runs, not for the
performance targets (those are about clean catalogs).

--density R plants R findings per item on average (0.01: one item in 100; 1: every item; 2.5: every
item two or three), the kinds of a faulty catalog: a description too long (first locale
only: one finding), a review screenshot file that does not exist (`missing_NNNNNN.png`: one
finding), and a type in the wrong case (`Consumable`; an auto-renewable, whose type inside its group
must stay, gets a duration that is not one instead). Item i gets floor((i+1)R) - floor(iR) of them
(at most 3), rotating through the kinds, so every density gives exactly round(N * R) findings on
top of the clean catalog's two. Draws nothing from the random stream: the items are otherwise the
clean catalog's.
"""
import argparse
import hashlib
import os
import random
import struct
import zlib
from xml.sax.saxutils import escape, quoteattr

WORDS = ("gem coin pack bundle pro premium season pass starter mega ultra boost shield sword "
         "potion chest key vip gold silver bronze hero skin theme level unlock extra lives energy").split()
LOCALES = ["en-US", "de-DE", "fr-FR", "ja", "es-MX", "zh-Hans"]
DURATIONS = ["1 Week", "1 Month", "2 Months", "3 Months", "6 Months", "1 Year"]
GROUP_SIZE = 50
FAULT_KINDS = 10


def png(width, height, seed):
    """A small, valid, deterministic PNG (grey gradient rows, compressed)."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    rows = b"".join(b"\x00" + bytes([(y * 7 + seed * 31) % 256]) * width for y in range(height))
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)  # 8-bit greyscale
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b"")


def words(rng, lo, hi):
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(lo, hi)))


class Catalog:
    def __init__(self, args):
        self.args = args
        self.rng = random.Random(args.seed)
        self.shots = []
        directory = os.path.dirname(os.path.abspath(args.out))
        os.makedirs(directory, exist_ok=True)
        for k in range(args.screenshots):
            data = png(640, 1136, k)
            name = f"screenshot_{k:02d}.png"
            with open(os.path.join(directory, name), "wb") as f:
                f.write(data)
            self.shots.append((name, len(data), hashlib.md5(data).hexdigest()))

    def item(self, i, auto_renewable, indent):
        rng, pad = self.rng, " " * indent
        word = rng.choice(WORDS)
        pid = f"com.northwind.quest.{word}_{i:06d}"
        title = words(rng, 2, 3).title()[:30]
        reference = f"{title} {i}"
        desc = f"{words(rng, 2, 5).capitalize()} & more"[:45]
        if len(desc) < 10:
            desc = "A bundle of " + desc
        ptype = "auto-renewable" if auto_renewable else rng.choice(["consumable", "non-consumable"])
        tier = str(rng.randint(1, 87))
        y, m, d = 2020 + rng.randint(0, 5), rng.randint(1, 12), rng.randint(1, 28)
        start = f"{y:04d}-{m:02d}-{d:02d}"
        locales = rng.sample(LOCALES, 1 if rng.random() < 0.75 else 2)
        with_intervals = rng.random() < 0.4
        shot = self.shots[i % len(self.shots)]
        reference_tag = "reference_name"
        dense = []
        if self.args.density:
            r = self.args.density
            k = min(3, int((i + 1) * r + 1e-9) - int(i * r + 1e-9))
            dense = [(i + j) % 3 for j in range(k)]
        long_desc = None
        if 0 in dense:
            long_desc = "A description that is far longer than the forty-five characters allowed"
        if 1 in dense:
            shot = (f"missing_{i:06d}.png", shot[1], shot[2])
        bad_duration = False
        if 2 in dense:
            if auto_renewable:
                bad_duration = True  # inside a group a type of any other spelling is a second finding
            else:
                ptype = "Consumable"
        if self.args.faults and i % self.args.fault_every == 13 % self.args.fault_every:
            kind = (i // self.args.fault_every) % FAULT_KINDS
            if kind == 0:
                pid = pid.replace(".", " ", 1)
            elif kind == 1:
                title = "An Extraordinarily Long Display Name For This Item"
            elif kind == 2:
                pid = f"com.northwind.quest.{WORDS[0]}_000000"
            elif kind == 3:
                reference = "Duplicate Reference Name"
            elif kind == 4:
                ptype = "Consumable" if not auto_renewable else ptype
            elif kind == 5:
                title = "YOUR_PRODUCT_TITLE"
            elif kind == 6:
                reference_tag = "refrence_name"
            elif kind == 7:
                tier = "0"
            elif kind == 8:
                locales = ["en_US"]
            else:
                start = f"{d:02d}/{m:02d}/{y:04d}"
        lines = [
            "<in_app_purchase>",
            f"  <product_id>{escape(pid)}</product_id>",
            f"  <{reference_tag}>{escape(reference)}</{reference_tag}>",
            f"  <type>{ptype}</type>",
        ]
        if auto_renewable:
            duration = rng.choice(DURATIONS)
            lines.append(f"  <duration>{'5 Weeks' if bad_duration else duration}</duration>")
        lines += ["  <products>", "    <product>", "      <cleared_for_sale>true</cleared_for_sale>"]
        if with_intervals or (self.args.faults and start[2] == "/"):
            lines += [
                "      <intervals>",
                "        <interval>",
                f"          <start_date>{start}</start_date>",
                f"          <wholesale_price_tier>{tier}</wholesale_price_tier>",
                "        </interval>",
                "      </intervals>",
            ]
        else:
            lines.append(f"      <wholesale_price_tier>{tier}</wholesale_price_tier>")
        lines += ["    </product>", "  </products>", "  <locales>"]
        for n, locale in enumerate(locales):
            lines += [
                f"    <locale name={quoteattr(locale)}>",
                f"      <title>{escape(title)}</title>",
                f"      <description>{escape(long_desc if long_desc and n == 0 else desc)}</description>",
                "    </locale>",
            ]
        lines += [
            "  </locales>",
            "  <review_screenshot>",
            f"    <file_name>{shot[0]}</file_name>",
            f"    <size>{shot[1]}</size>",
            f'    <checksum type="md5">{shot[2]}</checksum>',
            "  </review_screenshot>",
            "</in_app_purchase>",
        ]
        return "".join(pad + line + "\n" for line in lines)

    def write(self):
        n, rng = self.args.count, self.rng
        out = [
            '<?xml version="1.0" encoding="UTF-8"?>\n'
            '<package xmlns="http://apple.com/itunes/importer" version="software5.12">\n'
            '  <provider>NorthwindGames</provider>\n'
            '  <team_id>ABCDE12345</team_id>\n'
            '  <software>\n'
            '    <vendor_id>com.northwind.quest</vendor_id>\n'
            '    <software_metadata>\n'
            '      <in_app_purchases>\n'
        ]
        with open(self.args.out, "w", encoding="utf-8") as f:
            i = 0
            group = 0
            while i < n:
                # About one item in five is an auto-renewable, in groups of GROUP_SIZE.
                if rng.random() < 0.2 / GROUP_SIZE * 5 and n - i >= GROUP_SIZE:
                    out.append(f'        <subscription_group name="Premium {group}">\n'
                               '          <locales>\n'
                               '            <locale name="en-US">\n'
                               f'              <title>Premium {group}</title>\n'
                               '              <app_name>Northwind Quest</app_name>\n'
                               '            </locale>\n'
                               '          </locales>\n')
                    for _ in range(GROUP_SIZE):
                        out.append(self.item(i, True, 10))
                        i += 1
                    out.append('        </subscription_group>\n')
                    group += 1
                else:
                    out.append(self.item(i, False, 8))
                    i += 1
                if len(out) >= 1000:
                    f.write("".join(out))
                    out.clear()
            out.append('      </in_app_purchases>\n    </software_metadata>\n  </software>\n</package>\n')
            f.write("".join(out))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("count", type=int)
    parser.add_argument("out")
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--faults", action="store_true")
    parser.add_argument("--fault-every", type=int, default=97)
    parser.add_argument("--screenshots", type=int, default=4)
    parser.add_argument("--density", type=float, default=0.0, help="findings per item (faulty catalogs)")
    args = parser.parse_args()
    if args.screenshots < 1:
        parser.error("--screenshots must be at least 1")
    Catalog(args).write()


if __name__ == "__main__":
    main()
