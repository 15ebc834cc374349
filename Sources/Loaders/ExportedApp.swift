import Foundation
import Formats
import Model
import ZIPReader

/// An exported `.ipa`: a ZIP whose `Payload/NAME.app/` is the app bundle. Read in place
/// (`ZIPArchive`), never extracted: only the Info.plist, the embedded profile, the bundled lists
/// and the executable's code signature are inflated, each within a budget, and the archive's
/// names are only compared, never used as paths.
enum ExportedApp {
    /// Bounds that keep a hostile archive from costing more than a real one.
    static let maxEntries = 200_000
    static let maxSmallEntryBytes = 4 << 20
    static let maxExecutableBytes: UInt64 = 2 << 30
    /// Inflated bytes per stored byte beyond which an entry is a bomb, not an app.
    static let maxRatio: UInt64 = 200

    struct Problem: Error {
        var message: String
        var help: String
    }

    static func load(path: String, listNames: Set<String> = []) throws(InputProblem) -> BuiltApp {
        do throws(FileSystem.Problem) {
            try Workspace.checkInput(path)
            try FileSystem.requireRegularFile(path)
        } catch {
            throw InputProblem.unreadable(error, at: SourceLocation(file: path))
        }
        guard FileSystem.exists(path) else {
            throw InputProblem(Finding(
                rule: RuleID.inputUnreadable.rawValue, severity: .error, checklist: nil,
                message: "cannot read `\(Paths.shown(path))`: no such file",
                help: "name the .ipa that Xcode's Organizer or `xcodebuild -exportArchive` wrote", location: SourceLocation(file: path)))
        }
        Workspace.noteRead(path)
        do {
            return try read(path, listNames: listNames)
        } catch let problem as Problem {
            throw InputProblem(Finding(
                rule: RuleID.inputMalformed.rawValue, severity: .error, checklist: nil, message: problem.message, help: problem.help,
                location: SourceLocation(file: path)))
        } catch let problem as InputProblem {
            throw problem
        } catch {
            throw InputProblem(Finding(
                rule: RuleID.inputMalformed.rawValue, severity: .error, checklist: nil,
                message: "`\(Paths.shown(path))` is not a readable .ipa (a ZIP archive): \(error)",
                help: "export the app again from the archive (Organizer → Distribute App), or check the file was copied whole",
                location: SourceLocation(file: path)))
        }
    }

