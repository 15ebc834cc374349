import Foundation
import Formats
import Model

/// Reads the files a descriptor's `app:` keys point at and turns them into facts on the project.
/// Files win over the descriptor: where both state a thing and disagree, the file's value is used
/// and the disagreement is recorded for `descriptor-file-mismatch`.
public enum EvidenceLoader {
    /// Loads every file named in `project.app` (and the profile in `signing.profile.file`); returns
    /// the input problems (unreadable or malformed files, each positioned).
    public static func load(into project: inout Project) -> [Finding] {
        var problems: [Finding] = []
        func path(_ fact: Fact<String>) -> String { Paths.resolve(fact.value, relativeTo: project.baseDirectory) }
        // An input problem, pointing also where the descriptor names the file.
        func problem(_ error: InputProblem, named: Fact<String>) -> Finding {
            project.parsedFiles.note(error.readFiles)
            var finding = error.finding
            let note = "the file is named at \(named.location)"
            finding.notes.append(note)
            finding.related.append(RelatedSpan(named.location, label: "named here", note: note))
            return finding
        }
        func attempt<T>(_ named: Fact<String>, _ load: (String) throws(InputProblem) -> T) -> T? {
            do {
                let loaded = try load(path(named))
                project.parsedFiles.note(path(named))
                return loaded
            } catch {
                problems.append(problem(error, named: named))
                return nil
            }
        }

        // The scheme first: its Run action names the app's target and configuration.
        let scheme = project.app.scheme.flatMap { named in attempt(named, { (p) throws(InputProblem) in try XcodeScheme.load(path: p) }) }
        project.evidence.scheme = scheme

        // project.pbxproj: the build settings of the app target for the configuration.
        var resolved: BuildSettings?
        // Where committed profiles are looked for: the repository that holds the project.
        var projectFolder: String?
        var loadedProject: XcodeProject?
        if let named = project.app.xcodeproj, let xcodeProject = attempt(named, { (p) throws(InputProblem) in try XcodeProject.load(path: p) }) {
            loadedProject = xcodeProject
            project.parsedFiles.note(xcodeProject.file)
            project.parsedFiles.note(xcodeProject.parsedFiles)
            projectFolder = repositoryFolder(of: xcodeProject.projectDirectory)
            project.evidence.projectGenerator = xcodeProject.generator.map { ($0, xcodeProject.file) }
            project.evidence.sources.remotePackages = xcodeProject.remotePackages
            let configuration = project.app.configuration?.value
                ?? (project.effectiveEnvironment.isAppStoreBuild ? scheme?.archiveConfiguration?.value : scheme?.runConfiguration?.value)
                ?? (project.effectiveEnvironment.isAppStoreBuild ? "Release" : "Debug")
            switch TargetChoice.choose(in: xcodeProject, named: project.app.target, scheme: scheme,
                                       bundleID: project.app.bundleID?.value, configuration: configuration) {
            case .chosen(let target, let reason):
                project.evidence.targetChoice = reason
                let settings = xcodeProject.settings(target: target, configuration: configuration)
                resolved = settings
                project.evidence.settingsExpansion = settings
                loadBuildSettings(settings, of: target, in: xcodeProject, configuration: configuration, into: &project)
            case .unknownName(let named, let candidates):
                problems.append(Finding(
                    rule: RuleID.descriptorInvalidValue.rawValue, severity: .error, checklist: nil,
                    message: "`app.target` is `\(named.value)`, but `\(Paths.directoryName(of: xcodeProject.file))` has no target of that name",
                    help: "set `app.target` to one of the application targets: \(candidates.joined(separator: "; "))",
                    location: named.location))
            case .ambiguous(let candidates, let reason):
                project.evidence.targetChoice = reason
                project.evidence.targetCandidates = candidates
            }
        }

        // Info.plist: CFBundleIdentifier and the name, expanded with the build settings.
        if let named = project.app.infoPlist, let plist = attempt(named, { (p) throws(InputProblem) in try PropertyList.load(path: p, what: "Info.plist") }) {
            for key in ["CFBundleDisplayName", "CFBundleName"] {
                guard let name = plist[key]?.stringFact(.infoPlist) else { continue }
                let expanded = name.value.contains("$") ? resolved.map { $0.expand(name.value) } : name.value
                if let expanded, !expanded.isEmpty, BuildSettings.isResolved(expanded) {
                    project.evidence.appName = Fact(expanded, at: name.location, source: .infoPlist)
                    break
                }
            }
            if let identifier = plist["CFBundleIdentifier"]?.stringFact(.infoPlist) {
                project.evidence.infoPlistBundleID = identifier
                if identifier.value.contains("$") {
                    if let resolved {
                        let expanded = resolved.expand(identifier.value)
                        let setting = project.evidence.buildSettings[XcodeProject.SettingKey.productBundleIdentifier]
                        if let setting, Self.onlyNamesBundleIdentifier(identifier.value), setting.value == expanded {
                            // `$(PRODUCT_BUNDLE_IDENTIFIER)`: the line to change is the setting's.
                            project.evidence.runningBundleID = setting
                        } else if expanded.isEmpty {
                            project.evidence.runningBundleID = nil
                            if project.evidence.emptySettings["PRODUCT_BUNDLE_IDENTIFIER"] == nil {
                                project.evidence.emptySettings["PRODUCT_BUNDLE_IDENTIFIER"] = identifier
                            }
                        } else if BuildSettings.isResolved(expanded) {
                            project.evidence.runningBundleID = Fact(expanded, at: identifier.location, source: .infoPlist)
                        } else {
                            project.evidence.runningBundleID = nil
                            project.evidence.unresolvedSettings["PRODUCT_BUNDLE_IDENTIFIER"] = Fact(expanded, at: identifier.location, source: .infoPlist)
                        }
                    }
                } else if identifier.value.isEmpty {
                    project.evidence.runningBundleID = nil
                    project.evidence.emptySettings["PRODUCT_BUNDLE_IDENTIFIER"] = identifier
                } else {
                    project.evidence.runningBundleID = identifier
                }
            }
        }

        // The configuration the scheme archives: its bundle ID is the App Store Connect app's.
        if let checked = project.evidence.configurationName {
            let archived = scheme?.archiveConfiguration?.value ?? "Release"
            project.evidence.archiveBundleID = checked == archived
                ? project.evidence.runningBundleID : project.evidence.otherConfigurationBundleIDs?[archived]
        }

        // .entitlements: which keys it has.
        // One that is not a property list is `entitlements-unreadable`'s warning, not an input
        // error: In-App Purchase needs no entitlement, so nothing else waits for it.
        if let named = project.app.entitlements {
            do throws(InputProblem) {
                let plist = try PropertyList.load(path: path(named), what: "entitlements file")
                project.parsedFiles.note(path(named))
                project.evidence.entitlementsFile = path(named)
                project.evidence.entitlementKeys = plist.keys.map { Fact($0.key, at: $0.keyLocation, source: .entitlements) }
            } catch where error.finding.rule == RuleID.inputMalformed.rawValue {
                project.parsedFiles.note(error.readFiles)
                project.evidence.entitlementsProblem = (error.finding, named)
            } catch {
                // A file that cannot be read at all (missing, outside the project) stays an input error.
                problems.append(problem(error, named: named))
            }
        }

        // The provisioning profile: its facts replace the descriptor's.
        if let named = project.signing.profile.file,
            let profile = attempt(named, { (p) throws(InputProblem) in try ProvisioningProfile.load(path: p) })
        {
            adoptProfile(profile, into: &project)
        } else if project.signing.profile.file == nil {
            // No file named: the profile the build settings name, as Xcode installed it on this Mac,
            // else a copy committed in the repository (kept for CI).
            let installed = InstalledProfiles(folders: project.profileFolders)
            let uuid = project.evidence.buildSettings[XcodeProject.SettingKey.provisioningProfile].flatMap { $0.value.isEmpty ? nil : $0.value }
            let name = project.signing.profile.name
            if uuid != nil || name != nil {
                if installed.isAvailable, let profile = installed.find(uuid: uuid, name: name?.value) {
                    adoptProfile(profile, into: &project)
                    project.signing.profile.installed = Fact(true, at: SourceLocation(file: profile.file), source: .profile)
                } else {
                    if let folder = projectFolder, let committed = InstalledProfiles.findCommitted(in: folder, uuid: uuid, name: name?.value) {
                        // A copy kept for CI: a renewed profile keeps its name, App ID and team,
                        // not its dates, so the copy's dates say nothing about the one that signs.
                        adoptProfile(committed, into: &project, dates: false)
                        project.evidence.committedProfile = committed.file
                    }
                    if installed.isAvailable, project.signing.profile.installed == nil,
                       let stated = name ?? project.evidence.buildSettings[XcodeProject.SettingKey.provisioningProfile] {
                        // Looked where Xcode keeps profiles, and it is not there.
                        project.signing.profile.installed = Fact(false, at: stated.location, source: stated.source)
                        project.evidence.profileSearch = installed.folders
                    }
                }
            }
        }

        // The scheme: does Xcode's Run action serve products from a .storekit file?
        var storeKitPath: (path: String, named: Fact<String>)?
        if let scheme, let reference = scheme.storeKitConfiguration {
            project.evidence.schemeUsesStoreKit = reference
            let candidates = scheme.candidatePaths(for: reference.value)
            // Only places inside the project root are looked at: whether a file exists outside it
            // must not change the answer (that would let a scheme probe the file system).
            let confined = candidates.filter(Workspace.isConfined)
            if let package = XcodeScheme.packageCheckout(of: reference.value) {
                // A package's own testing file, chosen in the scheme: not the app's products.
                project.evidence.storeKitFromPackage = (reference, package)
            } else if let found = confined.first(where: FileSystem.exists) {
                storeKitPath = (found, reference)
                var read: [String] = []
                if let xcodeProject = loadedProject, Self.outsideProject(found, project: xcodeProject, scheme: scheme, read: &read) {
                    project.evidence.storeKitOutsideProject = (reference, found, xcodeProject.file)
                }
                project.parsedFiles.note(read)
            } else if let (written, found) = confined.lazy.compactMap({ candidate in FileSystem.caseInsensitiveMatch(candidate).map { (candidate, $0) } })
                .first(where: { Workspace.isConfined($0.1) })
            {
                storeKitPath = (found, reference)
                project.evidence.caseMismatches.append(CaseMismatch(written: written, actual: found))
            } else if let first = candidates.first, !Workspace.isConfined(first) {
                // Where Xcode looks first is outside: refused, whether or not a file is there.
                do throws(FileSystem.Problem) {
                    try Workspace.checkInput(first)
                } catch {
                    problems.append(InputProblem.unreadable(
                        error, at: reference.location,
                        notes: ["the scheme's StoreKit configuration reference `\(Paths.shown(reference.value))` leads there"]).finding)
                }
            } else {
                // Xcode would serve no products; one finding says so (not an unreadable input).
                project.evidence.storeKitReferenceMissing = (reference, confined)
            }
        }
        // Without a scheme, the descriptor's .storekit stands for what Xcode serves. With one, the
        // scheme decides; the descriptor's file (if another) is still checked as a catalog.
        var checkedOnly: (path: String, named: Fact<String>)?
        if let named = project.app.storeKitConfiguration {
            if scheme == nil {
                storeKitPath = (path(named), named)
            } else if storeKitPath.map({ Paths.normalize($0.path) }) != Paths.normalize(path(named)) {
                checkedOnly = (path(named), named)
            }
        }
        for (file, named, served) in [storeKitPath.map { ($0.path, $0.named, true) }, checkedOnly.map { ($0.path, $0.named, false) }].compactMap({ $0 }) {
            do {
                var configuration = try StoreKitConfiguration.load(path: file)
                project.parsedFiles.note(file)
                if served {
                    configuration.use = .run
                    project.evidence.storeKit = configuration
                }
                project.storeKitFiles.append(configuration)
            } catch {
                problems.append(problem(error, named: named))
            }
        }

        // Product ID lists and sources: the IDs the app requests.
        var lists: [(named: Fact<String>, contents: ProductIDList.Contents)] = []
        for named in project.app.productIDLists {
            if let contents = attempt(named, { (p) throws(InputProblem) in try ProductIDList.read(path: p) }) {
                lists.append((named, contents))
            }
        }
        loadRequests(lists: lists, into: &project, problems: &problems)
        // The descriptor's key stands for the code's keys that are read at run time.
        if let stated = project.revenueCat.publicAPIKey {
            project.evidence.revenueCat.keys.removeAll { $0.value == nil }
            project.evidence.revenueCat.keys.append(RevenueCatEvidence.CodeUse(
                value: stated.value, location: stated.location, api: "revenuecat.public_api_key", call: stated.location, written: stated.value))
        }
        // RevenueCat's offerings add requests, which the App Store Connect snapshot then matches.
        problems += RevenueCatFacts.load(into: &project)
        project.requestShownGroups()
        return problems
    }

