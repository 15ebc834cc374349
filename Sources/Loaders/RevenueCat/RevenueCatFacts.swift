import Formats
import Model

/// What the code and the RevenueCat snapshot say about the app's RevenueCat setup: the SDK keys
/// and offering identifiers the code names, the snapshot's project, which of its apps is this
/// build's, and the offerings that app can show.
public struct RevenueCatEvidence: Sendable {
    /// A key or offering identifier the code hands the SDK.
    public struct CodeUse: Sendable, Hashable {
        /// nil when the code's value is not known here (read at run time).
        public var value: String?
        /// Where the value is written, else the call.
        public var location: SourceLocation
        public var api: String
        public var call: SourceLocation
        /// The argument as written.
        public var written: String
        /// true when only Debug builds compile the call (`#if DEBUG`), false when only the
        /// others do; nil when every build does.
        public var debugOnly: Bool?

        public init(value: String?, location: SourceLocation, api: String, call: SourceLocation, written: String, debugOnly: Bool? = nil) {
            self.debugOnly = debugOnly
            self.value = value
            self.location = location
            self.api = api
            self.call = call
            self.written = written
        }
    }

    /// An offering the app can show, and why iapdoctor thinks so.
    public struct ShownOffering: Sendable, Hashable {
        public var offering: RevenueCatSnapshot.Offering
        /// `current`, or the code's use of its identifier.
        public var namedBy: CodeUse?
    }

    public var keys: [CodeUse] = []
    public var offeringIDs: [CodeUse] = []
    /// Where the code fetches offerings (`Purchases.shared.offerings()`).
    public var fetches: [SourceLocation] = []
    public var snapshot: RevenueCatSnapshot?
    /// Where the snapshot was named (`--revenuecat`, `revenuecat.snapshot`).
    public var snapshotNamedAt: SourceLocation?
    /// This build's app in the snapshot, and how it was chosen.
    public var app: RevenueCatSnapshot.App?
    public var appChoice: String?
    /// When no app could be chosen: why, for the question.
    public var appQuestion: String?
    /// The offerings the app can show: the current one and those the code names.
    public var shown: [ShownOffering] = []

    public init() {}

    /// The code uses RevenueCat: it configures the SDK or fetches offerings.
    public var inCode: Bool { !keys.isEmpty || !offeringIDs.isEmpty || !fetches.isEmpty }
}

/// Key prefixes of RevenueCat's SDK keys (`docs/revenuecat.md`).
public enum RevenueCatKeyKind: Sendable, Equatable {
    case apple, legacy, testStore, secret, otherStore(String), placeholder

    public init(_ key: String) {
        if RevenueCatKeyKind.isPlaceholder(key) { self = .placeholder }
        else if key.hasPrefix("appl_") || key.hasPrefix("mac_") { self = .apple }
        else if key.hasPrefix("test_") { self = .testStore }
        else if key.hasPrefix("sk_") || key.hasPrefix("atk_") { self = .secret }
        else if key.hasPrefix("goog_") { self = .otherStore("Play Store") }
        else if key.hasPrefix("amzn_") { self = .otherStore("Amazon Appstore") }
        else if key.hasPrefix("rcb_") { self = .otherStore("Web Billing") }
        else if key.hasPrefix("roku_") { self = .otherStore("Roku") }
        else if key.contains("_") { self = .otherStore("another store") }
        else { self = .legacy }
    }

    /// Text that stands where a key goes (`appl_YOUR_KEY_HERE`, `<revenuecat_api_key>`,
    /// `appl_xxxx`, `REVENUECAT_API_KEY`) rather than a key: RevenueCat's keys are a store prefix
    /// and 20 or more letters and digits, or (legacy) letters and digits alone.
    public static func isPlaceholder(_ key: String) -> Bool {
        let lower = key.lowercased()
        if key.isEmpty || key.contains(where: { "<>*{}$ …".contains($0) }) || key.contains("...") { return true }
        let words = ["your_", "your-", "yourkey", "yourapi", "your_api", "replace", "placeholder", "insert", "example", "todo", "changeme", "change_me", "_here", "-here", "xxxx", "apikey", "api_key", "sdkkey", "sdk_key"]
        if words.contains(where: lower.contains) { return true }
        // An environment variable's name written as the value: `REVENUECAT_API_KEY`.
        if key.allSatisfy({ $0.isUppercase || $0 == "_" || $0.isNumber }), key.contains("KEY") || key.contains("API") { return true }
        // A prefix with next to nothing after it: `appl_`, `appl_123`.
        if let underscore = key.firstIndex(of: "_"), key[key.index(after: underscore)...].count < 8 { return true }
        return false
    }
}

