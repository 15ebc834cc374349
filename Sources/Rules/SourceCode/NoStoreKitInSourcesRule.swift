import IAPDoctor

/// `app.sources` was scanned and nothing in it deals with In-App Purchase: most likely the store
/// code lives elsewhere (a package, another folder), so no requested ID could be found there.
struct NoStoreKitInSourcesRule: Rule {
    let id = RuleID.noStorekitInSources.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        let sources = context.project.evidence.sources
        guard let key = sources.sourcesKey else { return [context.notApplicable("`app.sources` is not set")] }
        if sources.filesScanned == 0 {
            return [context.passWithNotes([context.finding(
                "`app.sources` holds no Swift or Objective-C file (.swift, .m, .mm, .h)", at: key,
                help: "point `app.sources` at the folders with the app's code")])]
        }
        let codeRequests = context.project.requests.contains { $0.source == .code }
        guard sources.importedLibraries.isEmpty, !sources.mentionsStoreKit, !codeRequests, sources.unresolved.isEmpty else {
            return [context.pass()]
        }
        let files = sources.filesScanned == 1 ? "the scanned file imports" : "none of the \(sources.filesScanned) scanned files imports"
        return [context.passWithNotes([context.finding(
            "\(files) StoreKit or an In-App Purchase library (RevenueCat, SwiftyStoreKit, MKStoreKit, …), so the code requests no product iapdoctor can see",
            at: key,
            help: "add the folder or package with the store code to `app.sources`, or list the requested IDs under `requests`")])]
    }
}