    /// Whether the scheme's StoreKit file is missing from the Xcode project that holds the scheme:
    /// no reference in `project.pbxproj` and no workspace beside the project naming it. A scheme
    /// kept elsewhere (a workspace's) or a generated project is never judged.
    static func outsideProject(_ file: String, project: XcodeProject, scheme: XcodeScheme, read: inout [String]) -> Bool {
        let bundle = Paths.directoryName(of: project.file)
        guard Paths.normalize(scheme.file).hasPrefix(Paths.normalize(bundle) + "/"), project.holds(file) == false else { return false }
        let name = Paths.fileName(of: file)
        for folder in Set([Paths.directoryName(of: bundle), project.projectDirectory]) {
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            for entry in entries where entry.hasSuffix(".xcworkspace") {
                let contents = (folder == "." ? entry : folder + "/" + entry) + "/contents.xcworkspacedata"
                guard Workspace.isConfined(contents), let bytes = try? FileSystem.readBytes(contents, maxBytes: 4 << 20) else { continue }
                read.append(contents)
                if String(decoding: bytes, as: UTF8.self).contains(name) { return false }
            }
        }
        return true
    }

    /// `$(PRODUCT_BUNDLE_IDENTIFIER)` (or `${…}`, or with `:rfc1034identifier`), and nothing else.
    static func onlyNamesBundleIdentifier(_ text: String) -> Bool {
        let name = XcodeProject.SettingKey.productBundleIdentifier
        return ["$(\(name))", "${\(name)}", "$(\(name):rfc1034identifier)", "${\(name):rfc1034identifier}"].contains(BuildSettings.trimmingSpaces(text))
    }

