import Formats
import Model
import Loaders
import RuleEngine

/// `app.sources` was scanned and nothing in it deals with In-App Purchase: most likely the store
/// code lives elsewhere (a package, another folder), so no requested ID could be found there.
struct NoStoreKitInSourcesRule: Rule {
    let id = RuleID.noStorekitInSources.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        let sources = context.project.evidence.sources
        guard let key = sources.sourcesKey else { return [context.notApplicable("`app.sources` is not set")] }
        if sources.filesScanned == 0 {
            return [context.passWithNotes([context.finding(
                "`app.sources` holds no \(SourceEvidence.fileKinds)", at: key,
                help: "point `app.sources` at the folders with the app's code")])]
        }
        let codeRequests = context.project.requests.contains { $0.source == .code }
        guard !codeRequests, sources.unresolved.isEmpty else { return [context.pass()] }
        // Remote packages are fetched by Xcode: their code is not in the folder that was scanned.
        let packages = sources.remotePackages.map { package in
            var name = Substring(package.value.split(separator: "/").last ?? Substring(package.value))
            if name.hasSuffix(".git") { name = name.dropLast(4) }
            return String(name)
        }
        let packageNote = packages.isEmpty ? [] : [
            "the project depends on \(packages.count) remote Swift package\(packages.count == 1 ? "" : "s") whose code is not in `app.sources`: "
                + packages.prefix(8).joined(separator: ", ") + (packages.count > 8 ? ", …" : ""),
        ]
        let help = packages.isEmpty
            ? "add the folder or package with the store code to `app.sources`, or list the requested IDs under `requests`"
            : "if a package holds the store code, add its checkout (Xcode keeps them under DerivedData's `SourcePackages/checkouts`) to `app.sources`, or list the requested IDs under `requests`"
        if !sources.importedLibraries.isEmpty || sources.mentionsStoreKit {
            // StoreKit is used, but no call in the scanned code requests a product.
            guard !packages.isEmpty else { return [context.pass()] }
            return [context.passWithNotes([context.finding(
                "the scanned code uses StoreKit, but no call in it requests a product; the request may be in a package iapdoctor did not scan",
                at: key, help: help, notes: packageNote)])]
        }
        if !sources.unreadLibraries.isEmpty {
            // A module named like a purchase library: the app may well sell through it.
            let names = sources.unreadLibraries.prefix(4).map { "`\($0)`" }.joined(separator: ", ")
            return [context.passWithNotes([context.finding(
                "the scanned code imports \(names), named like a purchase library iapdoctor does not read, and no call it knows requests a product",
                at: key,
                help: "list the product IDs the app requests through it under `requests`, or add the library's code to `app.sources` if it is in the repository",
                notes: packageNote)])]
        }
        let libraries = "an In-App Purchase library (RevenueCat, SwiftyStoreKit, MKStoreKit, …)"
        var message = sources.filesScanned == 1
            ? "the scanned file imports neither StoreKit nor \(libraries)" : "none of the \(sources.filesScanned) scanned files imports StoreKit or \(libraries)"
        if sources.importsStoreKitForReviews {
            message = (sources.filesScanned == 1 ? "the scanned file imports" : "the \(sources.filesScanned) scanned files import")
                + " StoreKit only to ask for App Store reviews, and no In-App Purchase library (RevenueCat, SwiftyStoreKit, MKStoreKit, …)"
        }
        return [context.passWithNotes([context.finding(
            "\(message), so the code requests no product iapdoctor can see",
            at: key, help: help, notes: packageNote)])]
    }
}
