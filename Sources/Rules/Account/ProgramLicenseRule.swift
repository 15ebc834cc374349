import Formats
import Model
import Loaders
import RuleEngine

/// The latest Apple Developer Program License Agreement must be accepted.
struct ProgramLicenseRule: Rule {
    let id = RuleID.programLicenseNotAccepted.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        guard let license = context.project.account.programLicense else {
            return [context.unknown(
                "Has the Account Holder accepted the latest Apple Developer Program License Agreement?",
                key: .developerAccountProgramLicense)]
        }
        guard license.value == .pending else { return [context.pass()] }
        return [context.fail(context.finding(
            "the latest Apple Developer Program License Agreement is `pending`; until it is accepted, App Store Connect blocks the account's In-App Purchases",
            at: license.location,
            help: "the Account Holder must sign in to developer.apple.com and accept the agreement; then set `program_license: accepted`"))]
    }
}
