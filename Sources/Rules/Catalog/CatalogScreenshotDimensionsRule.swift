import IAPDoctor

/// Review screenshots must be PNG or JPEG in one of the pixel sizes Transporter lists.
struct CatalogScreenshotDimensionsRule: Rule {
    let id = "catalog-screenshot-dimensions"

    func check(_ context: RuleContext) -> [Outcome] {
        var findings: [Finding] = []
        let files = ScreenshotFileCache()
        for reference in ScreenshotReference.all(in: context.catalogPackages) {
            guard let path = reference.path, let bytes = files.bytes(path), let fileName = reference.fileName else { continue }
            let location = reference.package.location(of: fileName)
            let product = reference.item.productID?.value
            guard let size = ImageSize(bytes: bytes) else {
                findings.append(context.finding(
                    "review screenshot `\(fileName.text)` is neither a PNG nor a JPEG image",
                    at: location, help: "export the screenshot as PNG or JPEG (RGB, flattened)", product: product))
                continue
            }
            guard !CatalogSchema.screenshotSizes.contains(size.description) else { continue }
            findings.append(context.finding(
                "review screenshot `\(fileName.text)` is \(size.width)×\(size.height) pixels, which is not a size Transporter accepts for in-app purchases",
                at: location,
                help: "resize it to a device screenshot size such as 640×1136, 750×1334, 1242×2208 or 2048×2732 (portrait or landscape)",
                product: product))
        }
        return context.outcomes(findings)
    }
}
