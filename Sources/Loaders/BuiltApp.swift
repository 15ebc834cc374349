import Foundation
import Formats
import Model

/// An app as Xcode built it: an archive (`.xcarchive`, what Product → Archive makes and the
/// Organizer uploads) or an app bundle (`.app`, iOS's flat layout or macOS's `Contents/`). What
/// the build says, where the repository only says what it should be: the bundle ID it was built
/// with, the profile embedded in it, and the entitlements it was signed with.
public struct BuiltApp: Sendable {
    public enum Kind: String, Sendable {
        /// An `.xcarchive`: what the Organizer uploads (it re-signs the app for distribution).
        case archive
        /// An `.app` bundle.
        case app
        /// An exported `.ipa`: signed as it will be installed or uploaded.
        case ipa
    }

    /// The path as given (the archive or the app bundle).
    public var path: String
    public var kind: Kind
    /// The app bundle (inside the archive's `Products/Applications/`, or `path` itself).
    public var appBundle: String
    /// The bundle's Info.plist (`Contents/Info.plist` on macOS).
    public var infoPlist: String
    public var bundleID: Fact<String>?
    public var version: Fact<String>?
    public var build: Fact<String>?
    /// `MinimumOSVersion` (iOS, visionOS) or `LSMinimumSystemVersion` (macOS).
    public var minimumOS: Fact<String>?
    /// From `CFBundleSupportedPlatforms` (`iPhoneOS`, `MacOSX`, `XROS`), else the bundle's layout.
    public var platform: Platform?
    /// The profile embedded when the app was signed (`embedded.mobileprovision`,
    /// `Contents/embedded.provisionprofile`); `nil` when there is none (a Developer ID or
    /// unsigned build, or a simulator build).
    public var profile: ProvisioningProfile?
    /// What the main executable's code signature says.
    public var signature: Signature?
    /// The archive's own Info.plist: what the Organizer shows and uploads from.
    public var archive: ArchiveProperties?
    /// `.storekit` files copied into the bundle (a StoreKit configuration is for Xcode's Run, and
    /// has no business in a build that ships).
    public var bundledStoreKitFiles: [String] = []
    /// Product ID lists copied into the bundle, found by the names the project's own lists have:
    /// what the build requests from them.
    public var bundledProductIDLists: [BundledList] = []
    /// What the build holds that could not be read, without stopping the rest (a bundled list
    /// that does not parse).
    public var problems: [Finding] = []

    /// A product ID list inside the build.
    public struct BundledList: Sendable {
        /// Its path (inside the `.ipa`, the archive's path followed by the entry's name).
        public var file: String
        public var ids: [Fact<String>]
        public var secrets: [SourceEvidence.Secret]
    }

    /// The main executable's signature.
    public struct Signature: Sendable {
        /// The executable's path.
        public var file: String
        /// Every architecture carries a code signature.
        public var isSigned: Bool
        /// `application-identifier` (`TEAMID.bundle.id`).
        public var applicationIdentifier: Fact<String>?
        public var teamIdentifier: Fact<String>?
        /// `get-task-allow`: `true` in a development signature, absent or `false` in a distribution one.
        public var getTaskAllow: Fact<Bool>?
        /// `beta-reports-active`: `true` in a signature for TestFlight and the App Store.
        public var betaReportsActive: Fact<Bool>?
        /// Read in the same pass, though not part of the signature: the executable's string
        /// constants shaped like product IDs (nil when it has no `__TEXT,__cstring`).
        public var identifierStrings: Set<String>?
    }

    /// `ApplicationProperties` in the archive's Info.plist.
    public struct ArchiveProperties: Sendable {
        public var file: String
        public var bundleID: Fact<String>?
        public var version: Fact<String>?
        public var signingIdentity: Fact<String>?
        public var team: Fact<String>?
    }

