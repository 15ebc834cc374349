import Formats
import Model
import Loaders
import RuleEngine

/// `metadata_token` comes from `lookupMetadata` and must go back unmodified: an edited or made-up
/// token makes the import fail.
struct CatalogMetadataTokenRule: Rule {
    let id = RuleID.catalogMetadataToken.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        var findings: [Finding] = []
        for package in context.catalogPackages {
            guard let token = package.metadataToken else { continue }
            let text = token.value
            var reason: String?
            if text.isEmpty {
                reason = "is empty"
            } else if Placeholders.placeholder(in: text) != nil || text.lowercased().contains("token") {
                reason = "looks like a placeholder"
            } else if text.contains(where: { $0 == " " || $0 == "\n" || $0 == "\t" }) {
                reason = "contains white space, which tokens from lookupMetadata never do"
            }
            guard let reason else { continue }
            findings.append(context.finding(
                "`<metadata_token>` `\(text)` \(reason), not a token returned by `lookupMetadata`",
                at: token.location,
                help: "remove `<metadata_token>` for a new package, or fetch the package again with `iTMSTransporter -m lookupMetadata` and keep its token byte for byte",
                notes: ["an edited token makes the upload fail with an import error"]))
        }
        return context.outcomes(findings)
    }
}
