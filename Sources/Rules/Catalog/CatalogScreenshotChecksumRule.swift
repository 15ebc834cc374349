import Formats
import Model
import Loaders
import RuleEngine
import XMLReader

/// `<size>` and `<checksum type="md5">` must describe the file's bytes; Transporter recomputes both.
struct CatalogScreenshotChecksumRule: CatalogItemRule {
    let id = RuleID.catalogScreenshotChecksum.rawValue

    func check(item streamed: CatalogStreamedItem, context: CatalogItemContext) -> [Finding] {
        guard let reference = ScreenshotReference.of(streamed, in: context.scanState), let file = reference.file,
            let byteCount = file.byteCount
        else { return [] }
        var findings: [Finding] = []
        var product: String? { reference.item.productID?.value }
        var name: String { reference.fileName!.text }
        if let size = reference.size {
            if !Self.isNumber(size, byteCount) {
                findings.append(context.finding(
                    "`<size>` of review screenshot `\(name)` is `\(size.text)`, but the file has \(byteCount) bytes",
                    at: streamed.valueLocation(of: size), help: "set `<size>\(byteCount)</size>`", product: product))
            }
        } else {
            findings.append(context.finding(
                "review screenshot `\(name)` of `\(reference.item.name)` has no `<size>`",
                at: streamed.location(of: reference.element), help: "add `<size>\(byteCount)</size>`", product: product))
        }
        guard let digest = file.md5 else {
            // Too large to read: the size is checked, the checksum cannot be.
            var finding = context.finding(
                "review screenshot `\(name)` is \(byteCount) bytes, more than iapdoctor reads (\(PackageFiles.File.maxBytes >> 20) MiB): its checksum and dimensions are not checked",
                at: streamed.location(of: reference.element),
                help: "check that this is the screenshot: a review screenshot is a PNG or JPEG of a few MB; export it again at the display's size",
                product: product)
            finding.severity = .warning
            return findings + [finding]
        }
        if let checksum = reference.checksum {
            let type = checksum.attribute("type")
            if type != "md5" {
                findings.append(context.finding(
                    "`<checksum>` of review screenshot `\(name)` has type `\(type ?? "(none)")`; Transporter expects `md5`",
                    at: streamed.location(of: checksum, attribute: "type"),
                    help: "write `<checksum type=\"md5\">\(digest)</checksum>`", product: product))
            } else if !Self.isDigest(checksum, digest) {
                findings.append(context.finding(
                    "MD5 checksum of review screenshot `\(name)` is `\(checksum.text)`, but the file's MD5 is `\(digest)`",
                    at: streamed.valueLocation(of: checksum),
                    help: "set `<checksum type=\"md5\">\(digest)</checksum>` (or restore the image the checksum was made from)",
                    notes: ["Transporter recomputes the MD5 of every file and rejects the package when one differs"],
                    product: product))
            }
        } else {
            findings.append(context.finding(
                "review screenshot `\(name)` of `\(reference.item.name)` has no `<checksum>`",
                at: streamed.location(of: reference.element),
                help: "add `<checksum type=\"md5\">\(digest)</checksum>`", product: product))
        }
        return findings
    }

    /// `Int(element.text) == number`, without a string for a plain run of digits.
    static func isNumber(_ element: XMLElementView, _ number: Int) -> Bool {
        let plain: Int? = element.withTextBytes { bytes in
            guard !bytes.isEmpty, bytes.count <= 18, bytes.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
            return bytes.reduce(0) { $0 * 10 + Int($1 - 0x30) }
        }
        if let plain { return plain == number }
        return Int(element.text) == number
    }

    /// `element.text.lowercased() == digest` (an MD5 in lower-case hex), without a string for ASCII text.
    static func isDigest(_ element: XMLElementView, _ digest: String) -> Bool {
        var digest = digest
        let answer: Bool? = element.withTextBytes { bytes in
            digest.withUTF8 { expected in
                guard bytes.count == expected.count else { return bytes.allSatisfy({ $0 < 0x80 }) ? false : nil }
                // One pass, no early exit: the bytes seen (for non-ASCII) and the differences.
                var seen: UInt8 = 0, differences: UInt8 = 0
                for index in 0..<bytes.count {
                    let byte = bytes[index]
                    seen |= byte
                    differences |= ((byte >= 0x41 && byte <= 0x5A) ? byte | 0x20 : byte) ^ expected[index]
                }
                return seen >= 0x80 ? nil : differences == 0
            }
        }
        return answer ?? (element.text.lowercased() == digest)
    }

    func check(_ context: RuleContext) -> [Outcome] {
        context.outcomes(context.catalogPackages.flatMap { context.itemFindings(in: $0) })
    }
}