    /// Whether this build is what runs in `environment`, so that its facts answer for it where the
    /// source tree leaves a question open. Xcode's Run builds from the sources; an archive is what
    /// the Organizer re-signs for the devices or the store; an exported `.ipa` runs where its
    /// profile lets it: the sandbox on devices (development, ad hoc, enterprise), or TestFlight,
    /// App Review and the App Store (App Store).
    public func runs(in environment: Environment) -> Bool {
        switch kind {
        case .app: return true
        case .archive: return environment != .xcode
        case .ipa:
            guard let type = profile?.type else { return environment != .xcode }
            return type == .appStore ? environment.isAppStoreBuild : environment == .sandbox
        }
    }

    /// Whether `path` names a build rather than a descriptor or a catalog.
    public static func isBuild(_ path: String) -> Bool {
        let lower = (path.hasSuffix("/") ? String(path.dropLast()) : path).lowercased()
        return lower.hasSuffix(".xcarchive") || lower.hasSuffix(".app") || lower.hasSuffix(".ipa")
    }

    /// Reads the build at `given`; `listNames` are the file names (lowercased) of the project's
    /// product ID lists, looked for among the bundle's resources.
    public static func load(path given: String, listNames: Set<String> = []) throws(InputProblem) -> BuiltApp {
        let path = given.hasSuffix("/") && given.count > 1 ? String(given.dropLast()) : given
        if path.lowercased().hasSuffix(".ipa") { return try ExportedApp.load(path: path, listNames: listNames) }
        // Every file of a folder build is read from inside it, however the build was named.
        return try Workspace.withinBuild(path) { () throws(InputProblem) in try loadFolder(path, listNames: listNames) }
    }

    /// An `.xcarchive` or `.app` at `path`, read under the build's confinement.
    private static func loadFolder(_ path: String, listNames: Set<String>) throws(InputProblem) -> BuiltApp {
        guard FileSystem.isDirectory(path) else {
            throw InputProblem(Finding(
                rule: RuleID.inputUnreadable.rawValue, severity: .error, checklist: nil,
                message: FileSystem.exists(path)
                    ? "`\(Paths.shown(path))` is a file; an archive or an app is a folder (a bundle)"
                    : "cannot read `\(Paths.shown(path))`: no such archive or app",
                help: "name the `.xcarchive` (Xcode → Window → Organizer → Show in Finder) or the `.app` inside it",
                location: SourceLocation(file: path)))
        }
        var app: BuiltApp
        if path.lowercased().hasSuffix(".xcarchive") {
            let archivePlist = path + "/Info.plist"
            var properties: ArchiveProperties?
            var applicationPath: String?
            if FileSystem.exists(archivePlist) {
                let plist = try PropertyList.load(path: archivePlist, what: "archive's Info.plist")
                let application = plist["ApplicationProperties"]
                properties = ArchiveProperties(
                    file: archivePlist, bundleID: application?["CFBundleIdentifier"]?.stringFact(.build),
                    version: application?["CFBundleShortVersionString"]?.stringFact(.build),
                    signingIdentity: application?["SigningIdentity"]?.stringFact(.build), team: application?["Team"]?.stringFact(.build))
                applicationPath = application?["ApplicationPath"]?.string
            }
            let products = path + "/Products/"
            let candidates: [String]
            if let applicationPath, !applicationPath.contains(".."), FileSystem.isDirectory(products + applicationPath) {
                candidates = [products + applicationPath]
            } else {
                candidates = ((try? FileManager.default.contentsOfDirectory(atPath: products + "Applications")) ?? [])
                    .filter { $0.lowercased().hasSuffix(".app") }.sorted().map { products + "Applications/" + $0 }
            }
            guard candidates.count == 1, let bundle = candidates.first else {
                throw InputProblem(Finding(
                    rule: RuleID.inputUnreadable.rawValue, severity: .error, checklist: nil,
                    message: candidates.isEmpty
                        ? "`\(Paths.shown(path))` holds no app: `Products/Applications/` has no `.app`"
                        : "`\(Paths.shown(path))` holds \(candidates.count) apps and its Info.plist names none of them",
                    help: "archive the app again (Product → Archive), or name the `.app` inside the archive",
                    location: SourceLocation(file: path)))
            }
            app = try bundleFacts(bundle, path: path, kind: .archive, listNames: listNames)
            app.archive = properties
        } else {
            app = try bundleFacts(path, path: path, kind: .app, listNames: listNames)
        }
        return app
    }

