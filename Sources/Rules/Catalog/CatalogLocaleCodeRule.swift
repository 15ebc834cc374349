import Formats
import Model
import Loaders
import RuleEngine
import XMLReader

/// Locale names are language codes with an optional region or script: `en-US`, `fi`, `zh-Hans`.
struct CatalogLocaleCodeRule: CatalogItemRule {
    let id = RuleID.catalogLocaleCode.rawValue

    static func isLocale(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard let language = parts.first, (2...3).contains(language.count),
            language.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) })
        else { return false }
        return parts.dropFirst().allSatisfy { part in
            (2...4).contains(part.count)
                && part.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) }
        }
    }

    /// `isLocale` on ASCII bytes; `nil` when the text is not ASCII.
    static func isLocale(bytes: UnsafeBufferPointer<UInt8>) -> Bool? {
        guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
        var part = 0
        var length = 0
        for byte in bytes {
            if byte == UInt8(ascii: "-") {
                guard part == 0 ? (2...3).contains(length) : (2...4).contains(length) else { return false }
                part += 1
                length = 0
                continue
            }
            let lower = byte >= 0x61 && byte <= 0x7A
            guard part == 0 ? lower : (lower || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x30 && byte <= 0x39)) else { return false }
            length += 1
        }
        return part == 0 ? (2...3).contains(length) : (2...4).contains(length)
    }

    static func finding(for name: String, at location: SourceLocation, product: String?) -> CatalogItemFinding {
        let fixed = name.replacingOccurrences(of: "_", with: "-")
        return CatalogItemFinding(
            "locale `\(name)` is not a language code such as `en-US`, `fi` or `zh-Hans`",
            at: location,
            help: isLocale(fixed) ? "write it with a hyphen: `name=\"\(fixed)\"`" : "use the language code App Store Connect lists for this language",
            product: product)
    }

    /// Items, as they stream by.
    func check(item streamed: CatalogStreamedItem, context: CatalogItemContext) -> [Finding] {
        guard let locales = streamed.element.child("locales") else { return [] }
        var findings: [Finding] = []
        for locale in locales.children where locale.isNamed("locale") {
            if locale.withAttributeBytes("name", { Self.isLocale(bytes: $0) }) == .some(true) { continue }
            guard let name = locale.attribute("name"), !Self.isLocale(name) else { continue }
            findings.append(context.finding(Self.finding(for: name, at: streamed.location(of: locale, attribute: "name"), product: streamed.element.child("product_id")?.text)))
        }
        return findings
    }

    /// Items' findings, then the groups' own localizations.
    func check(_ context: RuleContext) -> [Outcome] {
        var findings: [Finding] = []
        for package in context.catalogPackages {
            findings += context.itemFindings(in: package)
            for node in package.groups.map(\.node) {
                for locale in node["locales"]?.children(named: "locale") ?? [] {
                    guard let name = locale.attribute("name"), !Self.isLocale(name) else { continue }
                    findings.append(context.finding(Self.finding(for: name, at: package.attributeLocation(of: locale, "name"), product: node.child("product_id")?.text)))
                }
            }
        }
        return context.outcomes(findings)
    }
}
