import Foundation
import XMLReader

/// How iapdoctor writes a file: never over one of the run's inputs, never through a link, and
/// atomically (a temporary file beside the target, renamed into place) or, for a FIFO or device,
/// in place.
public enum OutputFile {
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
    /// - one of the inputs of `workspace`'s run (read, or named by the command line or the
    ///   descriptor) is refused: `--output project.yaml` would replace the descriptor with its own
    ///   report.
    public static func writeAtomically(_ contents: String, to path: String, in workspace: Workspace?) throws(FileSystem.Problem) {
        try writeAtomically(to: path, in: workspace) { $0.write(contents) }
    }

    /// ``writeAtomically(_:to:in:)`` for a text that `produce` streams to the file (or device) in
    /// pieces, never all in memory: the report of a catalog full of findings.
    public static func writeAtomically(
        to path: String, in workspace: Workspace?, _ produce: (ReportOutput) -> Void
    ) throws(FileSystem.Problem) {
        switch try outputKind(path, in: workspace) {
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

    /// What ``writeAtomically(to:in:_:)`` would do with `path`, or the problem that refuses it;
    /// asked before long work (a pull) so that a refused output does not cost the work.
    public static func outputKind(_ path: String, in workspace: Workspace?) throws(FileSystem.Problem) -> OutputKind {
        let help = "give --output a new file name, e.g. iapdoctor-report.json"
        if path.utf8.contains(0) {
            throw FileSystem.Problem(message: "refusing to write to `\(Paths.shown(path))`: the path contains a NUL character", help: help)
        }
        if workspace?.isInput(path) == true {
            throw FileSystem.Problem(
                message: "refusing to write to `\(Paths.shown(path))`: it is one of this run's inputs, and iapdoctor never writes to its inputs",
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
            throw FileSystem.Problem(
                message: "refusing to write to `\(Paths.shown(path))`: it is a symbolic link, and iapdoctor neither writes through a link to a file nor replaces it",
                help: "remove the link, or give --output the file it points at")
        case S_IFDIR:
            throw FileSystem.Problem(message: "cannot write `\(Paths.shown(path))`: it is a folder", help: "give --output a file name inside the folder")
        case S_IFIFO, S_IFCHR:
            return .inPlace
        default:
            throw FileSystem.Problem(
                message: "refusing to write to `\(Paths.shown(path))`: it is \(describeFileType(link.st_mode)), not a regular file",
                help: help)
        }
    }

    /// `/dev/stdout`, `/dev/stderr` and `/dev/fd/N` (also `/proc/self/fd/N`): written to the open
    /// descriptor itself, so `-o /dev/stdout > file` keeps the shell's redirection as it is.
    static func standardStream(_ path: String) -> Int32? {
        let normalized = Paths.normalize(path)
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
    static func writeInPlace(_ produce: (ReportOutput) -> Void, to path: String) throws(FileSystem.Problem) {
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
                throw FileSystem.Problem(
                    message: "cannot write `\(Paths.shown(path))`: it is a FIFO that no process is reading",
                    help: "start the reader first (it has two seconds to open the FIFO), or give --output a regular file")
            }
            throw FileSystem.Problem(message: "cannot write `\(Paths.shown(path))`: \(SystemError.describe(SystemError.current))", help: "check that it can be written")
        }
        defer { close(descriptor) }
        // Written blocking, as a pipe is: the reader sets the pace.
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        try writeAll(produce, to: descriptor, path: path)
    }

    /// Runs `produce` on the open `descriptor`, and throws the first write error it met.
    static func writeAll(_ produce: (ReportOutput) -> Void, to descriptor: Int32, path: String) throws(FileSystem.Problem) {
        let output = ReportOutput(descriptor: descriptor)
        produce(output)
        if let error = output.error {
            throw FileSystem.Problem(message: "cannot write `\(Paths.shown(path))`: \(SystemError.describe(error))", help: "check that it can be written")
        }
    }

    /// A temporary file beside `path`, created exclusively under a random name, then renamed over it.
    static func replaceAtomically(_ produce: (ReportOutput) -> Void, at path: String, mode: mode_t?) throws(FileSystem.Problem) {
        let folder = Paths.directoryName(of: path)
        let name = Paths.fileName(of: path)
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
            throw FileSystem.Problem(message: "cannot write `\(Paths.shown(path))`: \(SystemError.describe(SystemError.current))", help: writable)
        }
        do throws(FileSystem.Problem) {
            if let mode { _ = fchmod(descriptor, mode) }
            try writeAll(produce, to: descriptor, path: path)
            close(descriptor)
            descriptor = -1
            if rename(temporary, path) != 0 {
                throw FileSystem.Problem(message: "cannot write `\(Paths.shown(path))`: \(SystemError.describe(SystemError.current))", help: writable)
            }
        } catch {
            if descriptor >= 0 { close(descriptor) }
            unlink(temporary)
            throw error
        }
    }

    /// Replaces the regular file `path` with `bytes`, atomically and with its mode kept: how
    /// `check --fix` edits a file it was asked to fix. A link is refused, never followed or
    /// replaced.
    public static func rewrite(_ path: String, with bytes: [UInt8]) throws(FileSystem.Problem) {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            throw FileSystem.Problem(message: "cannot write `\(Paths.shown(path))`: \(SystemError.describe(SystemError.current))", help: "check the path")
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw FileSystem.Problem(
                message: "refusing to fix `\(Paths.shown(path))`: it is \(describeFileType(info.st_mode)), not a regular file",
                help: "edit the file the link leads to by hand")
        }
        try replaceAtomically({ output in bytes.withUnsafeBufferPointer { output.write($0) } }, at: path, mode: info.st_mode & 0o7777)
    }
}