    /// The facts of one app bundle.
    private static func bundleFacts(_ bundle: String, path: String, kind: Kind, listNames: Set<String>) throws(InputProblem) -> BuiltApp {
        let macOS = FileSystem.isDirectory(bundle + "/Contents")
        let contents = macOS ? bundle + "/Contents" : bundle
        let infoPlist = contents + "/Info.plist"
        let plist = try PropertyList.load(path: infoPlist, what: "built app's Info.plist")
        var app = BuiltApp(path: path, kind: kind, appBundle: bundle, infoPlist: infoPlist)
        app.read(plist, macOS: macOS)
        let profilePath = macOS ? contents + "/embedded.provisionprofile" : bundle + "/embedded.mobileprovision"
        if FileSystem.exists(profilePath) { app.profile = try ProvisioningProfile.load(path: profilePath) }
        if let name = plist["CFBundleExecutable"]?.string, !name.contains("/"), !name.isEmpty {
            let executable = (macOS ? contents + "/MacOS/" : bundle + "/") + name
            if FileSystem.isSymbolicLink(executable) {
                throw InputProblem(Finding(
                    rule: RuleID.inputUnreadable.rawValue, severity: .error, checklist: nil, message: linkedExecutable(executable),
                    help: linkedExecutableHelp, location: SourceLocation(file: executable)))
            }
            if FileSystem.exists(executable) { app.signature = try signature(of: executable) }
        }
        let resources = files(in: contents) { name in
            let lower = name.lowercased()
            return lower.hasSuffix(".storekit") || listNames.contains(lower)
        }
        app.bundledStoreKitFiles = resources.filter { $0.lowercased().hasSuffix(".storekit") }
        for file in resources where !file.lowercased().hasSuffix(".storekit") {
            do throws(InputProblem) {
                app.addList(try ProductIDList.read(path: file), file: file)
            } catch {
                app.problems.append(error.finding)
            }
        }
        return app
    }

    /// Keeps a bundled list's IDs as the build's facts.
    mutating func addList(_ contents: ProductIDList.Contents, file: String) {
        bundledProductIDLists.append(BundledList(
            file: file, ids: contents.ids.map { Fact($0.value, at: $0.location, source: .build) }, secrets: contents.secrets))
    }

    /// The facts of the bundle's Info.plist.
    mutating func read(_ plist: PlistValue, macOS: Bool) {
        bundleID = plist["CFBundleIdentifier"]?.stringFact(.build)
        version = plist["CFBundleShortVersionString"]?.stringFact(.build)
        build = plist["CFBundleVersion"]?.stringFact(.build)
        minimumOS = (plist["MinimumOSVersion"] ?? plist["LSMinimumSystemVersion"])?.stringFact(.build)
        let platforms = plist["CFBundleSupportedPlatforms"]?.elements.compactMap(\.string) ?? []
        if platforms.contains("MacOSX") || (platforms.isEmpty && macOS) {
            platform = .macos
        } else if platforms.contains("XROS") {
            platform = .visionos
        } else if platforms.contains("AppleTVOS") {
            platform = .tvos
        } else if platforms.contains("iPhoneOS") || platforms.isEmpty {
            platform = .ios
        }
    }

    /// The refusal of an executable that is a symbolic link (in a folder or an `.ipa`).
    static func linkedExecutable(_ executable: String) -> String {
        "`\(Paths.shown(executable))`, the app's executable, is a symbolic link, which iapdoctor does not follow inside a build: its code signature is not read"
    }

    static let linkedExecutableHelp = "build and archive the app again: Xcode writes the executable as a file, never a link"

    /// The entitlements of the executable's first signed architecture (Xcode signs every slice
    /// with the same ones).
    static func signature(of executable: String) throws(InputProblem) -> Signature {
        do throws(FileSystem.Problem) {
            try Workspace.checkInput(executable)
            try FileSystem.requireRegularFile(executable)
        } catch {
            throw InputProblem.unreadable(error, at: SourceLocation(file: executable))
        }
        Workspace.noteRead(executable)
        let slices: [CodeSignature.Slice]
        do {
            slices = try CodeSignature.read(path: executable)
        } catch {
            throw InputProblem(Finding(
                rule: RuleID.inputMalformed.rawValue, severity: .error, checklist: nil, message: error.message, help: error.help,
                location: SourceLocation(file: executable)))
        }
        return try signature(from: slices, file: executable)
    }