    private static func read(_ path: String, listNames: Set<String>) throws -> BuiltApp {
        guard let file = ZIPArchive.File(path: path) else {
            throw Problem(message: "cannot read `\(Paths.shown(path))`", help: "check that the file exists and can be read")
        }
        let archive: ZIPArchive
        do {
            archive = try ZIPArchive(file)
        } catch {
            throw Problem(
                message: "`\(Paths.shown(path))` is not a ZIP archive, or a damaged one (\(error.reason)); an .ipa is one",
                help: "export the app again from the archive (Organizer → Distribute App), or check the file was copied whole")
        }
        guard archive.statedEntryCount <= UInt64(maxEntries) else {
            throw Problem(message: "`\(Paths.shown(path))` holds more than \(maxEntries) entries, more than any app", help: "export the app again")
        }
        // The app: the one `Payload/NAME.app/Info.plist`.
        var entries: [String: ZIPArchive.Entry] = [:]
        var storeKitFiles: [String] = []
        var lists: [ZIPArchive.Entry] = []
        var nested: [String] = []
        var apps: [String] = []
        var count = 0
        do {
            try archive.forEachEntry { entry in
                count += 1
                guard count <= maxEntries else {
                    throw Problem(message: "`\(Paths.shown(path))` holds more than \(maxEntries) entries, more than any app", help: "export the app again")
                }
                let name = entry.name
                // Names are compared, never joined onto a folder: `..` and absolute names are refused.
                guard !name.hasPrefix("/"), !name.split(separator: "/").contains("..") else {
                    throw Problem(
                        message: "`\(Paths.shown(path))` holds an entry named `\(Escaping.controlCharacters(name))`, which points outside the archive",
                        help: "do not trust this file; export the app again from its archive")
                }
                let parts = name.split(separator: "/", omittingEmptySubsequences: false)
                if parts.count == 3, parts[0] == "Payload", parts[1].hasSuffix(".app"), parts[2] == "Info.plist" { apps.append(String(parts[1])) }
                if parts.count == 4, parts[0] != "__MACOSX", parts[1] == "Payload", parts[2].hasSuffix(".app"), parts[3] == "Info.plist" {
                    nested.append(parts[0...2].joined(separator: "/"))
                }
                if parts.count == 3, parts[0] == "Payload", parts[1].hasSuffix(".app") { entries[name] = entry }
                if parts.count > 2, parts[0] == "Payload", name.lowercased().hasSuffix(".storekit"), entry.kind == .file { storeKitFiles.append(name) }
                if parts.count > 2, parts[0] == "Payload", entry.kind == .file, let last = parts.last, listNames.contains(last.lowercased()) { lists.append(entry) }
            }
        } catch let problem as ZIPArchive.Problem {
            throw Problem(
                message: "`\(Paths.shown(path))` is a damaged ZIP archive: \(problem.reason)",
                help: "export the app again from the archive (Organizer → Distribute App), or check the file was copied whole")
        }
        if apps.isEmpty, let app = nested.sorted().first {
            // Zipped from the folder that holds `Payload` (Finder's Compress on that folder).
            let folder = String(app.prefix { $0 != "/" })
            throw Problem(
                message: "`\(Paths.shown(path))` holds its app one folder down, at `\(Escaping.controlCharacters(app))`; an .ipa has `Payload/` at its top, or devices and App Store Connect refuse it",
                help: "export the app again (Organizer → Distribute App), or zip `Payload` itself: `cd '\(Escaping.controlCharacters(folder))' && zip -qry ../App.ipa Payload`")
        }
        guard apps.count == 1, let app = apps.first else {
            throw Problem(
                message: apps.isEmpty
                    ? "`\(Paths.shown(path))` holds no app: no `Payload/NAME.app/Info.plist`"
                    : "`\(Paths.shown(path))` holds \(apps.count) apps in `Payload/`; an exported .ipa holds one",
                help: "export the app again from its archive (Organizer → Distribute App)")
        }
        let prefix = "Payload/\(app)/"
        let shown = path + "/" + prefix
        func small(_ name: String) throws -> [UInt8]? {
            guard let entry = entries[prefix + name] else { return nil }
            return try inflate(entry, in: archive, limit: maxSmallEntryBytes, shownAs: shown + name)
        }
        guard let infoBytes = try small("Info.plist") else { throw Problem(message: "no Info.plist in `\(prefix)`", help: "export the app again") }
        let plist = try PropertyList.parse(bytes: infoBytes, file: shown + "Info.plist", what: "built app's Info.plist")
        var built = BuiltApp(path: path, kind: .ipa, appBundle: shown.hasSuffix("/") ? String(shown.dropLast()) : shown, infoPlist: shown + "Info.plist")
        built.read(plist, macOS: false)
        if let profileBytes = try small("embedded.mobileprovision") {
            built.profile = try ProvisioningProfile.parse(bytes: profileBytes, path: shown + "embedded.mobileprovision")
        }
        if let executable = plist["CFBundleExecutable"]?.string, !executable.isEmpty, !executable.contains("/"),
           let entry = entries[prefix + executable] {
            guard entry.kind != .symbolicLink else {
                throw Problem(message: BuiltApp.linkedExecutable(shown + executable), help: BuiltApp.linkedExecutableHelp)
            }
            if entry.kind == .file { built.signature = try signature(of: entry, in: archive, shownAs: shown + executable).signature }
        }
        built.bundledStoreKitFiles = storeKitFiles.filter { $0.hasPrefix(prefix) }.map { path + "/" + $0 }.sorted()
        for entry in lists.sorted(by: { $0.name < $1.name }) where entry.name.hasPrefix(prefix) {
            let file = path + "/" + entry.name
            guard let bytes = try inflate(entry, in: archive, limit: maxSmallEntryBytes, shownAs: file) else { continue }
            do throws(InputProblem) {
                built.addList(try ProductIDList.parse(bytes: bytes, file: file), file: file)
            } catch {
                built.problems.append(error.finding)
            }
        }
        return built
    }

