#!/usr/bin/env python3
"""Writes a synthetic bulk in-app purchase catalog (App Store Package metadata.xml).

usage: gen_catalog.py N OUT.xml [--seed S] [--faults]

Deterministic for a given N and seed. Values are valid unless --faults is given, which plants one
fault every 97 products (bad characters in an ID, an over-long title, a duplicate ID, an unknown
type, a placeholder), so a checker has something to find.
"""
import argparse
import random
from xml.sax.saxutils import escape

TYPES = ["consumable", "non-consumable", "auto-renewable", "non-renewing"]
WORDS = ("gem coin pack bundle pro premium season pass starter mega ultra boost shield sword "
         "potion chest key vip gold silver bronze hero skin theme level unlock extra lives energy").split()


def words(rng, lo, hi):
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(lo, hi)))


def product(rng, i, faults, out):
    pid = f"com.example.game.{rng.choice(WORDS)}_{i:06d}"
    title = words(rng, 2, 3).title()[:30]
    desc = f"{words(rng, 2, 5).capitalize()} & more"[:45]
    ptype = rng.choice(TYPES)
    tier = rng.randint(1, 87)
    y, m, d = 2020 + rng.randint(0, 5), rng.randint(1, 12), rng.randint(1, 28)
    if faults and i % 97 == 13:
        kind = (i // 97) % 5
        if kind == 0:
            pid = pid.replace(".", " ", 1)
        elif kind == 1:
            title = "An Extraordinarily Long Display Name For This Item"
        elif kind == 2:
            pid = f"com.example.game.{WORDS[0]}_{0:06d}"
        elif kind == 3:
            ptype = "subscription"
        else:
            title = "YOUR_PRODUCT_TITLE"
    group = ""
    if ptype == "auto-renewable":
        group = "          <subscription_group>Premium</subscription_group>\n" \
                "          <duration>1m</duration>\n"
    out.append(f"""        <in_app_purchase>
          <product_id>{escape(pid)}</product_id>
          <reference_name>{escape(title)} {i}</reference_name>
          <type>{ptype}</type>
{group}          <products>
            <product>
              <cleared_for_sale>true</cleared_for_sale>
              <intervals>
                <interval>
                  <start_date>{y:04d}-{m:02d}-{d:02d}</start_date>
                  <wholesale_price_tier>{tier}</wholesale_price_tier>
                </interval>
              </intervals>
            </product>
          </products>
          <locales>
            <locale name="en-US">
              <title>{escape(title)}</title>
              <description>{escape(desc)}</description>
            </locale>
          </locales>
          <review_screenshot>
            <file_name>screenshot_{i:06d}.png</file_name>
            <size>{rng.randint(20_000, 4_000_000)}</size>
            <checksum type="md5">{rng.getrandbits(128):032x}</checksum>
          </review_screenshot>
        </in_app_purchase>
""")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("count", type=int)
    parser.add_argument("out")
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--faults", action="store_true")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    with open(args.out, "w", encoding="utf-8") as f:
        f.write('<?xml version="1.0" encoding="UTF-8"?>\n'
                '<package xmlns="http://apple.com/itunes/importer" version="software5.12">\n'
                '  <provider>ExampleProvider</provider>\n'
                '  <team_id>ABCDE12345</team_id>\n'
                '  <software>\n'
                '    <vendor_id>com.example.game</vendor_id>\n'
                '    <software_metadata>\n'
                '      <in_app_purchases>\n')
        buf = []
        for i in range(args.count):
            product(rng, i, args.faults, buf)
            if len(buf) >= 1000:
                f.write("".join(buf))
                buf.clear()
        f.write("".join(buf))
        f.write('      </in_app_purchases>\n    </software_metadata>\n  </software>\n</package>\n')


if __name__ == "__main__":
    main()
