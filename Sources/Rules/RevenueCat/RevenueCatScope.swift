import Formats
import Model
import Loaders
import RuleEngine

extension RuleContext {
    var revenueCat: RevenueCatEvidence { project.evidence.revenueCat }

    /// For a rule that needs the RevenueCat snapshot and this build's app in it: the outcome when
    /// they are not there (not applicable without RevenueCat, else the question a snapshot answers),
    /// or the snapshot and app to judge.
    func revenueCatApp() -> RevenueCatScope {
        let evidence = revenueCat
        guard let snapshot = evidence.snapshot else {
            guard evidence.inCode else { return .settled([]) }
            return .settled([unknown(Self.revenueCatQuestion, key: .revenuecatSnapshot)])
        }
        guard let app = evidence.app else {
            if let question = evidence.appQuestion { return .settled([unknown(question, key: .revenuecatAppID)]) }
            // No App Store app: `revenuecat-no-app-store-app` says so.
            return .settled([notApplicable("the RevenueCat project `\(snapshot.projectName ?? snapshot.projectID?.value ?? "?")` has no App Store app")])
        }
        return .judged(snapshot, app)
    }

    static let revenueCatQuestion = "Which offerings, packages and products does the app's RevenueCat project hold, and which of its apps is this build's? `iapdoctor revenuecat pull -o revenuecat-snapshot.json` (a secret API key in $REVENUECAT_SECRET_API_KEY) reads the project into a snapshot for `check --revenuecat` or `revenuecat.snapshot`"

    /// "offering `default` (current)", "offering `sale` (named at App.swift:12:30)".
    func shown(_ offering: RevenueCatEvidence.ShownOffering) -> String {
        let why = offering.namedBy.map { "named at \($0.location)" } ?? "the current offering"
        return "offering `\(offering.offering.lookupKey.value)` (\(why))"
    }
}

/// What a RevenueCat rule judges: the snapshot and this build's app in it, or the outcome that
/// stands when they are not known.
enum RevenueCatScope {
    case judged(RevenueCatSnapshot, RevenueCatSnapshot.App)
    case settled([Outcome])
}
