#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import XMLReader
import Formats
import Model

/// The files one read of a package's items name (review screenshots), as facts: each is looked
/// at and read once, however many items and rules refer to it (real packages share images
/// between items). Rules ask for a file's facts; only this loader touches the file system.
public final class PackageFiles {
    public final class File {
        public let path: String
        /// No such file, or a folder.
        public let isMissing: Bool
        /// The file's size; its MD5 and pixel size when it could be read (``maxBytes`` at most).
        public let byteCount: Int?
        /// The file is larger than ``maxBytes``: its size is known, its MD5 and pixel size are not.
        public let isOversize: Bool
        public static let maxBytes = 64 << 20
        public let md5: String?
        public let imageSize: ImageSize?

        /// Why the file is not read although something has that name: it leaves the package (`../x`,
        /// an absolute path, a link to elsewhere) or is not a regular file (`/dev/zero`, a FIFO).
        /// Its size, checksum and existence then stay unknown, so nothing about it is revealed.
        public let refusal: String?

        /// A file that is not there: nothing to refuse, nothing to read.
        init(missing path: String) {
            self.path = path
            refusal = nil
            isMissing = true
            isOversize = false
            byteCount = nil
            md5 = nil
            imageSize = nil
        }

        init(path: String, package: String) {
            self.path = path
            refusal = Self.refusal(path, package: package)
            isMissing = refusal != nil || !FileSystem.exists(path) || FileSystem.isDirectory(path)
            let size = isMissing ? nil : FileSystem.fileSize(path)
            isOversize = (size ?? 0) > Self.maxBytes
            let bytes = isMissing || isOversize ? nil : try? FileSystem.readBytes(path, maxBytes: Self.maxBytes)
            byteCount = bytes?.count ?? (isOversize ? size : nil)
            md5 = bytes.map { MD5.hex($0) }
            imageSize = bytes.flatMap { ImageSize(bytes: $0) }
        }

        static func refusal(_ path: String, package: String) -> String? {
            if path.utf8.contains(0) { return "the name contains a NUL character" }
            let folder = Workspace.Confinement(root: package)
            if let reason = folder.violation(path) {
                return reason.replacingOccurrences(of: "the project folder", with: "the package folder")
            }
            return FileSystem.exists(path) ? FileSystem.notRegularFileReason(path) : nil
        }
    }

    private var files: [String: File] = [:]
    /// The last few names asked for, as bytes (most lookups hit here without making a string).
    private var recent = RecentByBytes<File>()

    public init() {}

    /// The package folder, normalized (`resolve` of a bare name is this, `/`, the name).
    private var folder: (directory: String, normalized: String)?

    /// The path of a bare name (no `/`, not `.` or `..`) in the package folder, or nil for any
    /// other name. Such a name resolves to an entry of the package folder itself, so the
    /// confinement check has nothing to find when it is missing (no link to follow, nothing
    /// outside), and that check would cost each missing name a `getcwd`, a `realpath` per parent
    /// and two path normalizations.
    private func bareNamePath(_ name: String, in directory: String) -> String? {
        guard !name.isEmpty, name != ".", name != "..", !name.utf8.contains(where: { $0 == UInt8(ascii: "/") || $0 == 0 }) else {
            return nil
        }
        let prefix: String
        if directory == "." || directory.isEmpty {
            prefix = ""
        } else if let folder, folder.directory == directory {
            prefix = folder.normalized
        } else {
            let normalized = Paths.normalize(directory) == "." ? "" : Paths.normalize(directory)
            folder = (directory, normalized)
            prefix = normalized
        }
        return prefix.isEmpty ? name : (prefix == "/" ? "/" + name : prefix + "/" + name)
    }

    /// Whether `lstat` finds nothing at `path`.
    private static func isAbsent(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) != 0 && errno == ENOENT
    }

    /// The names in the package folder, read once (nil when it cannot be read or is huge), and
    /// the ASCII ones lowercased: a name that is in neither cannot be found by `lstat` either, even
    /// on a file system that ignores case. It spares a system call per missing name, which adds
    /// up in a catalog whose every item names a missing file.
    private var listing: (directory: String, names: Set<String>, folded: Set<String>)??
    /// Names asked about before the folder is listed: listing costs work for every entry, so a
    /// catalog of a few items beside thousands of other files (a Downloads folder or /tmp)
    /// asks `lstat` instead.
    private var unlistedQuestions = 0
    private static let questionsBeforeListing = 64

    /// Whether `name` may be in `directory` (true when unsure: the caller then asks `lstat`).
    private func listed(_ name: String, in directory: String) -> Bool {
        if listing == nil || listing??.directory != directory {
            unlistedQuestions += 1
            guard unlistedQuestions > Self.questionsBeforeListing else { return true }
            listing = .some(Self.list(directory))
        }
        guard let known = listing ?? nil else { return true }
        if known.names.contains(name) { return true }
        // Only ASCII names are folded here; others (Unicode case and normalization) go to `lstat`.
        guard name.utf8.allSatisfy({ $0 < 0x80 }) else { return true }
        return known.folded.contains(name.lowercased())
    }

    private static func list(_ directory: String) -> (directory: String, names: Set<String>, folded: Set<String>)? {
        guard let folder = opendir(directory.isEmpty ? "." : directory) else { return nil }
        defer { closedir(folder) }
        var names = Set<String>(), folded = Set<String>()
        while let entry = readdir(folder) {
            let name = withUnsafePointer(to: &entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: MemoryLayout.size(ofValue: entry.pointee.d_name)) { String(cString: $0) }
            }
            names.insert(name)
            folded.insert(name.lowercased())
            if names.count > 100_000 { return nil }
        }
        return (directory, names, folded)
    }

    /// The file an element's text names, in the package folder `directory`.
    public func file(named element: XMLElementView, in directory: String) -> File {
        let hit: File? = element.withTextBytes { recent.value(for: $0) }
        if let hit { return hit }
        let name = element.text
        let bare = bareNamePath(name, in: directory)
        // A bare name the folder's listing does not hold is missing, and is not kept: a catalog
        // whose every item names another missing file filled the table for nothing.
        if let bare, !listed(name, in: directory) { return File(missing: bare) }
        let file: File
        if let known = files[name] {
            file = known
        } else {
            if let bare, Self.isAbsent(bare) {
                file = File(missing: bare)
            } else {
                file = File(path: Paths.resolve(name, relativeTo: directory), package: directory)
            }
            files[name] = file
        }
        recent.remember(name.utf8, file)
        return file
    }
}
