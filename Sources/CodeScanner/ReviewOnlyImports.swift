/// `import StoreKit` for App Store reviews only (`requestReview`, `SKStoreReviewController`) is
/// not a purchase library: a file that imports it and names nothing of purchases does not make
/// the app one that sells.
extension SourceScanner.Summarizer {
    mutating func dropReviewOnlyStoreKitImport() {
        guard summary.imports.contains("StoreKit"), !summary.usesStoreKit1, !summary.usesStoreKit2,
              summary.calls.isEmpty, summary.wrappers.isEmpty,
              contains("requestReview") || contains("SKStoreReviewController") || contains("RequestReviewAction")
        else { return }
        // Any word of purchases keeps the import: a use the scanner does not know still counts.
        guard !contains("Product"), !contains("Transaction"), !contains("urchase"), !contains("SKPayment"),
              !contains("StoreView"), !contains("AppStore.sync"), !contains("Subscription")
        else { return }
        summary.imports.remove("StoreKit")
        summary.importsStoreKitForReviews = true
    }
}
