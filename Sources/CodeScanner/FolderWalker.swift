import Foundation

/// The one walk over a folder tree, shared by the source scan (`SourceScanner.SourceFinder`) and
/// `iapdoctor init` (`ProjectSurvey`), so both skip the same folders and treat links the same way.
///
/// Entries come sorted by name, depth first (the scan) or breadth first (the survey, whose bound
/// then keeps the shallow files, where a project's own lists and settings are). The walker decides
/// nothing about what an entry is for: it hands every entry to the caller, which says whether a
/// folder is entered. Symbolic links are followed to what they name, each real folder is entered
/// once (a link back to an ancestor cannot loop, a folder reached twice is not walked twice), and
/// with a `root` a link that leads outside it is reported, not followed.
public struct FolderWalker {
    /// Folders that hold no code or settings of the app itself, skipped by both walks. Lower case
    /// and compared ignoring case: macOS file systems are case-insensitive (`pods` is `Pods` there).
    public static let skippedFolderNames: Set<String> = [
        // Build products: SwiftPM's, Xcode's legacy `build` folder, Xcode's DerivedData.
        ".build", "build", "deriveddata",
        // Dependencies: CocoaPods, Carthage, npm (React Native, Capacitor).
        "pods", "carthage", "node_modules",
        // Dart's and Flutter's tool caches (packages, generated code of dependencies).
        ".dart_tool", ".pub-cache", ".symlinks",
        // Built web bundles and Expo's cache: minified copies of the app's own code.
        "dist", "web-build", ".expo", ".next",
        // Version control.
        ".git",
        // SwiftPM's and Xcode's per-machine metadata (package workspace settings, user schemes and
        // breakpoints): settings files, never sources or the app's lists.
        ".swiftpm", "xcuserdata",
    ]
    /// Test folders, compared ignoring case, and Xcode's test targets' folders (`AppTests`,
    /// `AppUITests`): their code is not what the app asks the store for, so the source scan does
    /// not read them inside a folder it walks (a test file named as a source is still read).
    public static let testFolderNames: Set<String> = [
        "__tests__", "__mocks__", "test", "tests", "spec", "specs", "e2e", "integration_test", "test_driver",
    ]

    public static func isTestFolder(_ name: String) -> Bool {
        testFolderNames.contains(name.lowercased()) || name.hasSuffix("Tests")
    }

    /// `Store.test.ts`, `store.spec.js`, `store_test.dart`, `StoreTests.swift`.
    public static func isTestFile(_ name: String) -> Bool {
        name.contains(".test.") || name.contains(".spec.") || name.hasSuffix("_test.dart") || name.hasSuffix("Tests.swift") || name.hasSuffix("Tests.m")
    }

    /// Xcode's project bundles (`.xcodeproj`, `.xcworkspace`): settings and schemes, no code. The scan
    /// skips them; the survey lists them as projects instead of entering them.
    public static let projectBundleExtensions: Set<String> = ["xcodeproj", "xcworkspace"]
    /// Built bundles vendored into a repository (a binary framework, its headers and resources,
    /// an asset catalog): none holds code the app's requests are written in.
    public static let builtBundleExtensions: Set<String> = ["framework", "xcframework", "bundle", "xcassets", "app", "appex", "dsym"]

    public enum Order: Sendable { case depthFirst, breadthFirst }

    public struct Entry: Sendable {
        public enum Kind: Sendable {
            case folder, regularFile
            /// A pipe, socket or device: never to be opened (a FIFO would block).
            case other
        }
        /// The walked folder's path joined with the names below it.
        public var path: String
        /// The same, relative to the walked folder.
        public var relativePath: String
        public var name: String
        /// What the entry is, a symbolic link followed.
        public var kind: Kind
        public var isLink: Bool
        /// The size in bytes (of what a link names).
        public var size: Int
        /// The device and inode of what it names: a file reached by several names (hard links,
        /// links) is one file.
        public var identity: FileIdentity = FileIdentity(device: 0, inode: 0)
    }

    public struct FileIdentity: Hashable, Sendable {
        public var device: UInt64
        public var inode: UInt64
    }

