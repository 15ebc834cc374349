import Foundation
import XMLReader

/// The few questions iapdoctor asks the file system, and its one way to read a file: through the
/// run's ``Workspace`` (confinement, and the record of what was read). Path arithmetic is
/// ``Paths``; writing is ``OutputFile``.
public enum FileSystem {
    public struct Problem: Error, Sendable {
        public var message: String
        public var help: String
    }

    public static func readBytes(_ path: String, maxBytes: Int) throws(Problem) -> [UInt8] {
        try Workspace.checkInput(path)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw Problem(message: "cannot read `\(Paths.shown(path))`: no such file", help: "check the path; relative paths are resolved from the current directory")
        }
        if isDirectory.boolValue {
            throw Problem(message: "cannot read `\(Paths.shown(path))`: it is a folder, not a file", help: "name the file inside the folder")
        }
        try requireRegularFile(path)
        Workspace.noteRead(path)
        do {
            return try readFileBytes(path, maxBytes: maxBytes)
        } catch {
            if error.isSandboxDenial {
                throw Problem(message: "cannot read `\(Paths.shown(path))`: \(sandboxedReason)", help: sandboxedHelp)
            }
            throw Problem(message: "cannot read `\(Paths.shown(path))`: \(error.message)", help: unreadableHelp(error))
        }
    }

    /// Refuses anything but a regular file (a FIFO, a device such as `/dev/stdin` or `/dev/zero`,
    /// a socket) before it is opened: opening a FIFO waits forever for a writer.
    /// `it is a named pipe (FIFO), not a regular file` for anything but a regular file (following links).
    public static func notRegularFileReason(_ path: String) -> String? {
        var info = stat()
        guard !path.utf8.contains(0), stat(path, &info) == 0, info.st_mode & S_IFMT != S_IFREG else { return nil }
        return "it is \(describeFileType(info.st_mode)), not a regular file"
    }

    public static func requireRegularFile(_ path: String) throws(Problem) {
        var info = stat()
        guard stat(path, &info) == 0 else { return }
        if info.st_mode & S_IFMT != S_IFREG {
            throw Problem(
                message: "cannot read `\(Paths.shown(path))`: it is \(describeFileType(info.st_mode)), not a regular file",
                help: "name a regular file; iapdoctor does not read pipes or devices")
        }
    }

    package static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The size of the file at `path` in bytes, or nil when it cannot be looked at.
    public static func fileSize(_ path: String) -> Int? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Int(truncatingIfNeeded: info.st_size)
    }

    /// Whether `folder` (as given) is in a git work tree: it or a folder above it holds `.git`.
    public static func isInsideGitWorkTree(_ folder: String) -> Bool {
        var current = Paths.absolute(folder)
        for _ in 0..<256 {
            if exists(current == "/" ? "/.git" : current + "/.git") { return true }
            guard current != "/" else { return false }
            current = Paths.directoryName(of: current)
        }
        return false
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

    /// Whether `path` itself is a symbolic link (not followed).
    public static func isSymbolicLink(_ path: String) -> Bool {
        var info = stat()
        return !path.utf8.contains(0) && lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK
    }

    /// Whether the file at `path` is one its owner may not write (no `u+w`), or that this process
    /// may not write: a file someone protected, which a tool that fixes files leaves alone even
    /// when it runs as root.
    public static func isReadOnly(_ path: String) -> Bool {
        var info = stat()
        guard !path.utf8.contains(0), stat(path, &info) == 0 else { return false }
        return info.st_mode & S_IWUSR == 0 || access(path, W_OK) != 0
    }

    public static func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

    public static func isDirectory(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// The file `path` names on a case-insensitive file system (macOS's default), when `path`
    /// itself is not there: each missing component matched, ignoring case, against the one entry
    /// of its folder that equals it so (`Shared.release.xcconfig` → `Shared.Release.xcconfig`).
    /// `nil` when `path` exists, or no entry or more than one matches. Folders are listed, never
    /// entered beyond the path's own.
    public static func caseInsensitiveMatch(_ path: String) -> String? {
        guard !path.utf8.contains(0), !exists(path) else { return nil }
        let normalized = Paths.normalize(path)
        let parts = normalized.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        var current = normalized.hasPrefix("/") ? "/" : "."
        var changed = false
        for part in parts {
            let joined = current == "/" ? "/" + part : (current == "." ? part : current + "/" + part)
            if part == ".." || exists(joined) {
                current = joined
                continue
            }
            let lower = part.lowercased()
            guard let entries = try? FileManager.default.contentsOfDirectory(atPath: current) else { return nil }
            let matches = entries.filter { $0.lowercased() == lower }
            guard matches.count == 1 else { return nil }
            current = current == "/" ? "/" + matches[0] : (current == "." ? matches[0] : current + "/" + matches[0])
            changed = true
        }
        return changed && exists(current) ? current : nil
    }

    package static func identity(of path: String) -> FileIdentity? {
        var info = stat()
        guard !path.utf8.contains(0), stat(path, &info) == 0 else { return nil }
        // `dev_t` is signed (Int32) on Darwin and unsigned on Linux: keep the bits, never trap.
        return FileIdentity(device: UInt64(truncatingIfNeeded: info.st_dev), inode: UInt64(truncatingIfNeeded: info.st_ino))
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


package struct FileIdentity: Hashable {
    var device: UInt64
    var inode: UInt64
}
