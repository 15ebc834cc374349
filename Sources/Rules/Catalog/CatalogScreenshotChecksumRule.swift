import IAPDoctor

/// `<size>` and `<checksum type="md5">` must describe the file's bytes; Transporter recomputes both.
struct CatalogScreenshotChecksumRule: Rule {
    let id = "catalog-screenshot-checksum"

    func check(_ context: RuleContext) -> [Outcome] {
        var findings: [Finding] = []
        let files = ScreenshotFileCache()
        var digests: [String: String] = [:]
        for reference in ScreenshotReference.all(in: context.catalogPackages) {
            guard let path = reference.path, let bytes = files.bytes(path) else { continue }
            let product = reference.item.productID?.value
            let name = reference.fileName!.text
            if let size = reference.size {
                if Int(size.text) != bytes.count {
                    findings.append(context.finding(
                        "`<size>` of review screenshot `\(name)` is `\(size.text)`, but the file has \(bytes.count) bytes",
                        at: reference.package.location(of: size), help: "set `<size>\(bytes.count)</size>`", product: product))
                }
            } else {
                findings.append(context.finding(
                    "review screenshot `\(name)` of `\(reference.item.name)` has no `<size>`",
                    at: reference.package.location(of: reference.element), help: "add `<size>\(bytes.count)</size>`", product: product))
            }
            let digest = digests[path] ?? MD5.hex(bytes)
            digests[path] = digest
            if let checksum = reference.checksum {
                let type = checksum.attribute("type")
                if type != "md5" {
                    findings.append(context.finding(
                        "`<checksum>` of review screenshot `\(name)` has type `\(type ?? "(none)")`; Transporter expects `md5`",
                        at: reference.package.location(of: checksum),
                        help: "write `<checksum type=\"md5\">\(digest)</checksum>`", product: product))
                } else if checksum.text.lowercased() != digest {
                    findings.append(context.finding(
                        "MD5 checksum of review screenshot `\(name)` is `\(checksum.text)`, but the file's MD5 is `\(digest)`",
                        at: reference.package.location(of: checksum),
                        help: "set `<checksum type=\"md5\">\(digest)</checksum>` (or restore the image the checksum was made from)",
                        notes: ["Transporter recomputes the MD5 of every file and rejects the package when one differs"],
                        product: product))
                }
            } else {
                findings.append(context.finding(
                    "review screenshot `\(name)` of `\(reference.item.name)` has no `<checksum>`",
                    at: reference.package.location(of: reference.element),
                    help: "add `<checksum type=\"md5\">\(digest)</checksum>`", product: product))
            }
        }
        return context.outcomes(findings)
    }
}
