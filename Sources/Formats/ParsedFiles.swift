import Foundation

/// The files one run read and parsed as the kind they were read for (a plist as a plist, a
/// scheme as a scheme), by device and inode so any name that reaches one counts: the only files
/// whose lines the reports quote. A file that did not parse (`info_plist: .git/config`) is named
/// in its finding, never shown. Loaders record into the run's set; reporters ask it.
public final class ParsedFiles: @unchecked Sendable {
    private let lock = NSLock()
    private var identities: Set<FileIdentity> = []

    public init() {}

    /// Records that `path` parsed as what it was read for.
    public func note(_ path: String) {
        guard let identity = FileSystem.identity(of: path) else { return }
        lock.lock()
        defer { lock.unlock() }
        identities.insert(identity)
    }

    public func note(_ paths: [String]) {
        for path in paths { note(path) }
    }

    public func contains(_ path: String) -> Bool {
        guard let identity = FileSystem.identity(of: path) else { return false }
        lock.lock()
        defer { lock.unlock() }
        return identities.contains(identity)
    }
}
