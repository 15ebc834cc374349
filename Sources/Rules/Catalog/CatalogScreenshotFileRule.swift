import Formats
import Model
import Loaders
import RuleEngine

/// A referenced review screenshot must be a file in the package folder (Transporter reads the
/// folder flat, and the name is case-sensitive).
struct CatalogScreenshotFileRule: CatalogItemRule {
    let id = RuleID.catalogScreenshotFileMissing.rawValue

    func check(item streamed: CatalogStreamedItem, context: CatalogItemContext) -> [Finding] {
        guard let reference = ScreenshotReference.of(streamed, in: context.scanState) else { return [] }
        guard let fileName = reference.fileName else {
            return [context.finding(
                "the review screenshot of `\(reference.item.name)` has no `<file_name>`",
                at: streamed.location(of: reference.element),
                help: "add `<file_name>` with the image's name in the .itmsp folder", product: reference.item.productID?.value)]
        }
        guard let file = reference.file, file.isMissing else { return [] }
        let name = fileName.text
        if let refusal = file.refusal {
            return [context.finding(
                "review screenshot `\(name)` of `\(reference.item.name)` is not a regular file inside the package folder `\(streamed.directory)`: \(refusal); it was not read",
                at: streamed.valueLocation(of: fileName),
                help: "copy the image into the .itmsp folder next to metadata.xml and set `<file_name>` to its bare name",
                notes: ["packages are flat: the image sits next to metadata.xml, without folders"], product: reference.item.productID?.value)]
        }
        // A byte test, not `String.contains(_:)`: Foundation's search costs far more per call.
        let hasFolder = name.utf8.contains(UInt8(ascii: "/"))
        return [context.finding(
            joining: ["review screenshot `", name, "` of `", reference.item.name, "` is not in the package folder `", streamed.directory, "`"],
            at: streamed.valueLocation(of: fileName),
            help: "copy the image into the .itmsp folder next to metadata.xml, with exactly this name (it is case-sensitive)",
            notes: hasFolder ? ["packages are flat: the image sits next to metadata.xml, without folders"] : [],
            product: reference.item.productID?.value)]
    }

    func check(_ context: RuleContext) -> [Outcome] {
        context.outcomes(context.catalogPackages.flatMap { context.itemFindings(in: $0) })
    }
}
