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
        try checkInput(path)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw Problem(message: "cannot read `\(shown(path))`: no such file", help: "check the path; relative paths are resolved from the current directory")
        }
        if isDirectory.boolValue {
            throw Problem(message: "cannot read `\(shown(path))`: it is a folder, not a file", help: "name the file inside the folder")
        }
        try requireRegularFile(path)
        noteRead(path)
        do {
            return try readFileBytes(path, maxBytes: maxBytes)
        } catch {
            if error.isSandboxDenial {
                throw Problem(message: "cannot read `\(shown(path))`: \(sandboxedReason)", help: sandboxedHelp)
            }
            throw Problem(message: "cannot read `\(shown(path))`: \(error.message)", help: unreadableHelp(error))
        }
    }

    // MARK: Confinement

    /// The folder every path an input names must stay inside: `--root`, else the descriptor's
    /// folder. Set for one run by ``withConfinement(root:_:)``; `nil` (the library's default)
    /// confines nothing.
    public struct Confinement: Sendable {
        /// The root as given (for messages).
        public var root: String
        /// The root made absolute and normalized lexically.
        var absolute: String
        /// The root with every symbolic link resolved.
        package var real: String

        public init(root: String) {
            self.root = root
            absolute = FileSystem.absolute(root)
            real = FileSystem.realPath(absolute) ?? absolute
        }

        /// Why `path` is not inside the root, or nil when it is.
        public func violation(_ path: String) -> String? {
            let lexical = FileSystem.absolute(path)
            guard FileSystem.isInside(lexical, absolute) else {
                return "it is outside the project folder `\(FileSystem.shown(root))`"
            }
            // The deepest part of the path that exists, with its links resolved, must stay inside too.
            var probe = lexical
            var rest: [String] = []
            while true {
                if let real = FileSystem.realPath(probe) {
                    let resolved = FileSystem.normalize(([real] + rest.reversed()).joined(separator: "/"))
                    return FileSystem.isInside(resolved, self.real)
                        ? nil : "it is, or is inside, a symbolic link that leads outside the project folder `\(FileSystem.shown(root))`"
                }
                guard probe != "/", !probe.isEmpty else { return nil }
                rest.append(String(probe[probe.index(after: probe.lastIndex(of: "/")!)...]))
                probe = directoryName(of: probe)
            }
        }
    }

    @TaskLocal public static var confinement: Confinement?

    /// Runs `body` with every path an input names confined to `root` (nil: unconfined).
    public static func withConfinement<T, E: Error>(root: String?, _ body: () throws(E) -> T) throws(E) -> T {
        let result: Result<T, E> = $confinement.withValue(root.map(Confinement.init(root:))) {
            do throws(E) { return .success(try body()) } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// Whether `path` may be opened as an input: no NUL character, and inside the confinement root
    /// (lexically and with its links resolved). Throws the finding's message and help otherwise.
    public static func checkInput(_ path: String) throws(Problem) {
        if path.utf8.contains(0) {
            throw Problem(
                message: "cannot read `\(shown(path))`: the path contains a NUL character, which no file name can hold",
                help: "remove the `\\u{0}` from the path")
        }
        if let confinement, let reason = confinement.violation(path) {
            throw Problem(
                message: "refusing to read `\(shown(path))`: \(reason), and iapdoctor reads only the project's own files",
                help: "move the file into the project folder, or pass `--root` with a folder that contains both the descriptor and the file")
        }
    }

    /// Whether `path` is inside the confinement root (always, when there is none).
    public static func isConfined(_ path: String) -> Bool {
        guard !path.utf8.contains(0) else { return false }
        return confinement?.violation(path) == nil
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
                message: "cannot read `\(shown(path))`: it is \(describeFileType(info.st_mode)), not a regular file",
                help: "name a regular file; iapdoctor does not read pipes or devices")
        }
    }


    /// `path` made absolute from the current folder and normalized lexically.
    static func absolute(_ path: String) -> String {
        normalize(path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path)
    }

    static func realPath(_ path: String) -> String? {
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
        var current = absolute(folder)
        for _ in 0..<256 {
            if exists(current == "/" ? "/.git" : current + "/.git") { return true }
            guard current != "/" else { return false }
            current = directoryName(of: current)
        }
        return false
    }

    /// Whether `path` is `folder` or inside it (both as given; compared as absolute paths).
    public static func isWithin(_ path: String, _ folder: String) -> Bool {
        isInside(absolute(path), absolute(folder))
    }

    /// Whether the absolute, normalized `path` is `folder` or inside it.
    static func isInside(_ path: String, _ folder: String) -> Bool {
        folder == "/" || path == folder || path.hasPrefix(folder + "/")
    }

    /// A path as messages show it: control characters escaped (see ``Escaping``).
    public static func shown(_ path: String) -> String { Escaping.controlCharacters(path) }

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

    /// Whether `path` itself is a symbolic link (not followed).
    public static func isSymbolicLink(_ path: String) -> Bool {
        var info = stat()
        return !path.utf8.contains(0) && lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK
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
        let normalized = normalize(path)
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

    /// The deepest folder that holds both `a` and `b` (relative when both are inside the current folder).
    public static func commonAncestor(_ a: String, _ b: String) -> String {
        let first = absolute(a).split(separator: "/"), second = absolute(b).split(separator: "/")
        var common = 0
        while common < first.count, common < second.count, first[common] == second[common] { common += 1 }
        return displayPath("/" + first[..<common].joined(separator: "/"))
    }

    /// Removes `.` and `dir/..` segments lexically, so messages show `a/Products.storekit`, not
    /// `a/b.xcodeproj/xcshareddata/../../Products.storekit`.
    public static func normalize(_ path: String) -> String {
        let absolute = path.utf8.first == UInt8(ascii: "/")
        var parts: [Substring] = []
        // Split on the byte `/`, as the file system does (and without Character breaking, which
        // would be most of the cost of a missing screenshot file).
        for bytes in path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true) {
            let part = Substring(bytes)
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

    /// Every input of this run: each file opened for reading, by device and inode (so a relative
    /// path, a symlink or a hard link to an input is recognised as that input), and each path the
    /// command line or the descriptor names, read or not, by its absolute path.
    private static let ledger = ReadLedger()

    /// Records that `path` is an input of this run (readers that open files themselves call this).
    public static func noteRead(_ path: String) {
        if let identity = identity(of: path) { ledger.insert(identity) }
        noteNamed(path)
    }

    /// Records a path an input names (read or not: a descriptor with an error is not followed, but
    /// `--output Info.plist` must still not replace the Info.plist it names).
    public static func noteNamed(_ path: String) {
        guard !path.isEmpty, !path.utf8.contains(0) else { return }
        if let identity = identity(of: path) { ledger.insert(identity) }
        ledger.insert(path: canonical(path))
    }

    /// Whether `path` names an input of this run (read, or named by the command line or the descriptor).
    public static func wasRead(_ path: String) -> Bool {
        if let identity = identity(of: path), ledger.contains(identity) { return true }
        return ledger.contains(path: canonical(path))
    }

    /// The absolute path with the links of its folder resolved (the file itself may not exist).
    static func canonical(_ path: String) -> String {
        let full = absolute(path)
        let folder = directoryName(of: full)
        let name = full == "/" ? "" : String(full[full.index(after: full.lastIndex(of: "/")!)...])
        let realFolder = realPath(folder) ?? folder
        return normalize(realFolder + "/" + name)
    }

    package static func identity(of path: String) -> FileIdentity? {
        var info = stat()
        guard !path.utf8.contains(0), stat(path, &info) == 0 else { return nil }
        // `dev_t` is signed (Int32) on Darwin and unsigned on Linux: keep the bits, never trap.
        return FileIdentity(device: UInt64(truncatingIfNeeded: info.st_dev), inode: UInt64(truncatingIfNeeded: info.st_ino))
    }

    /// Writes `contents` to `path` without ever replacing something that is not a regular file:
    ///
    /// - a regular file (or nothing yet) is replaced atomically: the text goes to a temporary file
    ///   beside it, created exclusively (`O_EXCL`, `O_NOFOLLOW`) under an unpredictable name, which
    ///   is then renamed over the target;
    /// - a FIFO, a device (`/dev/null`) or `/dev/stdout` is opened and written, never replaced;
    /// - a symbolic link is refused unless it leads to a FIFO or a device (`/dev/stdout` is a link
    ///   on Linux): a checkout can plant `report.sarif -> ~/.bashrc`, and writing through the link
    ///   would overwrite any file the job may write, while replacing the link would surprise the
    ///   one who made it;
    /// - one of this run's inputs (read, or named by the command line or the descriptor) is
    ///   refused: `--output project.yaml` would replace the descriptor with its own report.
    public static func writeAtomically(_ contents: String, to path: String) throws(Problem) {
        try writeAtomically(to: path) { $0.write(contents) }
    }

    /// ``writeAtomically(_:to:)`` for a text that `produce` streams to the file (or device) in
    /// pieces, never all in memory: the report of a catalog full of findings.
    public static func writeAtomically(to path: String, _ produce: (ReportOutput) -> Void) throws(Problem) {
        switch try outputKind(path) {
        case .stream(let descriptor):
            try writeAll(produce, to: descriptor, path: path)
        case .inPlace:
            try writeInPlace(produce, to: path)
        case .replace(let mode):
            try replaceAtomically(produce, at: path, mode: mode)
        }
    }

    /// How an output path is written: to an open standard stream, in place (a FIFO or device), or
    /// replaced atomically (a regular file, with its mode, or nothing yet).
    public enum OutputKind: Sendable {
        case stream(Int32)
        case inPlace
        case replace(mode: mode_t?)
    }

    /// What ``writeAtomically(to:_:)`` would do with `path`, or the problem that refuses it; asked
    /// before long work (a pull) so that a refused output does not cost the work.
    public static func outputKind(_ path: String) throws(Problem) -> OutputKind {
        let help = "give --output a new file name, e.g. iapdoctor-report.json"
        if path.utf8.contains(0) {
            throw Problem(message: "refusing to write to `\(shown(path))`: the path contains a NUL character", help: help)
        }
        if wasRead(path) {
            throw Problem(
                message: "refusing to write to `\(shown(path))`: it is one of this run's inputs, and iapdoctor never writes to its inputs",
                help: help)
        }
        if let descriptor = standardStream(path) { return .stream(descriptor) }
        var link = stat()
        guard lstat(path, &link) == 0 else { return .replace(mode: nil) }
        var target = stat()
        let followed = stat(path, &target) == 0
        switch link.st_mode & S_IFMT {
        case S_IFREG:
            return .replace(mode: link.st_mode & 0o777)
        case S_IFLNK where followed && [S_IFIFO, S_IFCHR].contains(target.st_mode & S_IFMT):
            return .inPlace
        case S_IFLNK:
            throw Problem(
                message: "refusing to write to `\(shown(path))`: it is a symbolic link, and iapdoctor neither writes through a link to a file nor replaces it",
                help: "remove the link, or give --output the file it points at")
        case S_IFDIR:
            throw Problem(message: "cannot write `\(shown(path))`: it is a folder", help: "give --output a file name inside the folder")
        case S_IFIFO, S_IFCHR:
            return .inPlace
        default:
            throw Problem(
                message: "refusing to write to `\(shown(path))`: it is \(describeFileType(link.st_mode)), not a regular file",
                help: help)
        }
    }

    /// `/dev/stdout`, `/dev/stderr` and `/dev/fd/N` (also `/proc/self/fd/N`): written to the open
    /// descriptor itself, so `-o /dev/stdout > file` keeps the shell's redirection as it is.
    static func standardStream(_ path: String) -> Int32? {
        let normalized = normalize(path)
        switch normalized {
        case "/dev/stdout": return 1
        case "/dev/stderr": return 2
        default:
            for prefix in ["/dev/fd/", "/proc/self/fd/"] where normalized.hasPrefix(prefix) {
                if let number = Int32(normalized.dropFirst(prefix.count)), number >= 0, fcntl(number, F_GETFD) != -1 { return number }
            }
            return nil
        }
    }

    /// Opens an existing FIFO or device for writing (never creating or replacing it) and writes.
    static func writeInPlace(_ produce: (ReportOutput) -> Void, to path: String) throws(Problem) {
        // Opened without blocking: a FIFO nobody reads would otherwise hold the run forever. A
        // reader gets two seconds to open it (a shell's `<(…)` or `tail -f` usually has already).
        var descriptor: Int32 = -1
        for attempt in 0..<40 {
            descriptor = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC | O_NONBLOCK)
            guard descriptor < 0, SystemError.current == ENXIO, attempt < 39 else { break }
            usleep(50_000)
        }
        guard descriptor >= 0 else {
            if SystemError.current == ENXIO {
                throw Problem(
                    message: "cannot write `\(shown(path))`: it is a FIFO that no process is reading",
                    help: "start the reader first (it has two seconds to open the FIFO), or give --output a regular file")
            }
            throw Problem(message: "cannot write `\(shown(path))`: \(SystemError.describe(SystemError.current))", help: "check that it can be written")
        }
        defer { close(descriptor) }
        // Written blocking, as a pipe is: the reader sets the pace.
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        try writeAll(produce, to: descriptor, path: path)
    }

    /// Runs `produce` on the open `descriptor`, and throws the first write error it met.
    static func writeAll(_ produce: (ReportOutput) -> Void, to descriptor: Int32, path: String) throws(Problem) {
        let output = ReportOutput(descriptor: descriptor)
        produce(output)
        if let error = output.error {
            throw Problem(message: "cannot write `\(shown(path))`: \(SystemError.describe(error))", help: "check that it can be written")
        }
    }

    /// A temporary file beside `path`, created exclusively under a random name, then renamed over it.
    static func replaceAtomically(_ produce: (ReportOutput) -> Void, at path: String, mode: mode_t?) throws(Problem) {
        let folder = directoryName(of: path)
        let name = path.split(separator: "/").last.map(String.init) ?? path
        let writable = "check that the folder exists and is writable"
        var temporary = ""
        var descriptor: Int32 = -1
        for _ in 0..<16 {
            var random = SystemRandomNumberGenerator()
            let suffix = String(random.next(), radix: 16) + String(random.next(), radix: 16)
            temporary = (folder == "." ? "" : folder + "/") + ".\(name.prefix(64)).\(suffix).tmp"
            descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o666)
            if descriptor >= 0 || SystemError.current != EEXIST { break }
        }
        guard descriptor >= 0 else {
            throw Problem(message: "cannot write `\(shown(path))`: \(SystemError.describe(SystemError.current))", help: writable)
        }
        do throws(Problem) {
            if let mode { _ = fchmod(descriptor, mode) }
            try writeAll(produce, to: descriptor, path: path)
            close(descriptor)
            descriptor = -1
            if rename(temporary, path) != 0 {
                throw Problem(message: "cannot write `\(shown(path))`: \(SystemError.describe(SystemError.current))", help: writable)
            }
        } catch {
            if descriptor >= 0 { close(descriptor) }
            unlink(temporary)
            throw error
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

package struct FileIdentity: Hashable {
    var device: UInt64
    var inode: UInt64
}

/// A set of file identities shared by every reader of one run.
final class ReadLedger: @unchecked Sendable {
    private let lock = NSLock()
    private var identities: Set<FileIdentity> = []
    private var paths: Set<String> = []

    func insert(path: String) {
        lock.lock()
        defer { lock.unlock() }
        paths.insert(path)
    }

    func contains(path: String) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return paths.contains(path)
    }

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
