#!/usr/bin/env python3
"""Writes a synthetic iapdoctor project descriptor (project.yaml, schema version 1).

usage: gen_descriptor.py N OUT.yaml [--seed S] [--requests R] [--faults] [--catalog PATH]

Deterministic for a given N, seed and flags (same bytes every time).

The descriptor is the healthy example's app (examples/healthy/project.yaml) with N products:
consumables, non-consumables and monthly/yearly subscriptions in localized groups, each cleared for
sale with a price tier, a localization or two and a review screenshot, and R requested IDs
(default: min(N, 300)), every one of them a listed product ID.

--catalog PATH    also list a bulk XML catalog under `catalogs:`, take the products' IDs and types
                  from its first N items (so with N at least the catalog's size the descriptor and
                  the catalog describe the same products and their cross-check is clean), and draw
                  the requested IDs from all of the catalog's items. PATH is written relative to
                  OUT's folder.
--faults          requests become a realistic mix of mistakes: short IDs (the last component),
                  case mismatches, trailing white space, one-character typos, the bundle ID, and IDs
                  that exist nowhere; one product in 97 gets a duplicate ID, an over-long display
                  name or a placeholder ID.
"""
import argparse
import os
import random
import re

WORDS = ("gem coin pack bundle pro premium season pass starter mega ultra boost shield sword "
         "potion chest key vip gold silver bronze hero skin theme level unlock extra lives energy").split()
LOCALES = ["en-US", "de-DE", "fr-FR", "ja", "es-MX"]
TYPE_FROM_XML = {"consumable": "consumable", "non-consumable": "non_consumable", "auto-renewable": "auto_renewable",
                 "subscription": "non_renewing"}

HEAD = """# Synthetic descriptor written by scripts/gen_descriptor.py (seed {seed}, {count} products).
version: 1
environment: sandbox
checked_at: 2026-11-22T10:00:00Z

app:
  name: Northwind Quest
  platform: ios
  bundle_id: com.northwind.quest
  deployment_target: "16.0"
  storekit_api: storekit2

developer_account:
  team_id: ABCDE12345
  team_type: organization
  membership: active
  program_license: accepted
  agreements:
    paid_apps: active
  banking: active
  tax: active

app_id:
  identifier: ABCDE12345.com.northwind.quest
  in_app_purchase: true
  in_app_purchase_enabled_at: 2026-03-02T11:00:00Z

signing:
  style: automatic
  team_id: ABCDE12345
  profile:
    name: "iOS Team Provisioning Profile: com.northwind.quest"
    app_id: ABCDE12345.com.northwind.quest
    type: development
    created_at: 2026-11-20T08:00:00Z
    expires_at: 2027-11-20T08:00:00Z
    installed: true

app_store_connect:
  app_record: true
  version_state: prepare_for_submission
  released_at: null
  binary_uploaded: false

"""

TAIL = """
testing:
  device: physical
  os_version: "26.1"
  jailbroken: false
  app_reinstalled: true
  signed_out_of_store: true
  sandbox_account:
    email: sandbox.us@northwind.games
    storefront: USA
    team_id: ABCDE12345
"""


def words(rng, lo, hi):
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(lo, hi)))


