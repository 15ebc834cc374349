import Foundation
import XMLReader

/// The few file operations iapdoctor needs. It never writes to its inputs; what it writes goes to
/// a temporary file beside the target first and is renamed into place.
public enum FileSystem {
    public struct Problem: Error, Sendable {
        public var message: String
        public var help: String
    }

    public static func readBytes(_ path: String, maxBytes: Int) throws(Problem) -> [UInt8] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw Problem(message: "cannot read `\(path)`: no such file", help: "check the path; relative paths are resolved from the current directory")
        }
        if isDirectory.boolValue {
            throw Problem(message: "cannot read `\(path)`: it is a folder, not a file", help: "name the file inside the folder")
        }
        noteRead(path)
        do {
            return try readFileBytes(path, maxBytes: maxBytes)
        } catch {
            if error.isSandboxDenial {
                throw Problem(message: "cannot read `\(path)`: \(sandboxedReason)", help: sandboxedHelp)
            }
            throw Problem(message: "cannot read `\(path)`: \(error.message)", help: unreadableHelp(error))
        }
    }

    /// Why a read answered `EPERM`. Xcode 15 and later run Run Script build phases in a sandbox
    /// (`ENABLE_USER_SCRIPT_SANDBOXING`) that only lets them read the files the phase declares.
    public static let sandboxedReason = "the build phase is sandboxed (operation not permitted)"
    public static let sandboxedHelp = "list the file in the Run Script phase's Input Files (or an input file list, .xcfilelist), "
        + "or set ENABLE_USER_SCRIPT_SANDBOXING to NO for the target; outside Xcode, macOS privacy settings "
        + "(Files and Folders, Full Disk Access) refuse reads the same way"

    /// The help for a file that could not be read.
    public static func unreadableHelp(_ error: XMLReaderError) -> String {
        error.isSandboxDenial ? sandboxedHelp : "check the file's permissions"
    }

    /// Whether `name` is one of `names`, ignoring case: Apple file systems are case-insensitive by
    /// default, so `pods` there is the `Pods` folder; comparing the same way everywhere keeps a
    /// Linux CI run and a Mac in step.
    public static func name(_ name: some StringProtocol, isIn names: Set<String>) -> Bool {
        names.contains(String(name)) || names.contains { $0.caseInsensitiveCompare(name) == .orderedSame }
    }

    public static func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

    public static func isDirectory(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// `a/b/c.yaml` → `a/b`; `c.yaml` → `.`.
    public static func directoryName(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        if slash == path.startIndex { return "/" }
        return String(path[..<slash])
    }

    /// Joins a descriptor-relative path to the descriptor's folder (absolute paths stay as they are).
    public static func resolve(_ path: String, relativeTo base: String) -> String {
        if path.hasPrefix("/") || base == "." || base.isEmpty { return normalize(path) }
        return normalize(base + "/" + path)
    }

    /// An absolute `path` inside the current folder, relative to it (`/repo/App` → `App` when run in
    /// `/repo`); anything else as it is.
    public static func displayPath(_ path: String) -> String {
        guard path.hasPrefix("/") else { return path }
        let current = normalize(FileManager.default.currentDirectoryPath)
        let normalized = normalize(path)
        if normalized == current { return "." }
        guard normalized.hasPrefix(current == "/" ? "/" : current + "/") else { return path }
        return String(normalized.dropFirst(current == "/" ? 1 : current.count + 1))
    }

    /// `path` as seen from the folder `base` (`../App/Info.plist`); relative inputs are taken from
    /// the current folder. `.` when they are the same.
    public static func relativePath(_ path: String, from base: String) -> String {
        let current = FileManager.default.currentDirectoryPath
        func absolute(_ path: String) -> [Substring] {
            normalize(path.hasPrefix("/") ? path : current + "/" + path).split(separator: "/")
        }
        let target = absolute(path), origin = absolute(base)
        var common = 0
        while common < target.count, common < origin.count, target[common] == origin[common] { common += 1 }
        let parts = Array(repeating: Substring(".."), count: origin.count - common) + target[common...]
        return parts.isEmpty ? "." : parts.joined(separator: "/")
    }

    /// Removes `.` and `dir/..` segments lexically, so messages show `a/Products.storekit`, not
    /// `a/b.xcodeproj/xcshareddata/../../Products.storekit`.
    public static func normalize(_ path: String) -> String {
        let absolute = path.hasPrefix("/")
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == "..", let last = parts.last, last != ".." {
                parts.removeLast()
                continue
            }
            if part == "..", absolute, parts.isEmpty { continue }
            parts.append(part)
        }
        let joined = parts.joined(separator: "/")
        return absolute ? "/" + joined : (joined.isEmpty ? "." : joined)
    }

    /// Every file this process has opened for reading, by device and inode (so a relative path,
    /// a symlink or a hard link to an input is recognised as that input).
    private static let ledger = ReadLedger()

    /// Records that `path` is an input of this run (readers that open files themselves call this).
    public static func noteRead(_ path: String) {
        if let identity = identity(of: path) { ledger.insert(identity) }
    }

    /// Whether `path` names a file this process has read.
    public static func wasRead(_ path: String) -> Bool {
        identity(of: path).map { ledger.contains($0) } ?? false
    }

    private static func identity(of path: String) -> FileIdentity? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        // `dev_t` is signed (Int32) on Darwin and unsigned on Linux: keep the bits, never trap.
        return FileIdentity(device: UInt64(truncatingIfNeeded: info.st_dev), inode: UInt64(truncatingIfNeeded: info.st_ino))
    }

    /// Writes `contents` atomically: a temporary file in the same folder, then a rename. Refuses a
    /// destination that is one of this run's inputs (`--output project.yaml` would replace the
    /// descriptor with its own report).
    public static func writeAtomically(_ contents: String, to path: String) throws(Problem) {
        if wasRead(path) {
            throw Problem(
                message: "refusing to write to `\(path)`: it is one of the files this run read, and iapdoctor never writes to its inputs",
                help: "give --output a new file name, e.g. iapdoctor-report.json")
        }
        let url = URL(fileURLWithPath: path)
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).\(ProcessInfo.processInfo.processIdentifier).tmp")
        do {
            try Data(contents.utf8).write(to: temporary)
            if rename(temporary.path, url.path) != 0 {
                let reason = SystemError.describe(SystemError.current)
                try? FileManager.default.removeItem(at: temporary)
                throw Problem(message: "cannot write `\(path)`: \(reason)", help: "check that the folder exists and is writable")
            }
        } catch let problem as Problem {
            throw problem
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw Problem(message: "cannot write `\(path)`: \(describeFileError(error))", help: "check that the folder exists and is writable")
        }
    }

    /// A Foundation file error in our own words: `localizedDescription` reads differently on
    /// Darwin and in swift-corelibs-foundation.
    public static func describeFileError(_ error: any Error) -> String {
        let error = error as NSError
        if error.domain == NSPOSIXErrorDomain { return SystemError.describe(Int32(error.code)) }
        if let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return SystemError.describe(Int32(underlying.code))
        }
        switch error.code {
        case NSFileNoSuchFileError: return "no such folder"
        case NSFileWriteNoPermissionError: return "permission denied"
        case NSFileWriteOutOfSpaceError: return "no space left on the device"
        case NSFileWriteVolumeReadOnlyError: return "the file system is read-only"
        default: return "write failed (\(error.domain) \(error.code))"
        }
    }
}

struct FileIdentity: Hashable {
    var device: UInt64
    var inode: UInt64
}

/// A set of file identities shared by every reader of one run.
final class ReadLedger: @unchecked Sendable {
    private let lock = NSLock()
    private var identities: Set<FileIdentity> = []

    func insert(_ identity: FileIdentity) {
        lock.lock()
        defer { lock.unlock() }
        identities.insert(identity)
    }

    func contains(_ identity: FileIdentity) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return identities.contains(identity)
    }
}
