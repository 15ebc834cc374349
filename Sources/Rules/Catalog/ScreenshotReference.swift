import Formats
import Model
import Loaders
import RuleEngine
import XMLReader

/// An item's `<review_screenshot>` and what it says, worked out once per item for the three
/// screenshot rules.
final class ScreenshotReference {
    let streamed: CatalogStreamedItem
    let element: XMLElementView
    let fileName: XMLElementView?
    let size: XMLElementView?
    let checksum: XMLElementView?
    /// The referenced file, resolved against the package folder, and what is known about it.
    let file: PackageFiles.File?

    var item: CatalogPackage.Item { streamed.item }

    private init(_ streamed: CatalogStreamedItem, _ element: XMLElementView, files: PackageFiles) {
        self.streamed = streamed
        self.element = element
        let fileName = element.child("file_name")
        self.fileName = fileName
        size = element.child("size")
        checksum = element.child("checksum")
        file = fileName.map { files.file(named: $0, in: streamed.directory) }
    }

    /// The item's review screenshot, if it has one (worked out by the first of the screenshot
    /// rules to ask, in `state`, the read's state they share).
    static func of(_ streamed: CatalogStreamedItem, in state: CatalogScanState) -> ScreenshotReference? {
        let current = state.value(CurrentReference.self, make: CurrentReference.init)
        let position = streamed.element.position
        if let cached = current.value, cached.position == position { return cached.reference }
        let files = state.value(PackageFiles.self, make: PackageFiles.init)
        let reference = streamed.element.child("review_screenshot").map { ScreenshotReference(streamed, $0, files: files) }
        current.value = (position, reference)
        return reference
    }

    /// The reference of the item being read, shared by the screenshot rules.
    private final class CurrentReference {
        var value: (position: XMLPosition, reference: ScreenshotReference?)?
    }
}

