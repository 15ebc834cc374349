import IAPDoctor

/// A new in-app purchase (one without `read_only_info`, i.e. not yet in App Store Connect) needs its
/// review screenshot, or it stays "Waiting for Screenshot".
struct CatalogScreenshotMissingRule: Rule {
    let id = "catalog-screenshot-missing"

    func check(_ context: RuleContext) -> [Outcome] {
        var outcomes: [Outcome] = []
        for package in context.catalogPackages {
            for item in package.items where !item.existsInAppStoreConnect {
                let product = item.productID?.value
                // A family's screenshot covers its members.
                if let group = item.group, package.groups[group].node.child("review_screenshot") != nil {
                    outcomes.append(context.pass(product: product))
                    continue
                }
                if item.node.child("review_screenshot") != nil {
                    outcomes.append(context.pass(product: product))
                    continue
                }
                outcomes.append(context.fail(context.finding(
                    "new in-app purchase `\(item.name)` has no `<review_screenshot>`, so it will wait for a screenshot and cannot be reviewed",
                    at: item.location,
                    help: "add `<review_screenshot><file_name>…</file_name><size>…</size><checksum type=\"md5\">…</checksum></review_screenshot>` and put the image in the .itmsp folder",
                    product: product)))
            }
        }
        return outcomes.isEmpty ? [context.pass()] : outcomes
    }
}
