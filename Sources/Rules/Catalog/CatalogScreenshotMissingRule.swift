import Formats
import Model
import Loaders
import RuleEngine

/// A new in-app purchase (one without `read_only_info`, i.e. not yet in App Store Connect) needs its
/// review screenshot, or it stays "Waiting for Screenshot".
struct CatalogScreenshotMissingRule: Rule {
    let id = RuleID.catalogScreenshotMissing.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        var findings: [Finding] = []
        for package in context.catalogPackages {
            // A family's screenshot covers its members.
            let groupHasScreenshot = package.groups.map { $0.node.child("review_screenshot") != nil }
            for item in package.items where !item.existsInAppStoreConnect && !item.hasReviewScreenshot {
                if let group = item.group, groupHasScreenshot[group] { continue }
                findings.append(context.finding(
                    "new in-app purchase `\(item.name)` has no `<review_screenshot>`, so it will wait for a screenshot and cannot be reviewed",
                    at: item.location,
                    help: "add `<review_screenshot><file_name>…</file_name><size>…</size><checksum type=\"md5\">…</checksum></review_screenshot>` and put the image in the .itmsp folder",
                    product: item.productID?.value))
            }
        }
        return context.outcomes(findings)
    }
}
