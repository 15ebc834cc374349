import Formats
import Model

/// A `.mobileprovision` / `.provisionprofile`: a CMS (PKCS#7) signed message whose content is an XML
/// property list. The plist is found in the container's bytes without a crypto library; the
/// signature is not checked (iapdoctor reads what the profile says, it does not vouch for it).
public struct ProvisioningProfile: Sendable {
    public var file: String
    public var name: Fact<String>?
    /// `UUID`: what `PROVISIONING_PROFILE` names and Xcode calls the installed file.
    public var uuid: Fact<String>?
    /// `Entitlements.application-identifier`: `TEAMID.bundle.id` or `TEAMID.*`.
    public var applicationIdentifier: Fact<String>?
    public var teamIdentifier: Fact<String>?
    /// `ApplicationIdentifierPrefix`: the prefixes of its App IDs (the team's, or an older App ID
    /// prefix).
    public var applicationIdentifierPrefixes: [String] = []
    public var creationDate: Fact<Timestamp>?
    public var expirationDate: Fact<Timestamp>?
    public var provisionedDeviceCount: Int?
    public var provisionsAllDevices: Bool
    public var getTaskAllow: Fact<Bool>?
    /// `Platform`: `iOS`, `OSX`, `xrOS`, … (a Developer ID profile says `OSX` and provisions all devices).
    public var platforms: [String] = []

    /// The bundle ID part of its App ID: without the prefix the profile names (or, when it names
    /// none, a first component shaped like a Team ID).
    public var appIDBundlePart: String? {
        guard let appID = applicationIdentifier?.value else { return nil }
        let prefix = String(appID.prefix { $0 != "." })
        let known = applicationIdentifierPrefixes + [teamIdentifier?.value].compactMap { $0 }
        guard appID.contains("."), known.contains(prefix) || AppID.looksLikeTeamID(prefix) else { return appID }
        return String(appID.dropFirst(prefix.count + 1))
    }

    /// What kind of profile its contents say it is.
    public var type: ProfileType {
        if provisionsAllDevices { return .enterprise }
        if provisionedDeviceCount != nil { return getTaskAllow?.value == true ? .development : .adHoc }
        return .appStore
    }

    public static func load(path: String) throws(InputProblem) -> ProvisioningProfile {
        let bytes: [UInt8]
        do {
            bytes = try FileSystem.readBytes(path, maxBytes: 4 << 20)
        } catch {
            // The file system's help ("check the path") is replaced: a profile is not edited but
            // downloaded again, whatever kept it from being read.
            var problem = InputProblem.unreadable(error, at: SourceLocation(file: path))
            problem.finding.help = "download the profile again (Xcode → Settings → Accounts, or the developer portal)"
            throw problem
        }
        return try parse(bytes: bytes, path: path)
    }

    /// A profile from its bytes (`path` names it: a file, or an entry of an .ipa).
    public static func parse(bytes: [UInt8], path: String) throws(InputProblem) -> ProvisioningProfile {
        guard let start = find(Array("<?xml".utf8), in: bytes, from: 0),
            let endTag = find(Array("</plist>".utf8), in: bytes, from: start)
        else {
            throw PropertyList.malformed(
                "`\(path)` holds no property list; a provisioning profile is a signed plist",
                help: "download the profile again; on macOS `security cms -D -i \(path)` shows what it contains",
                at: SourceLocation(file: path))
        }
        let plistBytes = Array(bytes[start..<(endTag + 8)])
        // Lines inside the plist continue the container's line count.
        let newlinesBefore = bytes[..<start].reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
        let plist = try PropertyList.parse(
            bytes: plistBytes, file: path, what: "provisioning profile's property list", lineOffset: newlinesBefore)
        var profile = ProvisioningProfile(file: path, provisionsAllDevices: plist["ProvisionsAllDevices"]?.bool ?? false)
        profile.name = plist["Name"]?.stringFact(.profile)
        profile.uuid = plist["UUID"]?.stringFact(.profile)
        profile.platforms = plist["Platform"]?.elements.compactMap { $0.stringFact(.profile)?.value } ?? []
        let entitlements = plist["Entitlements"]
        profile.applicationIdentifier = (entitlements?["application-identifier"] ?? entitlements?["com.apple.application-identifier"])?
            .stringFact(.profile)
        profile.teamIdentifier = plist["TeamIdentifier"]?.elements.first?.stringFact(.profile)
        profile.applicationIdentifierPrefixes = plist["ApplicationIdentifierPrefix"]?.elements.compactMap(\.string) ?? []
        if let created = plist["CreationDate"], let date = created.date {
            profile.creationDate = Fact(date, at: created.location, source: .profile)
        }
        if let expires = plist["ExpirationDate"], let date = expires.date {
            profile.expirationDate = Fact(date, at: expires.location, source: .profile)
        }
        if let devices = plist["ProvisionedDevices"] { profile.provisionedDeviceCount = devices.elements.count }
        if let allow = entitlements?["get-task-allow"], let value = allow.bool {
            profile.getTaskAllow = Fact(value, at: allow.location, source: .profile)
        }
        return profile
    }

    static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard needle.count <= haystack.count else { return nil }
        var index = start
        while index <= haystack.count - needle.count {
            if haystack[index] == needle[0], haystack[index..<index + needle.count].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }
}
