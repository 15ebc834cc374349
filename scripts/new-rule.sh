#!/usr/bin/env bash
# Starts a rule with Swift logic: appends its entry to rules.yaml (at the end of the file; move it
# to its area's section), writes Sources/Rules/<Area>/<Name>Rule.swift, and registers the file
# (scripts/embed-rules.py adds `RuleID.<name>` and the registry entry).
#
#   scripts/new-rule.sh ID AREA CHECKLIST_ITEM
#   scripts/new-rule.sh product-id-trailing-dot Requests full-product-id
#
# What is left to you is marked `TODO(new-rule)`: the title, rationale and help in rules.yaml,
# a triggering and a passing example (they run as tests and make the docs page), and the check.
# `swift build` refuses to build until the check is written, and the example tests fail until the
# examples are real, so a scaffold cannot be committed by accident. Then run scripts/generate.sh
# (it writes the docs page from the examples) and swift test.
# Runs with the bash 3.2 of macOS too.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ $# -ne 3 ]; then
    echo "usage: scripts/new-rule.sh ID AREA CHECKLIST_ITEM   (e.g. product-id-trailing-dot Requests full-product-id)" >&2
    exit 2
fi
id=$1
area=$2
item=$3
if ! printf '%s' "$id" | grep -Eq '^[a-z][a-z0-9]*(-[a-z0-9]+)*$'; then
    echo "new-rule: the id \`$id\` is not kebab-case (lower-case words joined by -)" >&2
    exit 2
fi
if grep -q "^- id: $id\$" rules.yaml; then
    echo "new-rule: rules.yaml already has \`$id\`" >&2
    exit 2
fi
if ! grep -q "^  checklist: $item\$" rules.yaml; then
    echo "new-rule: no rule in rules.yaml uses the checklist item \`$item\`; the items are:" >&2
    grep "^  checklist: " rules.yaml | sort -u | sed 's/^  checklist: /  /' >&2
    exit 2
fi
if [ ! -d "Sources/Rules/$area" ]; then
    echo "new-rule: no folder Sources/Rules/$area; the areas are:" >&2
    ls Sources/Rules | grep -v Generated | sed 's/^/  /' >&2
    exit 2
fi

# `product-id-trailing-dot` → `ProductIdTrailingDot` (the type) and `productIdTrailingDot` (the case).
# The case follows the id word by word, as scripts/embed-rules.py writes it; the type spells the
# product names as the other rule files do (`RevenueCat…Rule`, `StoreKit…Rule`).
words=$(printf '%s' "$id" | awk -F- '{ for (i = 1; i <= NF; i++) printf "%s%s", toupper(substr($i, 1, 1)), substr($i, 2) }')
case=$(printf '%s' "$words" | awk '{ printf "%s%s", tolower(substr($0, 1, 1)), substr($0, 2) }')
type=$(printf '%s' "$words" | sed -e 's/Revenuecat/RevenueCat/g' -e 's/Storekit/StoreKit/g')
file="Sources/Rules/$area/${type}Rule.swift"
if [ -e "$file" ]; then
    echo "new-rule: $file exists" >&2
    exit 2
fi
version=$(grep -m1 '^  since: ' rules.yaml | sed 's/^  since: //')

cat >> rules.yaml <<YAML

- id: $id
  checklist: $item
  severity: error
  since: $version
  title: TODO(new-rule) what is wrong, in a few words
  rationale: TODO(new-rule) why StoreKit then finds no product, with the source
  help: TODO(new-rule) the exact edit that fixes it
  examples:
    triggering:
      - |
        # TODO(new-rule) a descriptor that makes the rule fail; \`# <-\` marks the finding's line
    passing:
      - |
        # TODO(new-rule) the same descriptor, fixed
YAML

cat > "$file" <<SWIFT
import Formats
import Model
import Loaders
import RuleEngine

/// TODO(new-rule) what the rule checks, and why, in a sentence or two.
struct ${type}Rule: Rule {
    let id = RuleID.${case}.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        // Read facts from \`context.project\` (loaded with their file and line); return
        // \`context.pass()\`, \`context.fail(context.finding(…))\`, or \`context.unknown(question, key:)\`
        // when the files cannot answer.
        TODO(new-rule)
    }
}
SWIFT

python3 scripts/embed-rules.py
echo "new-rule: wrote $file and the rules.yaml entry for \`$id\`; fill in each TODO(new-rule), then run scripts/generate.sh and swift test"
