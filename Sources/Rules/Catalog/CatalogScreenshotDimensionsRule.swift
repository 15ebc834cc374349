import IAPDoctor

/// Review screenshots must be PNG or JPEG in one of the pixel sizes Transporter lists.
struct CatalogScreenshotDimensionsRule: CatalogItemRule {
    let id = "catalog-screenshot-dimensions"

    init() { CatalogPackage.register(itemRule: self) }

    func check(item streamed: CatalogStreamedItem, findings: inout [CatalogItemFinding]) {
        guard let reference = ScreenshotReference.of(streamed), let file = reference.file, file.byteCount != nil,
            let fileName = reference.fileName
        else { return }
        var location: SourceLocation { streamed.valueLocation(of: fileName) }
        var product: String? { reference.item.productID?.value }
        guard let size = file.imageSize else {
            findings.append(CatalogItemFinding(
                "review screenshot `\(fileName.text)` is neither a PNG nor a JPEG image",
                at: location, help: "export the screenshot as PNG or JPEG (RGB, flattened)", product: product))
            return
        }
        guard !CatalogSchema.screenshotSizes.contains(size.description) else { return }
        findings.append(CatalogItemFinding(
            "review screenshot `\(fileName.text)` is \(size.width)×\(size.height) pixels, which is not a size Transporter accepts for in-app purchases",
            at: location,
            help: "resize it to a device screenshot size such as 640×1136, 750×1334, 1242×2208 or 2048×2732 (portrait or landscape)",
            product: product))
    }

    func check(_ context: RuleContext) -> [Outcome] {
        context.outcomes(context.catalogPackages.flatMap { $0.findings(of: self).map(context.finding) })
    }
}
