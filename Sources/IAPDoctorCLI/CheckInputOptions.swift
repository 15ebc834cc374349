import ArgumentParser
import IAPDoctor

/// What `check` and `report` read besides their paths: one declaration, so the two commands take
/// the same inputs with the same spelling and help.
struct CheckInputOptions: ParsableArguments {
    @Option(help: "Check as if the descriptor's `environment` were this one (xcode, sandbox, testflight, review, production); `review` is the pre-submission profile.")
    var environment: Environment?

    @Option(help: "Rules configuration file (default: .iapdoctor.yml beside the descriptor).")
    var rules: String?

    @Option(help: "The project folder: every path the descriptor (or a scheme) names must stay inside it (default: the descriptor's folder).")
    var root: String?

    @Option(name: .customLong("profiles-dir"), help: "Where installed provisioning profiles are (repeatable; default: Xcode's folders under ~/Library).")
    var profilesDirectories: [String] = []

    @Option(name: .customLong("asc"), help: ArgumentHelp("An App Store Connect snapshot (a file, or a folder of saved API responses) to read App Store Connect's facts from; over the descriptor's `app_store_connect.snapshot`.", valueName: "snapshot"))
    var ascSnapshot: String?

    @Option(name: .customLong("revenuecat"), help: ArgumentHelp("A RevenueCat snapshot (docs/revenuecat.md) whose offerings' products the app shows; over the descriptor's `revenuecat.snapshot`.", valueName: "snapshot"))
    var revenueCatSnapshot: String?

    /// What was given, as plain values.
    var values: CheckInputs {
        CheckInputs(environment: environment, rules: rules, root: root, profilesDirectories: profilesDirectories, ascSnapshot: ascSnapshot,
                    revenueCatSnapshot: revenueCatSnapshot)
    }
}

/// The values of `CheckInputOptions`, without the parser's property wrappers: what a check runs
/// with, however its arguments were read.
struct CheckInputs: Equatable {
    var environment: Environment? = nil
    var rules: String? = nil
    var root: String? = nil
    var profilesDirectories: [String] = []
    var ascSnapshot: String? = nil
    var revenueCatSnapshot: String? = nil

    /// The check of `paths` with these inputs; `pulledSnapshot` (from `--asc-pull`) stands for `--asc`.
    func request(paths: [String], failOn: FailOn, pulledSnapshot: String? = nil) -> Doctor.Request {
        Doctor.Request(
            paths: paths, rulesFile: rules, failOn: failOn.threshold, environment: environment, root: root,
            profilesDirectories: InstalledProfiles.commandLineFolders(profilesDirectories),
            ascSnapshot: pulledSnapshot ?? ascSnapshot, revenueCatSnapshot: revenueCatSnapshot)
    }
}

enum FailOn: String, ExpressibleByArgument, CaseIterable {
    case error, warning, note, never

    /// The lowest severity that fails the run (`nil`: nothing does).
    var threshold: Severity? {
        switch self {
        case .error: .error
        case .warning: .warning
        case .note: .note
        case .never: nil
        }
    }
}
