import Formats
import Model
import Loaders
import RuleEngine

/// Products belong to an App Store Connect app record for the bundle ID; without one there is
/// nothing for StoreKit to find.
struct AppRecordRule: Rule {
    let id = RuleID.appRecordMissing.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        let bundle = context.project.app.bundleID.map { " for `\($0.value)`" } ?? ""
        guard let record = context.project.appStoreConnect.appRecord else {
            return [context.unknown(
                "Is there an App Store Connect app record\(bundle)?", key: .appStoreConnectAppRecord)]
        }
        guard !record.value else { return [context.pass()] }
        return [context.fail(context.finding(
            "there is no App Store Connect app record\(bundle), so no In-App Purchase can exist for it",
            at: record.location,
            help: "create the app in App Store Connect → Apps with this bundle ID, add the products to it, then \(record.recordFix("set `app_record: true`"))"))]
    }
}
