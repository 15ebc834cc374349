import CodeScanner

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Formats
import Model

/// The provisioning profiles installed on this Mac, where Xcode keeps them: Xcode 16 and later in
/// `~/Library/Developer/Xcode/UserData/Provisioning Profiles`, earlier versions in
/// `~/Library/MobileDevice/Provisioning Profiles` (or the folders given with `--profiles-dir`).
/// Looked up by UUID (`PROVISIONING_PROFILE`) or by name (`PROVISIONING_PROFILE_SPECIFIER`).
public struct InstalledProfiles: Sendable {
    /// The folders searched, in order; only those that exist.
    public var folders: [String]
    /// At most this many profile files are read (a Mac with years of profiles has a few hundred).
    static let maxFiles = 2_000
    /// Bytes read across the profiles looked at (a profile is about 12 KB; a Mac with years of
    /// them holds a few MB).
    static let maxTotalBytes = 64 << 20

    /// Xcode's folders under `home`.
    public static func defaultFolders(home: String) -> [String] {
        ["Library/Developer/Xcode/UserData/Provisioning Profiles", "Library/MobileDevice/Provisioning Profiles"].map { home + "/" + $0 }
    }

    /// The folders given; the ones that exist. `nil` looks nowhere (a library call that did not
    /// ask for this Mac's profiles).
    public init(folders: [String]?) {
        self.folders = (folders ?? []).filter(FileSystem.isDirectory)
    }

    /// What the command line searches: `--profiles-dir` folders, else `IAPDOCTOR_PROFILES_DIR`
    /// (`:`-separated; empty looks nowhere, as the tests run), else Xcode's folders under `$HOME`.
    public static func commandLineFolders(_ given: [String]) -> [String] {
        if !given.isEmpty { return given }
        if let variable = getenv("IAPDOCTOR_PROFILES_DIR") {
            return String(cString: variable).split(separator: ":").map(String.init)
        }
        return getenv("HOME").map { defaultFolders(home: String(cString: $0)) } ?? []
    }

    /// Whether there is anywhere to look (on Linux, or a Mac without Xcode, there is not).
    public var isAvailable: Bool { !folders.isEmpty }

    /// The installed profile whose UUID is `uuid` or whose name is `name` (the newest when several
    /// share a name, as Xcode picks). Unreadable or malformed files are skipped: they are not the
    /// project's inputs, and one broken download must not stop the check.
    public func find(uuid: String?, name: String?) -> ProvisioningProfile? {
        let files = folders.flatMap { folder in
            Self.listing(folder).filter(Self.isProfileName).map { folder + "/" + $0 }
        }
        // Xcode names the file after the UUID: a UUID lookup needs to read one file.
        return Self.find(in: files, uuid: uuid, name: name, namedByUUID: true, confined: false)
    }

    static func isProfileName(_ file: String) -> Bool { file.hasSuffix(".mobileprovision") || file.hasSuffix(".provisionprofile") }

    /// The profile committed in `folder` (a repository keeps them for CI: `fastlane match`'s
    /// checkouts, `Configuration/Provisioning/`) whose UUID is `uuid` or whose name is `name`;
    /// folders the source scan skips are skipped, and the walk is bounded.
    public static func findCommitted(in folder: String, uuid: String?, name: String?) -> ProvisioningProfile? {
        guard uuid != nil || name != nil else { return nil }
        var files: [String] = []
        var walker = FolderWalker(order: .breadthFirst, maxEntries: 50_000)
        walker.walk(folder: folder, problem: { _ in }) { entry in
            guard entry.kind == .folder else {
                if isProfileName(entry.name) { files.append(entry.path) }
                return false
            }
            return !(FolderWalker.skippedFolderNames.contains(entry.name.lowercased()) || entry.name.hasPrefix(".") || entry.isLink
                || FolderWalker.projectBundleExtensions.contains(String(entry.name.split(separator: ".").last ?? "")))
        }
        return find(in: files.sorted(), uuid: uuid, name: name, namedByUUID: false, confined: true)
    }

    static func find(in files: [String], uuid: String?, name: String?, namedByUUID: Bool, confined: Bool) -> ProvisioningProfile? {
        guard uuid != nil || name != nil else { return nil }
        var best: ProvisioningProfile?
        let named = namedByUUID && uuid != nil ? files.filter { ($0.split(separator: "/").last ?? "").hasPrefix(uuid!) } : files
        for path in readable(named) {
            let profile: ProvisioningProfile
            do {
                profile = confined
                    ? try ProvisioningProfile.load(path: path)
                    : try Workspace.withConfinement(root: nil) { () throws(InputProblem) in try ProvisioningProfile.load(path: path) }
            } catch {
                continue
            }
            let matches = (uuid != nil && profile.uuid?.value.lowercased() == uuid!.lowercased())
                || (uuid == nil && name != nil && profile.name?.value == name)
            guard matches else { continue }
            if uuid != nil { return profile }
            if let current = best, let currentDate = current.creationDate?.value, let date = profile.creationDate?.value, date <= currentDate { continue }
            best = profile
        }
        return best
    }

    /// The files a lookup reads, in order: one per file however many names reach it (hard links,
    /// links), at most ``maxFiles`` and ``maxTotalBytes`` in all.
    static func readable(_ files: [String]) -> [String] {
        var result: [String] = []
        var bytes = 0
        var seen: Set<FileIdentity> = []
        for path in files {
            guard result.count < maxFiles, bytes <= maxTotalBytes else { break }
            if let identity = FileSystem.identity(of: path), !seen.insert(identity).inserted { continue }
            bytes += FileSystem.fileSize(path) ?? 0
            result.append(path)
        }
        return result
    }

    static func listing(_ folder: String) -> [String] {
        guard let directory = opendir(folder) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafePointer(to: entry.pointee.d_name) { pointer in
                pointer.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { String(cString: $0) }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }
}
