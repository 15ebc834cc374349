import Formats
import Model
import Loaders
import RuleEngine

/// Submitting a product for review needs its review screenshot.
///
/// App Store Connect's state outranks the screenshot read: a product it reports past Missing
/// Metadata had its screenshot when it got there, so "stays in Missing Metadata" would contradict
/// it. There a missing or failed screenshot is a warning (App Review still needs one to look at).
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
            let complete = product.store?.metadataComplete
            let reported = complete.map { "App Store Connect reports it \(StoreRecord.displayName(ofState: $0.value)) (metadata complete)" }
            var finding: Finding
            switch screenshot.value {
            case .present(true): return context.pass(product: id)
            case .present(false) where screenshot.source == .appStoreConnect:
                var message = "product `\(product.name)` has no review screenshot in App Store Connect, so it stays in Missing Metadata and cannot be submitted"
                var help = "upload a screenshot of the purchase screen (a PNG or JPEG of the app's screenshot size) under the product's App Review Information, then pull the snapshot again"
                if case .uploaded(let state, let file, _)? = product.store?.screenshot, let state {
                    if state.value == "FAILED" {
                        message = "the review screenshot `\(file ?? "?")` of `\(product.name)` failed to process in App Store Connect, so "
                            + (reported.map { "App Review has none to look at, though \($0)" } ?? "the product cannot be submitted")
                    } else {
                        message = "the review screenshot `\(file ?? "?")` of `\(product.name)` is `\(state.value)`: App Store Connect is still waiting for its upload"
                            + (reported.map { ", though \($0)" } ?? "")
                    }
                } else if let reported {
                    message = "the snapshot shows no review screenshot for `\(product.name)`, although \(reported): the snapshot may be partial or out of date"
                    help = "check the product's App Review Information in App Store Connect before submitting: if the screenshot is there, pull the snapshot again; if not, upload one (App Review needs it)"
                }
                finding = context.finding(message, at: screenshot.location, help: help, product: id)
            case .present(false):
                finding = context.finding(
                    reported.map { "the descriptor says `\(product.name)` has no review screenshot, although \($0): the descriptor may be out of date" }
                        ?? "product `\(product.name)` has no review screenshot, so it stays in Missing Metadata and cannot be submitted",
                    at: screenshot.location,
                    help: reported == nil
                        ? "upload a screenshot that shows the item being purchased under App Review Information in App Store Connect, then set `review_screenshot: true`"
                        : "check the product's App Review Information in App Store Connect: if the screenshot is there, set `review_screenshot: true`; if not, upload one before submitting (App Review needs it)",
                    product: id)
            case .file(let path, let exists):
                if exists { return context.pass(product: id) }
                finding = context.finding(
                    "the review screenshot `\(path)` of `\(product.name)` does not exist",
                    at: screenshot.location,
                    help: "fix the path (relative to the descriptor's folder), or set `review_screenshot: true` if it is already uploaded",
                    product: id)
            }
            return context.fail(complete.map { finding.deferring(to: $0) } ?? finding, product: id)
        }
    }
}
