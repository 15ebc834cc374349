import Formats
import Model
import Loaders
import RuleEngine
import XMLReader

/// Template values left in a package: `{SKU}`, `{team_id}`, `xxxxx`, `YOUR_…`.
struct CatalogPlaceholderRule: CatalogItemRule {
    let id = RuleID.catalogPlaceholder.rawValue

    static func finding(text: String, place: String, at location: SourceLocation) -> CatalogItemFinding? {
        guard let marker = Placeholders.placeholder(in: text) else { return nil }
        let whole = text == marker ? "" : " (`\(text)`)"
        return CatalogItemFinding(
            "`<\(place)>` still holds the placeholder `\(marker)`\(whole)",
            at: location, help: "replace the template value with the real one")
    }

    /// The finding for a leaf's text or attribute value given as bytes (a string is made only for
    /// a placeholder, or for text that is not ASCII).
    static func finding(bytes: UnsafeBufferPointer<UInt8>, place: () -> String, at location: () -> SourceLocation) -> CatalogItemFinding? {
        switch Placeholders.asciiPlaceholder(bytes: bytes) {
        case .ascii(nil):
            return nil
        case .ascii(let marker?):
            let text = String(decoding: bytes, as: UTF8.self)
            let whole = text == marker ? "" : " (`\(text)`)"
            return CatalogItemFinding(
                "`<\(place())>` still holds the placeholder `\(marker)`\(whole)",
                at: location(), help: "replace the template value with the real one")
        case .notASCII:
            return finding(text: String(decoding: bytes, as: UTF8.self), place: place(), at: location())
        }
    }

    /// Items, as they stream by: every leaf element's text and attributes.
    func check(item streamed: CatalogStreamedItem, context: CatalogItemContext) -> [Finding] {
        var findings: [Finding] = []
        streamed.element.forEachDescendant { node in
            // The metadata token has its own rule.
            guard !node.hasChildren, !node.isNamed("metadata_token") else { return }
            if let found = node.withTextBytes({ Self.finding(bytes: $0, place: { node.name }, at: { streamed.valueLocation(of: node) }) }) {
                findings.append(context.finding(found))
                return
            }
            guard node.attributeCount > 0 else { return }
            var reported = false
            node.forEachAttribute { name, value in
                guard !reported,
                    let found = Self.finding(
                        bytes: value, place: { "\(node.name)@\(name)" }, at: { streamed.location(of: node, attribute: XMLName(name)) })
                else { return }
                findings.append(context.finding(found))
                reported = true
            }
        }
        return findings
    }

    /// The rest of the package (without its items), then the items' findings.
    func check(_ context: RuleContext) -> [Outcome] {
        var findings: [Finding] = []
        for package in context.catalogPackages {
            package.root.forEachDescendant { node in
                // The metadata token has its own rule; elements whose items streamed by are not leaves.
                guard node.children.isEmpty, node.name != "metadata_token", !package.itemParents.contains(node.position) else { return }
                var texts = [(node.text, node.name, package.valueLocation(of: node))]
                texts += node.attributes.map { ($0.value, "\(node.name)@\($0.name)", package.attributeLocation(of: node, $0.name)) }
                for (text, place, location) in texts {
                    guard let found = Self.finding(text: text, place: place, at: location) else { continue }
                    findings.append(context.finding(found))
                    break
                }
            }
            findings += context.itemFindings(in: package)
        }
        return context.outcomes(findings)
    }
}