    /// The checkout that holds `folder` (the nearest folder above it with `.git`) when it is inside
    /// what may be read, else `folder`.
    static func repositoryFolder(of folder: String) -> String {
        var directory = folder
        for _ in 0..<32 {
            if FileSystem.exists(directory + "/.git") { return Workspace.isConfined(directory) ? directory : folder }
            let parent = Paths.directoryName(of: directory)
            guard parent != directory, directory != ".", Workspace.isConfined(parent) else { break }
            directory = parent
        }
        return folder
    }

    /// Settings the evidence and the rules read.
    static let neededSettings = [
        XcodeProject.SettingKey.productBundleIdentifier, XcodeProject.SettingKey.developmentTeam, XcodeProject.SettingKey.codeSignStyle,
        XcodeProject.SettingKey.provisioningProfileSpecifier, XcodeProject.SettingKey.provisioningProfile, XcodeProject.SettingKey.sdkRoot, XcodeProject.SettingKey.codeSignEntitlements,
        XcodeProject.SettingKey.infoPlistFile, XcodeProject.SettingKey.productName, "SUPPORTED_PLATFORMS",
        XcodeProject.SettingKey.iOSDeploymentTarget, XcodeProject.SettingKey.macOSDeploymentTarget, XcodeProject.SettingKey.tvOSDeploymentTarget,
        XcodeProject.SettingKey.watchOSDeploymentTarget, XcodeProject.SettingKey.visionOSDeploymentTarget,
    ]