    /// What the slices' signatures say; `file` names the executable.
    static func signature(from slices: [CodeSignature.Slice], file executable: String) throws(InputProblem) -> Signature {
        var signature = Signature(file: executable, isSigned: !slices.isEmpty && slices.allSatisfy(\.isSigned))
        signature.identifierStrings = slices.lazy.compactMap(\.identifierStrings).first
        guard let xml = slices.lazy.compactMap(\.entitlementsXML).first, !xml.isEmpty else { return signature }
        let entitlements = try PropertyList.parse(bytes: xml, file: executable, what: "signed entitlements")
        // Lines of the blob are not lines of the executable: the facts point at the file.
        let here = SourceLocation(file: executable)
        signature.applicationIdentifier = (entitlements["application-identifier"] ?? entitlements["com.apple.application-identifier"])?
            .string.map { Fact($0, at: here, source: .build) }
        signature.teamIdentifier = entitlements["com.apple.developer.team-identifier"]?.string.map { Fact($0, at: here, source: .build) }
        signature.getTaskAllow = (entitlements["get-task-allow"] ?? entitlements["com.apple.security.get-task-allow"])?
            .bool.map { Fact($0, at: here, source: .build) }
        signature.betaReportsActive = entitlements["beta-reports-active"]?.bool.map { Fact($0, at: here, source: .build) }
        return signature
    }

    /// Files anywhere in the bundle's resources whose name `matches` (bounded: a bundle's folders
    /// are few), sorted.
    static func files(in contents: String, where matches: (String) -> Bool) -> [String] {
        var found: [String] = []
        var folders = [contents]
        var visited = 0
        while let folder = folders.popLast(), visited < 2_000 {
            visited += 1
            for name in ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted() {
                let child = folder + "/" + name
                if matches(name), !FileSystem.isDirectory(child) {
                    found.append(child)
                } else if !FileSystem.isSymbolicLink(child), FileSystem.isDirectory(child), !name.hasSuffix(".framework") {
                    folders.append(child)
                }
            }
        }
        return found.sorted()
    }
}

extension Project {
    /// The file names (lowercased) a build's product ID lists are found by: those of the lists
    /// `app.product_id_lists` names and of those the code reads its requests from.
    public var productListNames: Set<String> {
        let files = app.productIDLists.map(\.value) + requests.compactMap { request -> String? in
            request.source == .code || request.source == .productList ? request.location.file : nil
        }
        return Set(files.compactMap { file -> String? in
            let name = Paths.fileName(of: file).lowercased()
            return name.hasSuffix(".plist") || name.hasSuffix(".json") ? name : nil
        })
    }

    /// What the build that runs in this environment says where the project is silent; once,
    /// after the builds are loaded. Its shipped lists' IDs are requests, its minimum OS the
    /// deployment target. The profile embedded in
    /// an `.ipa` or `.app` is the one that signs what runs (an archive's is not: the upload or
    /// the export signs again), so when the project names none it is the project's profile, and
    /// it was installed where the build was signed (with a descriptor: without one, the signing
    /// rules do not run, and the build's rules speak of it).
    public mutating func adoptRunningBuild() {
        guard let running = runningBuild else { return }
        for list in running.bundledProductIDLists {
            requests += list.ids
            evidence.sources.secrets += list.secrets
        }
        // The OS the build was made for is the deployment target that counts; an archive's is
        // what the upload carries.
        if hasDescriptor, app.deploymentTarget == nil, let minimumOS = running.minimumOS {
            app.deploymentTarget = minimumOS
        }
        if hasDescriptor, running.kind != .archive, let profile = running.profile, !signing.profile.isStated {
            EvidenceLoader.adoptProfile(profile, into: &self)
            signing.profile.installed = Fact(true, at: SourceLocation(file: profile.file), source: .build)
        }
    }
}