    /// What kept an entry out of the walk.
    public enum Problem: Sendable {
        /// A folder whose contents could not be listed.
        case cannotList(path: String)
        /// `lstat` failed on an entry its folder listed.
        case cannotLookAt(path: String)
        case brokenLink(path: String)
        /// A symbolic link that leads outside `root` (not followed).
        case linkLeavesRoot(Entry)
        /// A folder that is one of its own ancestors through a symbolic link.
        case linkLoop(path: String, realPath: String)
    }

    /// The folder the walk may not leave, its links resolved; nil walks wherever links lead.
    public var root: String?
    public var order: Order
    /// After this many entries have been listed no further folder is opened (every entry already
    /// listed is still handed over); nil lists everything.
    public var maxEntries: Int?
    /// Real paths of the folders entered so far, across walks.
    public private(set) var visitedFolders: Set<String> = []
    private var listed = 0

    public init(root: String? = nil, order: Order = .depthFirst, maxEntries: Int? = nil) {
        self.root = root
        self.order = order
        self.maxEntries = maxEntries
    }

    /// Walks `folder`, unless it was walked already: `visit` gets every entry below it and returns
    /// whether a folder is entered (files' answers are ignored); `problem` gets what was left out.
    public mutating func walk(folder: String, problem: (Problem) -> Void, visit: (Entry) -> Bool) {
        let real = Self.realPath(folder)
        guard visitedFolders.insert(real).inserted else { return }
        // Entries listed but not yet looked at, each with the real paths of the folders above it: a
        // stack (in reverse, so the first name comes out first) or a queue. An entry is looked at
        // when it comes out, so depth first its problems come in walk order.
        var pending: [(path: String, relative: String, name: String, ancestors: [String])] = []
        var next = 0
        func list(_ path: String, relative: String, ancestors: [String]) {
            if let maxEntries, listed >= maxEntries { return }
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: path).sorted() else {
                problem(.cannotList(path: path))
                return
            }
            listed += names.count
            let children = names.map { name in
                (path == "." ? name : (path == "/" ? "/" + name : path + "/" + name), relative.isEmpty ? name : relative + "/" + name,
                 name, ancestors)
            }
            switch order {
            case .depthFirst: pending.append(contentsOf: children.reversed())
            case .breadthFirst: pending.append(contentsOf: children)
            }
        }
        list(folder, relative: "", ancestors: [real])
        while true {
            let item: (path: String, relative: String, name: String, ancestors: [String])
            switch order {
            case .depthFirst:
                guard let last = pending.popLast() else { return }
                item = last
            case .breadthFirst:
                guard next < pending.count else { return }
                item = pending[next]
                next += 1
            }
            guard let entry = look(at: item.path, relative: item.relative, name: item.name, problem: problem),
                  visit(entry), entry.kind == .folder else { continue }
            let real = Self.realPath(entry.path)
            if item.ancestors.contains(real) {
                problem(.linkLoop(path: entry.path, realPath: real))
                continue
            }
            // Already walked through another link: walking it twice would list every file twice.
            guard visitedFolders.insert(real).inserted else { continue }
            list(entry.path, relative: entry.relativePath, ancestors: item.ancestors + [real])
        }
    }

    /// The entry at `path` with its link followed, or nil (and the problem) when there is none to walk.
    private func look(at path: String, relative: String, name: String, problem: (Problem) -> Void) -> Entry? {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            problem(.cannotLookAt(path: path))
            return nil
        }
        let isLink = info.st_mode & S_IFMT == S_IFLNK
        if isLink, stat(path, &info) != 0 {
            problem(.brokenLink(path: path))
            return nil
        }
        var entry = Entry(path: path, relativePath: relative, name: name, kind: Self.kind(info.st_mode), isLink: isLink, size: Int(info.st_size))
        entry.identity = FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
        if isLink, !isInsideRoot(Self.realPath(path)) {
            problem(.linkLeavesRoot(entry))
            return nil
        }
        return entry
    }

    public static func kind(_ mode: mode_t) -> Entry.Kind {
        switch mode & S_IFMT {
        case S_IFDIR: return .folder
        case S_IFREG: return .regularFile
        default: return .other
        }
    }

    public func isInsideRoot(_ real: String) -> Bool {
        guard let root else { return true }
        return root == "/" || real == root || real.hasPrefix(root + "/")
    }

    /// `path` with every link resolved, or as given when it cannot be.
    public static func realPath(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
