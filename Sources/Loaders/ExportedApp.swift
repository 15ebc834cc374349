import Foundation
import Formats
import Model
import ZIPFoundation

/// An exported `.ipa`: a ZIP whose `Payload/NAME.app/` is the app bundle. Read in memory, never
/// extracted: only the Info.plist, the embedded profile and the executable's code signature are
/// inflated, each within a budget, and the archive's names are only compared, never used as paths.
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
        let archive: Archive
        do {
            archive = try Archive(url: URL(fileURLWithPath: path), accessMode: .read)
        } catch {
            throw Problem(
                message: "`\(Paths.shown(path))` is not a ZIP archive; an .ipa is one",
                help: "export the app again from the archive (Organizer → Distribute App)")
        }
        // The app: the one `Payload/NAME.app/Info.plist`.
        var entries: [String: Entry] = [:]
        var storeKitFiles: [String] = []
        var lists: [Entry] = []
        var nested: [String] = []
        var apps: [String] = []
        var count = 0
        for entry in archive {
            count += 1
            guard count <= maxEntries else {
                throw Problem(message: "`\(Paths.shown(path))` holds more than \(maxEntries) entries, more than any app", help: "export the app again")
            }
            let name = entry.path
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
            if parts.count > 2, parts[0] == "Payload", name.lowercased().hasSuffix(".storekit"), entry.type == .file { storeKitFiles.append(name) }
            if parts.count > 2, parts[0] == "Payload", entry.type == .file, let last = parts.last, listNames.contains(last.lowercased()) { lists.append(entry) }
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
            built.signature = try signature(of: entry, in: archive, shownAs: shown + executable)
        }
        built.bundledStoreKitFiles = storeKitFiles.filter { $0.hasPrefix(prefix) }.map { path + "/" + $0 }.sorted()
        for entry in lists.sorted(by: { $0.path < $1.path }) where entry.path.hasPrefix(prefix) {
            let file = path + "/" + entry.path
            guard let bytes = try inflate(entry, in: archive, limit: maxSmallEntryBytes, shownAs: file) else { continue }
            do throws(InputProblem) {
                built.addList(try ProductIDList.parse(bytes: bytes, file: file), file: file)
            } catch {
                built.problems.append(error.finding)
            }
        }
        return built
    }

    /// An entry's bytes, refused past `limit` or the bomb ratio, counted as they inflate (the
    /// sizes an entry states are not trusted). A link is not followed: it has no bytes here.
    static func inflate(_ entry: Entry, in archive: Archive, limit: Int, shownAs name: String, keep: ((Int, Data) -> Void)? = nil) throws -> [UInt8]? {
        guard entry.type == .file else { return nil }
        let ratioLimit = max(UInt64(1 << 20), entry.compressedSize.multipliedReportingOverflow(by: maxRatio).partialValue)
        var bytes: [UInt8] = []
        var total = 0
        _ = try archive.extract(entry, skipCRC32: false) { data in
            total += data.count
            if keep == nil, total > limit {
                throw Problem(message: "`\(Paths.shown(name))` inflates past \(limit) bytes, more than such a file holds", help: "do not trust this file; export the app again")
            }
            if UInt64(total) > ratioLimit || UInt64(total) > maxExecutableBytes {
                throw Problem(
                    message: "`\(Paths.shown(name))` inflates to more than \(maxRatio) times its stored size: a ZIP bomb, not an app",
                    help: "do not trust this file; export the app again")
            }
            if let keep { keep(total - data.count, data) } else { bytes += data }
        }
        return keep == nil ? bytes : []
    }

    /// The executable's signature, without holding the executable: each pass inflates it and
    /// keeps only the ranges the reader needs. The first keeps the headers and, once they have
    /// streamed by, the ranges their load commands point at (the signature, the string
    /// constants), so one pass is the rule; a later one keeps what the reader still asked for.
    static func signature(of entry: Entry, in archive: Archive, shownAs name: String) throws -> BuiltApp.Signature {
        let source = SparseSource(count: Int(clamping: entry.uncompressedSize))
        let headers = source.wanted[0]
        for pass in 0..<8 {
            var wanted = source.wanted
            var planned = pass > 0
            source.missing = []
            _ = try inflate(entry, in: archive, limit: 0, shownAs: name) { offset, data in
                source.keep(data, at: offset, of: wanted)
                guard !planned, offset + data.count >= headers.upperBound else { return }
                planned = true
                // The headers are held: keep what they point at from here on.
                let beyond = ((try? CodeSignature.regions(source, file: name)) ?? []).compactMap { range -> Range<Int>? in
                    let start = max(range.lowerBound, headers.upperBound)
                    return start < range.upperBound ? start..<range.upperBound : nil
                }
                wanted += beyond
                source.wanted += beyond
                source.keep(data, at: offset, of: beyond)
            }
            do {
                let slices = try CodeSignature.read(source, file: name)
                // The string constants are read once the signature is: another pass if they were missed.
                if !source.missing.isEmpty, slices.allSatisfy({ $0.identifierStrings == nil }), pass < 7 {
                    source.wanted += source.missing
                    continue
                }
                return try BuiltApp.signature(from: slices, file: name)
            } catch let problem as CodeSignature.Problem {
                // Asked for bytes it did not have yet: read again, keeping them too.
                guard !source.missing.isEmpty else {
                    throw Problem(message: problem.message, help: problem.help)
                }
                source.wanted += source.missing
            }
        }
        throw Problem(message: "`\(Paths.shown(name))`'s code signature could not be found in eight reads", help: "export the app again")
    }

    /// The executable's bytes that passes have kept, by range.
    final class SparseSource: CodeSignature.Source {
        let count: Int
        /// Ranges to keep on the next pass: the first 64 KB to start with (headers and commands).
        var wanted: [Range<Int>]
        /// Ranges asked for and not held, in the last read.
        var missing: [Range<Int>] = []
        private var held: [(start: Int, bytes: [UInt8])] = []

        init(count: Int) {
            self.count = count
            wanted = [0..<min(count, 64 << 10)]
        }

        /// Keeps the parts of `data` (inflated from `offset`) that fall in `ranges`.
        func keep(_ data: Data, at offset: Int, of ranges: [Range<Int>]) {
            for range in ranges where range.lowerBound < offset + data.count && offset < range.upperBound {
                let start = max(range.lowerBound, offset), end = min(range.upperBound, offset + data.count)
                store(Array(data[(start - offset)..<(end - offset)]), at: start)
            }
        }

        func store(_ bytes: [UInt8], at start: Int) {
            if let index = held.firstIndex(where: { $0.start + $0.bytes.count == start }) {
                held[index].bytes += bytes
            } else {
                held.append((start, bytes))
            }
        }

        func bytes(at offset: Int, count: Int) -> [UInt8]? {
            guard offset >= 0, count >= 0, offset <= self.count, count <= self.count - offset else { return nil }
            for range in held where range.start <= offset && offset + count <= range.start + range.bytes.count {
                return Array(range.bytes[(offset - range.start)..<(offset - range.start + count)])
            }
            // Bounded: the reader asks for a few ranges of at most a few MB (the string constants
            // at most `CodeSignature.maxStringBytes`).
            guard count <= 32 << 20 else { return nil }
            missing.append(offset..<offset + max(count, 1))
            return nil
        }
    }
}
