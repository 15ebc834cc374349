import Foundation

/// One run of iapdoctor as the file system sees it: the folder its inputs must stay inside (the
/// confinement) and every input it read or was named, so that what it writes never replaces one.
///
/// A command makes one, does its work inside ``run(_:)``, and hands it to ``OutputFile``, which
/// refuses to write over its inputs. Loaders reach the running one through ``current``, a
/// task-local: two runs in one process (the tests make many) never share what they read. Work
/// moved to another thread takes the ``scope`` with it (``within(_:_:)``).
public final class Workspace: Sendable {
    /// Every input of this run: each file opened for reading, by device and inode (so a relative
    /// path, a symlink or a hard link to an input is recognised as that input), and each path the
    /// command line or the descriptor names, read or not, by its absolute path.
    private let inputs = ReadLedger()

    public init() {}

    /// What a task reads under: its run's workspace, and the folder inputs must stay inside.
    public struct Scope: Sendable {
        public var workspace: Workspace?
        public var confinement: Confinement?

        public init(workspace: Workspace? = nil, confinement: Confinement? = nil) {
            self.workspace = workspace
            self.confinement = confinement
        }
    }

    @TaskLocal public static var scope = Scope()

    /// The workspace of the run this task belongs to (`nil` outside one: reads are not recorded).
    public static var current: Workspace? { scope.workspace }

    /// The folder every path an input names must stay inside: `--root`, else the descriptor's
    /// folder. Set by ``withConfinement(root:_:)``; `nil` (outside a check) confines nothing.
    public static var confinement: Confinement? { scope.confinement }

