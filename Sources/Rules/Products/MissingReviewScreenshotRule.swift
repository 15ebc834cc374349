import IAPDoctor

/// Submitting a product for review needs its review screenshot.
struct MissingReviewScreenshotRule: Rule {
    let id = RuleID.missingReviewScreenshot.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        context.project.products.map { product in
            let id = product.productID?.value
            // An approved product went through review already.
            if product.status?.value == .approved { return context.pass(product: id) }
            guard let screenshot = product.reviewScreenshot else {
                return context.unknown(
                    "Does `\(product.name)` have its App Review screenshot uploaded?",
                    key: context.project.keyPath(.reviewScreenshot, of: product), product: id)
            }
            switch screenshot.value {
            case .present(true): return context.pass(product: id)
            case .present(false) where screenshot.source == .appStoreConnect:
                var message = "product `\(product.name)` has no review screenshot in App Store Connect, so it stays in Missing Metadata and cannot be submitted"
                if case .uploaded(let state, let file, _)? = product.store?.screenshot, let state {
                    message = state.value == "FAILED"
                        ? "the review screenshot `\(file ?? "?")` of `\(product.name)` failed to process in App Store Connect, so the product cannot be submitted"
                        : "the review screenshot `\(file ?? "?")` of `\(product.name)` is `\(state.value)`: App Store Connect is still waiting for its upload"
                }
                return context.fail(context.finding(
                    message, at: screenshot.location,
                    help: "upload a screenshot of the purchase screen (a PNG or JPEG of the app's screenshot size) under the product's App Review Information, then pull the snapshot again",
                    product: id))
            case .present(false):
                return context.fail(context.finding(
                    "product `\(product.name)` has no review screenshot, so it stays in Missing Metadata and cannot be submitted",
                    at: screenshot.location,
                    help: "upload a screenshot that shows the item being purchased under App Review Information in App Store Connect, then set `review_screenshot: true`",
                    product: id))
            case .file(let path):
                let resolved = FileSystem.resolve(path, relativeTo: context.project.baseDirectory)
                if FileSystem.exists(resolved) { return context.pass(product: id) }
                return context.fail(context.finding(
                    "the review screenshot `\(path)` of `\(product.name)` does not exist",
                    at: screenshot.location,
                    help: "fix the path (relative to the descriptor's folder), or set `review_screenshot: true` if it is already uploaded",
                    product: id))
            }
        }
    }
}
