import Formats
import Model
import Loaders
import RuleEngine

/// Review screenshots must be PNG or JPEG in one of the pixel sizes Transporter lists.
struct CatalogScreenshotDimensionsRule: CatalogItemRule {
    let id = RuleID.catalogScreenshotDimensions.rawValue

    func check(item streamed: CatalogStreamedItem, context: CatalogItemContext) -> [Finding] {
        guard let reference = ScreenshotReference.of(streamed, in: context.scanState), let file = reference.file, file.byteCount != nil, !file.isOversize,
            let fileName = reference.fileName
        else { return [] }
        var location: SourceLocation { streamed.valueLocation(of: fileName) }
        var product: String? { reference.item.productID?.value }
        guard let size = file.imageSize else {
            return [context.finding(
                "review screenshot `\(fileName.text)` is neither a PNG nor a JPEG image",
                at: location, help: "export the screenshot as PNG or JPEG (RGB, flattened)", product: product)]
        }
        guard !CatalogSchema.isScreenshotSize(size) else { return [] }
        return [context.finding(
            "review screenshot `\(fileName.text)` is \(size.width)×\(size.height) pixels, which is not a size Transporter accepts for in-app purchases",
            at: location,
            help: "resize it to a device screenshot size such as 640×1136, 750×1334, 1242×2208 or 2048×2732 (portrait or landscape)",
            product: product)]
    }

    func check(_ context: RuleContext) -> [Outcome] {
        context.outcomes(context.catalogPackages.flatMap { context.itemFindings(in: $0) })
    }
}
