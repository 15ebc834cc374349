import IAPDoctor

/// A referenced review screenshot must be a file in the package folder (Transporter reads the
/// folder flat, and the name is case-sensitive).
struct CatalogScreenshotFileRule: Rule {
    let id = "catalog-screenshot-file-missing"

    func check(_ context: RuleContext) -> [Outcome] {
        var findings: [Finding] = []
        for reference in ScreenshotReference.all(in: context.catalogPackages) {
            guard let fileName = reference.fileName else {
                findings.append(context.finding(
                    "the review screenshot of `\(reference.item.name)` has no `<file_name>`",
                    at: reference.package.location(of: reference.element),
                    help: "add `<file_name>` with the image's name in the .itmsp folder", product: reference.item.productID?.value))
                continue
            }
            guard let path = reference.path, !FileSystem.exists(path) || FileSystem.isDirectory(path) else { continue }
            var notes: [String] = []
            if fileName.text.contains("/") { notes.append("packages are flat: the image sits next to metadata.xml, without folders") }
            findings.append(context.finding(
                "review screenshot `\(fileName.text)` of `\(reference.item.name)` is not in the package folder `\(reference.package.directory)`",
                at: reference.package.location(of: fileName),
                help: "copy the image into the .itmsp folder next to metadata.xml, with exactly this name (it is case-sensitive)",
                notes: notes, product: reference.item.productID?.value))
        }
        return context.outcomes(findings)
    }
}