    /// The facts of the chosen target's build settings. A value that still holds `$(…)` is kept
    /// aside as unresolved: it is never adopted, compared or shown as a bundle ID or team.
    static func loadBuildSettings(
        _ settings: BuildSettings, of target: XcodeProject.Target, in xcodeProject: XcodeProject, configuration: String,
        into project: inout Project
    ) {
        project.evidence.targetName = target.name
        project.evidence.configurationName = settings.configuration
        project.evidence.missingConfigurationFiles = settings.missingFiles
        project.evidence.absentGeneratedFiles = settings.absentGeneratedFiles
        project.evidence.caseMismatches = settings.caseMismatches
        project.evidence.hasInAppPurchaseCapability = target.hasInAppPurchaseCapability
        project.evidence.linksStoreKit = target.linksStoreKit
        var facts: [String: Fact<String>] = [:]
        for key in neededSettings {
            guard let value = settings.value(key) else { continue }
            if BuildSettings.isResolved(value.value), value.value.isEmpty, key == XcodeProject.SettingKey.productBundleIdentifier {
                // Set to nothing: Xcode cannot build the app so, so the build gets it elsewhere.
                project.evidence.emptySettings[key] = value
            } else if BuildSettings.isResolved(value.value) {
                facts[key] = value
                let undefined = settings.undefinedReferences(of: key)
                if !undefined.isEmpty { project.evidence.undefinedReferences[key] = undefined }
            } else {
                project.evidence.unresolvedSettings[key] = value
                if let hint = XCConfigFile.templateHint(for: settings.missingFiles, names: BuildSettings.unresolvedNames(in: value.value) + [key]) {
                    project.evidence.templateHints[key] = hint
                }
            }
        }
        project.evidence.buildSettings = facts
        project.evidence.runningBundleID = facts[XcodeProject.SettingKey.productBundleIdentifier]
        project.evidence.appName = facts[XcodeProject.SettingKey.productName].flatMap { $0.value.isEmpty ? nil : $0 }
        if let platform = Platform(sdk: settings.sdk) {
            project.evidence.platform = Fact(
                platform, at: facts[XcodeProject.SettingKey.sdkRoot]?.location ?? SourceLocation(file: xcodeProject.file), source: .pbxproj)
        }
        var others: [String: Fact<String>] = [:]
        for name in target.configurationNames where name != settings.configuration {
            if let bundle = xcodeProject.bundleIdentifier(target: target, configuration: name), !bundle.value.isEmpty, BuildSettings.isResolved(bundle.value) {
                others[name] = bundle
            }
        }
        project.evidence.otherConfigurationBundleIDs = others
        adopt(facts[XcodeProject.SettingKey.developmentTeam], into: \Project.signing.teamID, subject: "the signing team", item: ChecklistID.codeSigning.rawValue,
              key: .signingTeamID, project: &project)
        if let style = facts[XcodeProject.SettingKey.codeSignStyle], let parsed = SigningStyle(spelling: style.value) {
            let styleFact = Fact(parsed.rawValue, at: style.location, source: style.source)
            if let stated = project.signing.style, stated.source == .descriptor, stated.value != parsed {
                project.evidence.disagreements.append(Evidence.Disagreement(
                    subject: "the signing style", checklistItem: ChecklistID.codeSigning.rawValue, descriptor: stated.map(\.rawValue),
                    file: styleFact, key: DescriptorKeyPath(.signingStyle)))
            }
            project.signing.style = Fact(parsed, at: style.location, source: style.source)
        }
        let platform = project.app.platform?.value ?? Platform(sdk: settings.sdk) ?? .ios
        if let deploymentTarget = facts[deploymentTargetKey(platform)] {
            adopt(deploymentTarget, into: \Project.app.deploymentTarget, subject: "the deployment target", item: ChecklistID.osVersion.rawValue,
                  key: .appDeploymentTarget, project: &project)
        }
        if let specifier = facts[XcodeProject.SettingKey.provisioningProfileSpecifier], !specifier.value.isEmpty {
            adopt(specifier, into: \Project.signing.profile.name, subject: "the provisioning profile", item: ChecklistID.codeSigning.rawValue,
                  key: .signingProfileName, project: &project)
        }
    }