    /// Runs `body` as this workspace's run, with the confinement it is called under.
    public func run<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        try Self.within(Scope(workspace: self, confinement: Self.confinement), body)
    }

    /// Runs `body` under `scope` (on another thread, the scope of the task that started the work).
    public static func within<T, E: Error>(_ scope: Scope, _ body: () throws(E) -> T) throws(E) -> T {
        let result: Result<T, E> = $scope.withValue(scope) {
            do throws(E) { return .success(try body()) } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// Runs `body` with every path an input names confined to `root` (nil: unconfined), in the
    /// same run.
    public static func withConfinement<T, E: Error>(root: String?, _ body: () throws(E) -> T) throws(E) -> T {
        try within(Scope(workspace: current, confinement: root.map { Confinement(root: $0) }), body)
    }

    /// Runs `body` with every path an input names confined to the build at `build` as well as to
    /// the confinement it is called under (if any): a build's files are its own, wherever it was
    /// named (the command line or the descriptor), and a link inside it that leads out is refused.
    public static func withinBuild<T, E: Error>(_ build: String, _ body: () throws(E) -> T) throws(E) -> T {
        var inner = Confinement(root: build, kind: .build)
        inner.enclosing = confinement.map { [$0] } ?? []
        return try within(Scope(workspace: current, confinement: inner), body)
    }


    // MARK: Confinement

    /// The folder every path an input names must stay inside: `--root`, else the descriptor's
    /// folder. Set for one run by ``withConfinement(root:_:)``; `nil` (the library's default)
    /// confines nothing.
    public struct Confinement: Sendable {
        /// What the root is: the project's folder, or a build whose files must stay inside it.
        public enum Kind: Sendable { case project, build }

        /// The root as given (for messages).
        public var root: String
        public var kind: Kind = .project
        /// Confinements that hold too (a build's, inside the project's).
        var enclosing: [Confinement] = []
        /// The root made absolute and normalized lexically.
        var absolute: String
        /// The root with every symbolic link resolved.
        package var real: String

        public init(root: String, kind: Kind = .project) {
            self.root = root
            self.kind = kind
            absolute = Paths.absolute(root)
            real = FileSystem.realPath(absolute) ?? absolute
        }

        /// Why `path` is not inside the root, or nil when it is.
        public func violation(_ path: String) -> String? { refusal(path)?.reason }

        /// Why `path` is not inside this root or an enclosing one, with the kind of root it leaves.
        func refusal(_ path: String) -> (reason: String, kind: Kind)? {
            if let reason = own(path) { return (reason, kind) }
            return enclosing.lazy.compactMap { $0.refusal(path) }.first
        }

        /// What the root is called in a refusal.
        var noun: String { kind == .build ? "the build" : "the project folder" }

        private func own(_ path: String) -> String? {
            let lexical = Paths.absolute(path)
            guard Paths.isInside(lexical, absolute) else {
                return "it is outside \(noun) `\(Paths.shown(root))`"
            }
            // The deepest part of the path that exists, with its links resolved, must stay inside too.
            var probe = lexical
            var rest: [String] = []
            while true {
                if let real = FileSystem.realPath(probe) {
                    let resolved = Paths.normalize(([real] + rest.reversed()).joined(separator: "/"))
                    return Paths.isInside(resolved, self.real)
                        ? nil : "it is, or is inside, a symbolic link that leads outside \(noun) `\(Paths.shown(root))`"
                }
                guard probe != "/", !probe.isEmpty else { return nil }
                rest.append(String(probe[probe.index(after: probe.lastIndex(of: "/")!)...]))
                probe = Paths.directoryName(of: probe)
            }
        }
    }

    /// Whether `path` may be opened as an input: no NUL character, and inside the confinement root
    /// (lexically and with its links resolved). Throws the finding's message and help otherwise.
    public static func checkInput(_ path: String) throws(FileSystem.Problem) {
        if path.utf8.contains(0) {
            throw FileSystem.Problem(
                message: "cannot read `\(Paths.shown(path))`: the path contains a NUL character, which no file name can hold",
                help: "remove the `\\u{0}` from the path")
        }
        if let confinement = Self.confinement, let (reason, kind) = confinement.refusal(path) {
            if kind == .build {
                throw FileSystem.Problem(
                    message: "refusing to read `\(Paths.shown(path))`: \(reason), and iapdoctor reads a build's files only from inside it",
                    help: "a link inside a build is not followed out of it: archive or export the app again, so the build holds its own files")
            }
            throw FileSystem.Problem(
                message: "refusing to read `\(Paths.shown(path))`: \(reason), and iapdoctor reads only the project's own files",
                help: "move the file into the project folder, or pass `--root` with a folder that contains both the descriptor and the file")
        }
    }

    /// Whether `path` is inside the confinement root (always, when there is none).
    public static func isConfined(_ path: String) -> Bool {
        guard !path.utf8.contains(0) else { return false }
        return Self.confinement?.violation(path) == nil
    }

    /// Records that `path` is an input of the current run (readers that open files themselves call this).
    public static func noteRead(_ path: String) { current?.noteRead(path) }

    /// Records a path an input of the current run names, read or not.
    public static func noteNamed(_ path: String) { current?.noteNamed(path) }

    /// Records that `path` is an input of this run.
    public func noteRead(_ path: String) {
        if let identity = FileSystem.identity(of: path) { inputs.insert(identity) }
        noteNamed(path)
    }

    /// Records a path an input names (read or not: a descriptor with an error is not followed, but
    /// `--output Info.plist` must still not replace the Info.plist it names).
    public func noteNamed(_ path: String) {
        guard !path.isEmpty, !path.utf8.contains(0) else { return }
        if let identity = FileSystem.identity(of: path) { inputs.insert(identity) }
        inputs.insert(path: Self.canonical(path))
    }

    /// Whether `path` names an input of this run (read, or named by the command line or the descriptor).
    public func isInput(_ path: String) -> Bool {
        if let identity = FileSystem.identity(of: path), inputs.contains(identity) { return true }
        return inputs.contains(path: Self.canonical(path))
    }

    /// The absolute path with the links of its folder resolved (the file itself may not exist).
    static func canonical(_ path: String) -> String {
        let full = Paths.absolute(path)
        let folder = Paths.directoryName(of: full)
        let name = full == "/" ? "" : String(full[full.index(after: full.lastIndex(of: "/")!)...])
        let realFolder = FileSystem.realPath(folder) ?? folder
        return Paths.normalize(realFolder + "/" + name)
    }
}

/// A set of file identities and paths, shared by every reader of one run.
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