    /// An entry's bytes, refused past `limit` or the bomb ratio, counted as they inflate against
    /// the stored bytes inflation has consumed (the sizes an entry states are not trusted), and
    /// refused when damaged (cut short, or a CRC-32 that differs). A link is not followed: it has
    /// no bytes here. With `keep`, each piece goes there with its offset and nothing is held.
    static func inflate(_ entry: ZIPArchive.Entry, in archive: ZIPArchive, limit: Int, shownAs name: String, keep: ((Int, [UInt8]) -> Void)? = nil) throws -> [UInt8]? {
        guard entry.kind == .file else { return nil }
        guard !entry.isEncrypted else {
            throw Problem(message: "`\(Paths.shown(name))` is encrypted; an exported .ipa holds no encrypted entries", help: "export the app again from its archive")
        }
        var bytes: [UInt8] = []
        var total = 0
        do {
            try archive.inflate(entry) { piece, consumed in
                total += piece.count
                if keep == nil, total > limit {
                    throw Problem(message: "`\(Paths.shown(name))` inflates past \(limit) bytes, more than such a file holds", help: "do not trust this file; export the app again")
                }
                let ratioLimit = max(UInt64(1 << 20), UInt64(consumed).multipliedReportingOverflow(by: maxRatio).partialValue)
                if UInt64(total) > ratioLimit || UInt64(total) > maxExecutableBytes {
                    throw Problem(
                        message: "`\(Paths.shown(name))` inflates to more than \(maxRatio) times its stored size: a ZIP bomb, not an app",
                        help: "do not trust this file; export the app again")
                }
                if let keep { keep(total - piece.count, piece) } else { bytes += piece }
            }
        } catch let problem as ZIPArchive.Problem {
            throw Problem(
                message: "`\(Paths.shown(name))` is damaged: \(problem.reason)",
                help: "the .ipa is cut short or damaged; export the app again, or copy the whole file")
        }
        return keep == nil ? bytes : []
    }

    /// The most passes over the executable: each inflates it whole.
    static let maxPasses = 8

    /// The executable's signature, without holding the executable: each pass inflates it and
    /// keeps only the ranges the reader needs. The first keeps the first 64 KB and, as the bytes
    /// stream by, whatever those held so far point at (`CodeSignature.ReadPlan`: the load
    /// commands, the signature's index, its blobs, the string constants), so one pass is the
    /// rule; a later one keeps what the reader asked for and was behind the stream. Returns the
    /// passes made and the bytes held (for the tests of the bounds).
    static func signature(of entry: ZIPArchive.Entry, in archive: ZIPArchive, shownAs name: String) throws
        -> (signature: BuiltApp.Signature, passes: Int, held: Int) {
        let source = SparseSource(count: Int(clamping: entry.uncompressedSize))
        let plan = CodeSignature.ReadPlan()
        for pass in 1...maxPasses {
            source.missing = []
            _ = try inflate(entry, in: archive, limit: 0, shownAs: name) { offset, piece in
                source.keep(piece, at: offset)
                // A wanted range just completed: plan from it, and keep what it points at from
                // this piece on.
                var rounds = 0
                while rounds < 8, source.completesWanted(offset..<offset + piece.count), source.want(plan.ranges(source, file: name)) {
                    source.keep(piece, at: offset)
                    rounds += 1
                }
            }
            source.missing = []
            do {
                let slices = try CodeSignature.read(source, file: name)
                // The string constants are read once the signature is: another pass if they were missed.
                if !source.missing.isEmpty, slices.allSatisfy({ $0.identifierStrings == nil }), pass < maxPasses {
                    _ = source.want(source.missing)
                    continue
                }
                return (try BuiltApp.signature(from: slices, file: name), pass, source.heldBytes)
            } catch let problem as CodeSignature.Problem {
                // Asked for bytes it did not have yet: read again, keeping them too.
                guard !source.missing.isEmpty else {
                    throw Problem(message: problem.message, help: problem.help)
                }
                _ = source.want(source.missing)
                _ = source.want(plan.ranges(source, file: name))
            }
        }
        throw Problem(message: "`\(Paths.shown(name))`'s code signature could not be found in \(maxPasses) reads", help: "export the app again")
    }
}