public enum RevenueCatFacts {
    /// Reads the RevenueCat snapshot: `--revenuecat` (the user's choice, not confined), else the
    /// descriptor's `revenuecat.snapshot` (relative to its folder, confined to it), and applies it.
    public static func load(into project: inout Project) -> [Finding] {
        let named: (path: String, location: SourceLocation, confined: Bool)
        if let given = project.revenueCat.commandLineSnapshot {
            named = (given, SourceLocation(file: "--revenuecat"), false)
        } else if let stated = project.revenueCat.snapshot {
            named = (Paths.resolve(stated.value, relativeTo: project.baseDirectory), stated.location, true)
        } else {
            return []
        }
        do throws(InputProblem) {
            let snapshot = try named.confined
                ? RevenueCatSnapshot.load(path: named.path)
                : Workspace.withConfinement(root: nil) { () throws(InputProblem) in try RevenueCatSnapshot.load(path: named.path) }
            project.parsedFiles.note(snapshot.file)
            apply(snapshot, namedAt: named.location, to: &project)
            return []
        } catch {
            var finding = error.finding
            if named.confined, finding.rule == RuleID.inputUnreadable.rawValue {
                finding.notes.append("the snapshot is named at \(named.location); the path is relative to the descriptor's folder")
            }
            return [finding]
        }
    }

    /// Relates the snapshot to the app: chooses this build's app, the offerings it can show, and
    /// adds their products for this app to the requests (each at its line in the snapshot).
    public static func apply(_ snapshot: RevenueCatSnapshot, namedAt: SourceLocation, to project: inout Project) {
        var evidence = project.evidence.revenueCat
        evidence.snapshot = snapshot
        evidence.snapshotNamedAt = namedAt
        (evidence.app, evidence.appChoice, evidence.appQuestion) = chooseApp(snapshot, project: project, keys: evidence.keys)
        guard let app = evidence.app else {
            project.evidence.revenueCat = evidence
            return
        }
        // The current offering, and each offering the code names by a known identifier.
        var shown: [RevenueCatEvidence.ShownOffering] = []
        if let current = snapshot.offerings.first(where: { $0.isCurrent?.value == true }) {
            shown.append(.init(offering: current, namedBy: nil))
        }
        for use in evidence.offeringIDs {
            guard let id = use.value, let offering = snapshot.offerings.first(where: { $0.lookupKey.value == id }),
                  !shown.contains(where: { $0.offering.id == offering.id }) else { continue }
            shown.append(.init(offering: offering, namedBy: use))
        }
        evidence.shown = shown
        var requested = Set(project.requests.map(\.value))
        for offering in shown.map(\.offering) {
            for package in offering.packages {
                for attached in package.products {
                    let (storeIdentifier, appID) = snapshot.resolved(attached)
                    guard appID == app.id.value, let storeIdentifier, requested.insert(storeIdentifier.value).inserted else { continue }
                    project.requests.append(storeIdentifier)
                }
            }
        }
        project.evidence.revenueCat = evidence
    }

    /// This build's app: `revenuecat.app_id`; else the App Store app with the build's bundle ID;
    /// else the one whose public key the code configures; else the only App Store app.
    static func chooseApp(_ snapshot: RevenueCatSnapshot, project: Project, keys: [RevenueCatEvidence.CodeUse])
        -> (RevenueCatSnapshot.App?, String?, String?) {
        if snapshot.apps.isEmpty, let missing = snapshot.appsUnavailable {
            return (nil, nil, "The snapshot lists the project's apps as unavailable (\(missing.path)): which RevenueCat app is this build's, with which bundle ID and keys? Pull again with a key that has `project_configuration:apps:read`")
        }
        if let stated = project.revenueCat.appID {
            guard let app = snapshot.apps.first(where: { $0.id.value == stated.value }) else {
                let ids = snapshot.apps.map { "`\($0.id.value)`" }.joined(separator: ", ")
                return (nil, nil, "`revenuecat.app_id` at \(stated.location) is `\(stated.value)`, which is no app of the snapshot's project (its apps: \(ids.isEmpty ? "none" : ids)). Which RevenueCat app does this build use?")
            }
            return (app, "`revenuecat.app_id` at \(stated.location)", nil)
        }
        let apple = snapshot.apps.filter(\.isApple)
        let bundleID = project.evidence.storeBundleID ?? project.app.bundleID
        if let bundleID, let app = apple.first(where: { $0.bundleID?.value == bundleID.value }) {
            return (app, "its bundle ID `\(bundleID.value)` is the build's (\(bundleID.location))", nil)
        }
        let codeKeys = Set(keys.compactMap(\.value))
        if let app = snapshot.apps.first(where: { $0.keys.contains { codeKeys.contains($0.key.value) } }) {
            return (app, "the code configures the SDK with its public key", nil)
        }
        if apple.count == 1 { return (apple[0], "it is the project's only App Store app", nil) }
        if apple.isEmpty { return (nil, nil, nil) }
        let listed = apple.map { "\($0.shown) for `\($0.bundleID?.value ?? "no bundle ID")`" }.joined(separator: ", ")
        return (nil, nil, "The snapshot's project has \(apple.count) App Store apps (\(listed)) and none is known to be this build's: which one's offerings does it show? Set `revenuecat.app_id`")
    }
}