    /// A profile's facts replace the descriptor's (disagreements recorded).
    static func adoptProfile(_ profile: ProvisioningProfile, into project: inout Project, dates: Bool = true) {
        project.evidence.profile = profile
        adopt(profile.name, into: \Project.signing.profile.name, subject: "the profile's name", item: ChecklistID.provisioningProfile.rawValue,
              key: .signingProfileName, project: &project)
        adopt(profile.applicationIdentifier, into: \Project.signing.profile.appID, subject: "the profile's App ID",
              item: ChecklistID.provisioningProfile.rawValue, key: .signingProfileAppID, project: &project)
        if dates {
            adoptDate(profile.creationDate, into: \Project.signing.profile.createdAt, subject: "the profile's creation date",
                      key: .signingProfileCreatedAt, project: &project)
            adoptDate(profile.expirationDate, into: \Project.signing.profile.expiresAt, subject: "the profile's expiry date",
                      key: .signingProfileExpiresAt, project: &project)
        }
        if project.signing.profile.type == nil {
            project.signing.profile.type = Fact(profile.type, at: SourceLocation(file: profile.file), source: .profile)
        }
    }

    /// Uses the file's fact; records a disagreement when the descriptor said something else.
    static func adopt(
        _ fileFact: Fact<String>?, into slot: WritableKeyPath<Project, Fact<String>?>, subject: String, item: String, key: DescriptorKey,
        project: inout Project
    ) {
        guard let fileFact else { return }
        if let stated = project[keyPath: slot], stated.source == .descriptor, stated.value != fileFact.value {
            project.evidence.disagreements.append(
                Evidence.Disagreement(subject: subject, checklistItem: item, descriptor: stated, file: fileFact, key: DescriptorKeyPath(key)))
        }
        project[keyPath: slot] = fileFact
    }

    static func adoptDate(
        _ fileFact: Fact<Timestamp>?, into slot: WritableKeyPath<Project, Fact<Timestamp>?>, subject: String, key: DescriptorKey,
        project: inout Project
    ) {
        guard let fileFact else { return }
        if let stated = project[keyPath: slot], stated.source == .descriptor, abs(stated.value - fileFact.value) >= 86400 {
            project.evidence.disagreements.append(
                Evidence.Disagreement(
                    subject: subject, checklistItem: ChecklistID.provisioningProfile.rawValue, descriptor: stated.map(\.description),
                    file: fileFact.map(\.description), key: DescriptorKeyPath(key)))
        }
        project[keyPath: slot] = fileFact
    }

    /// The build setting that holds `platform`'s deployment target.
    public static func deploymentTargetKey(_ platform: Platform) -> String {
        switch platform {
        case .ios, .ipados: return "IPHONEOS_DEPLOYMENT_TARGET"
        case .macos: return "MACOSX_DEPLOYMENT_TARGET"
        case .tvos: return "TVOS_DEPLOYMENT_TARGET"
        case .watchos: return "WATCHOS_DEPLOYMENT_TARGET"
        case .visionos: return "XROS_DEPLOYMENT_TARGET"
        }
    }
}
