import IAPDoctor
import XMLReader

/// The review screenshots a package references, each read once however many items share it.
struct ScreenshotReference {
    var package: CatalogPackage
    var item: CatalogPackage.Item
    var element: XMLNode
    var fileName: XMLNode?
    var size: XMLNode?
    var checksum: XMLNode?

    var path: String? { fileName.map { FileSystem.resolve($0.text, relativeTo: package.directory) } }

    static func all(in packages: [CatalogPackage]) -> [ScreenshotReference] {
        var references: [ScreenshotReference] = []
        for package in packages {
            for item in package.items {
                guard let element = item.node.child("review_screenshot") else { continue }
                references.append(ScreenshotReference(
                    package: package, item: item, element: element, fileName: element.child("file_name"),
                    size: element.child("size"), checksum: element.child("checksum")))
            }
        }
        return references
    }
}

/// Reads each screenshot file once per rule run.
final class ScreenshotFileCache {
    private var contents: [String: [UInt8]?] = [:]

    func bytes(_ path: String) -> [UInt8]? {
        if let cached = contents[path] { return cached }
        let bytes = try? FileSystem.readBytes(path, maxBytes: 64 << 20)
        contents[path] = bytes
        return bytes
    }
}