def catalog_products(path):
    """(product ID, descriptor type, subscription group) for every item of a generated catalog."""
    text = open(path, encoding="utf-8").read()
    products, group = [], None
    for match in re.finditer(r'<subscription_group name="([^"]*)">|</subscription_group>|'
                             r"<product_id>([^<]*)</product_id>\s*<reference_name>[^<]*</reference_name>\s*"
                             r"<type>([^<]*)</type>", text):
        if match.group(0).startswith("<subscription_group"):
            group = match.group(1)
        elif match.group(0).startswith("</subscription_group"):
            group = None
        else:
            products.append((match.group(2), TYPE_FROM_XML.get(match.group(3), "consumable"), group))
    return products


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("count", type=int)
    parser.add_argument("out")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--requests", type=int, default=None)
    parser.add_argument("--faults", action="store_true")
    parser.add_argument("--catalog", default=None)
    args = parser.parse_args()
    rng = random.Random(args.seed)

    pool = []
    if args.catalog:
        every = catalog_products(args.catalog)
        pool = [pid for pid, _, _ in every]
        listed = every[:args.count]
    else:
        listed = []
        group = None
        for i in range(args.count):
            if i % 10 == 0:
                group = f"Premium {i // 50}" if rng.random() < 0.2 else None
            kind = "auto_renewable" if group else rng.choice(["consumable", "non_consumable"])
            listed.append((f"com.northwind.quest.{rng.choice(WORDS)}_{i:06d}", kind, group))

    groups = sorted({g for _, _, g in listed if g})
    out = [HEAD.format(seed=args.seed, count=len(listed))]
    if groups:
        out.append("subscription_groups:\n")
        for g in groups:
            out.append(f"  - reference_name: {g}\n    localizations:\n      en-US: {{ display_name: {g} }}\n")
        out.append("\n")
    out.append("products:\n")
    ids = []
    for i, (pid, kind, group) in enumerate(listed):
        title = words(rng, 2, 3).title()[:30]
        desc = f"{words(rng, 3, 5).capitalize()} and more"[:45]
        if args.faults and i % 97 == 13:
            fault = (i // 97) % 3
            if fault == 0 and ids:
                pid = ids[0]
            elif fault == 1:
                title = "An Extraordinarily Long Display Name For This Item"
            else:
                pid = "com.northwind.quest.TODO"
        ids.append(pid)
        out.append(f"  - product_id: {pid}\n")
        out.append(f"    reference_name: \"{title} {i}\"\n")
        out.append(f"    type: {kind}\n")
        out.append("    status: ready_to_submit\n")
        out.append("    cleared_for_sale: true\n")
        out.append("    availability: [USA, CAN, GBR, DEU, AUS]\n")
        out.append(f"    price_tier: {rng.randint(1, 87)}\n")
        out.append(f"    created_at: 2026-{rng.randint(1, 9):02d}-{rng.randint(1, 28):02d}T13:00:00Z\n")
        out.append("    updated_at: 2026-11-12T09:15:00Z\n")
        out.append(f"    family_shareable: {'true' if kind != 'consumable' else 'false'}\n")
        if group:
            out.append(f"    subscription_group: {group}\n")
            out.append(f"    subscription_duration: {rng.choice(['1_month', '1_year'])}\n")
        out.append("    localizations:\n")
        for locale in rng.sample(LOCALES, rng.randint(1, 2)):
            out.append(f"      {locale}: {{ display_name: \"{title}\", description: \"{desc}\" }}\n")
        out.append("    review_screenshot: true\n")
        out.append("    submitted_with_app_version: false\n")

    pool = pool or ids
    count = min(len(pool), 300) if args.requests is None else args.requests
    out.append("\n# Exactly as the code writes them.\nrequests:\n" if count else "\nrequests: []\n")
    for k in range(count):
        pid = pool[rng.randrange(len(pool))] if pool else "com.northwind.quest.none"
        request = pid
        if args.faults:
            kind = k % 8
            if kind == 1:
                request = pid.rsplit(".", 1)[-1]
            elif kind == 2:
                request = pid.upper()
            elif kind == 3:
                request = f"\"{pid} \""
            elif kind == 4:
                j = rng.randrange(len(pid) - 1) + 1
                request = pid[:j] + ("x" if pid[j] != "x" else "y") + pid[j + 1:]
            elif kind == 5 and k % 40 == 5:
                request = "com.northwind.quest"
            elif kind == 6:
                request = f"com.northwind.quest.missing_{rng.randrange(10**6):06d}"
        out.append(f"  - {request}\n")

    if args.catalog:
        relative = os.path.relpath(os.path.abspath(args.catalog), os.path.dirname(os.path.abspath(args.out)))
        out.append(f"\ncatalogs:\n  - {relative}\n")
    out.append(TAIL)
    with open(args.out, "w", encoding="utf-8") as f:
        f.write("".join(out))


if __name__ == "__main__":
    main()
