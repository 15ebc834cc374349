import Formats
import Model
import Loaders
import RuleEngine

/// When Xcode serves products from a StoreKit configuration file, only that file counts: every
/// requested product must be in it, and the simulated "Load Products" failure must be off.
struct StoreKitConfigurationRule: Rule {
    let id = RuleID.storekitConfigurationIncomplete.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        let project = context.project
        if let (reference, tried) = project.evidence.storeKitReferenceMissing {
            let scheme = project.evidence.scheme.map { Self.schemeName($0) } ?? "the scheme"
            return [context.fail(context.finding(
                "the scheme `\(scheme)` runs with the StoreKit configuration `\(reference.value)`, which is not there, so Xcode serves no products",
                at: reference.location,
                help: "in Xcode, Edit Scheme → Run → Options → StoreKit Configuration: choose the .storekit file again (or None to use the sandbox)",
                notes: ["looked for it at " + tried.map { "`\($0)`" }.joined(separator: ", ")]))]
        }
        if let scheme = project.evidence.scheme, scheme.storeKitConfiguration == nil {
            // The scheme decides what a Run from Xcode serves, whatever the descriptor names.
            var note = Finding(
                rule: context.metadata.id, severity: .note, checklist: context.metadata.checklist,
                message: "the scheme `\(Self.schemeName(scheme))` runs no StoreKit configuration: an app run from Xcode asks the sandbox, not a .storekit file",
                help: "to test with a .storekit file, choose it in Edit Scheme → Run → Options → StoreKit Configuration; otherwise set `environment: sandbox`",
                location: SourceLocation(file: scheme.file))
            if let named = project.app.storeKitConfiguration {
                note.notes.append("`app.storekit_configuration` (\(named.location)) is checked as a catalog only")
            }
            return [context.passWithNotes([note])]
        }
        if project.evidence.storeKitOutsideProject != nil {
            // Xcode does not serve the file: `storekit-configuration-not-in-project` says so.
            return []
        }
        guard let configuration = project.evidence.storeKit else {
            if project.app.storeKitConfiguration != nil || project.evidence.scheme?.storeKitConfiguration != nil {
                // Named but unreadable: the input problem already says why.
                return []
            }
            return [context.unknown(
                "Which StoreKit configuration file (.storekit) does the scheme's Run action use?",
                key: .appStoreKitConfiguration)]
        }
        let name = Paths.fileName(of: configuration.file)
        // The simulated "Load Products" failure is `storekit-load-products-failure`'s (one cause, one
        // error); a launch that skips the file is `storekit-configuration-bypassed`'s.
        var findings: [Finding] = []
        let available = Set(configuration.productIDs)
        guard !context.requests.isEmpty else {
            // Whether the file holds what the app asks for needs what the app asks for.
            let count = configuration.products.count
            return [context.unknown(
                "Which product IDs does the app request? `\(name)`, which the scheme's Run serves, has \(count == 1 ? "1 product" : "\(count) products"), and each requested ID must be one of them.",
                key: .requests)]
        }
        for request in context.requests {
            let wanted = request.productID ?? request.request.value
            guard !available.contains(wanted) else { continue }
            var help = "add `\(wanted)` to `\(name)` in Xcode (or sync the file with App Store Connect), or set the scheme's StoreKit Configuration to None to use the sandbox"
            if let suggestion = closestMatch(to: wanted, in: configuration.productIDs) {
                help = "did you mean `\(suggestion)`? Otherwise " + help
            }
            findings.append(context.finding(
                "`\(wanted)` is not in `\(name)`, and Xcode serves only the \(configuration.products.count) products of that file",
                at: request.request.location, help: help, product: request.verdictID))
        }
        if findings.isEmpty, let mismatch = project.evidence.caseMismatches.first(where: { $0.actual == configuration.file }),
           let reference = project.evidence.schemeUsesStoreKit
        {
            return [context.passWithNotes([context.finding(
                "the scheme's StoreKit configuration `\(reference.value)` names `\(mismatch.written)`, but the file is `\(mismatch.actual)`: the names differ only in letter case",
                at: reference.location,
                help: "choose the file again in Edit Scheme → Run → Options → StoreKit Configuration, so the reference matches its name exactly",
                notes: ["a Mac ignores the difference; a case-sensitive file system (a case-sensitive APFS volume, a Linux CI runner) does not"])])]
        }
        return context.outcomes(findings)
    }

    static func schemeName(_ scheme: XcodeScheme) -> String {
        scheme.file.split(separator: "/").last.map { String($0.dropLast(".xcscheme".count)) } ?? scheme.file
    }
}
