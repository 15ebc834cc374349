#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The provisioning profiles installed on this Mac, where Xcode keeps them: Xcode 16 and later in
/// `~/Library/Developer/Xcode/UserData/Provisioning Profiles`, earlier versions in
/// `~/Library/MobileDevice/Provisioning Profiles` (or the folders given with `--profiles-dir`).
/// Looked up by UUID (`PROVISIONING_PROFILE`) or by name (`PROVISIONING_PROFILE_SPECIFIER`).
public struct InstalledProfiles: Sendable {
    /// The folders searched, in order; only those that exist.
    public var folders: [String]
    /// At most this many profile files are read (a Mac with years of profiles has a few hundred).
    static let maxFiles = 2_000

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
        guard uuid != nil || name != nil else { return nil }
        var best: ProvisioningProfile?
        var read = 0
        for folder in folders {
            for file in Self.listing(folder) where file.hasSuffix(".mobileprovision") || file.hasSuffix(".provisionprofile") {
                read += 1
                guard read <= Self.maxFiles else { return best }
                // Xcode names the file after the UUID: a UUID lookup needs to read one file.
                if let uuid, !file.hasPrefix(uuid) { continue }
                let path = folder + "/" + file
                let profile: ProvisioningProfile
                do {
                    profile = try FileSystem.withConfinement(root: nil) { () throws(InputProblem) in try ProvisioningProfile.load(path: path) }
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
        }
        return best
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
