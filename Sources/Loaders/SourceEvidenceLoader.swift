import CodeScanner
import Formats
import Model

extension EvidenceLoader {
    /// Reads `app.product_id_lists` and scans `app.sources`: the requested IDs, and everything the
    /// scanner's rules report (unresolved call sites, groups, secrets, problems, empty lists).
    static func loadRequests(
        lists: [(named: Fact<String>, contents: ProductIDList.Contents)], into project: inout Project, problems: inout [Finding]
    ) {
        for (named, contents) in lists {
            project.requests += contents.ids
            project.evidence.sources.secrets += contents.secrets
            if contents.ids.isEmpty {
                let file = Paths.resolve(named.value, relativeTo: project.baseDirectory)
                project.evidence.sources.emptyLists.append(Fact(file, at: SourceLocation(file: file), source: .productList))
            }
        }
        guard !project.app.sources.isEmpty else { return }
        var roots: [String] = []
        for named in project.app.sources {
            let root = Paths.resolve(named.value, relativeTo: project.baseDirectory)
            do throws(FileSystem.Problem) {
                try Workspace.checkInput(root)
                roots.append(root)
            } catch {
                problems.append(InputProblem.unreadable(
                    error, at: named.location, notes: ["the folder is named in `app.sources` at \(named.location)"]).finding)
            }
        }
        // `#if os(…)` branches follow the app's platform; iPadOS apps build for iOS.
        let platform = (project.app.platform ?? project.evidence.platform).map { $0.value == .ipados ? "ios" : $0.value.rawValue }
        let parsed = project.parsedFiles
        let scan = SourceScanner.scan(
            paths: roots, baseDirectory: "", root: Workspace.confinement?.real, platform: platform,
            bundleIdentifier: (project.app.bundleID ?? project.evidence.runningBundleID)?.value, bundle: bundleFiles(project),
            reader: { path, maxBytes in
            do throws(FileSystem.Problem) {
                let bytes = try FileSystem.readBytes(path, maxBytes: maxBytes)
                parsed.note(path)
                return .success(bytes)
            } catch {
                return .failure(SourceScanner.ReadFailure(error.message))
            }
        })
        var evidence = project.evidence.sources
        evidence.sourcesKey = project.app.sources[0].location
        evidence.absentSubmodules = GitSubmodules.absent(overlapping: roots)
        evidence.filesScanned = scan.filesScanned
        evidence.importedLibraries = scan.importedLibraries
        evidence.crossPlatformLibraries = scan.importedLibraries.filter(SourceScanner.crossPlatformLibraries.contains)
        evidence.launchCommands = evidence.crossPlatformLibraries.compactMap(SourceScanner.launchCommand(ofLibrary:))
            .reduce(into: []) { if !$0.contains($1) { $0.append($1) } }
        // A library whose pinned version calls only StoreKit 1 is one more StoreKit 1 library.
        let pinned = LockedVersions.storeKit1Only(evidence.crossPlatformLibraries, roots: roots)
        evidence.pluginsUseStoreKit1 = !evidence.crossPlatformLibraries.isEmpty
            && evidence.crossPlatformLibraries.allSatisfy { SourceScanner.storeKit1Libraries.contains($0) || pinned[$0] != nil }
        evidence.storeKitSwitches = evidence.crossPlatformLibraries.filter { pinned[$0] == nil }.compactMap(SourceScanner.storeKitSwitch(ofLibrary:))
            .reduce(into: []) { if !$0.contains($1) { $0.append($1) } }
        evidence.mentionsStoreKit = scan.usesStoreKit1 || scan.usesStoreKit2
        evidence.importsStoreKitForReviews = scan.importsStoreKitForReviews
        evidence.unreadLibraries = scan.unreadLibraries
        evidence.paymentChecks = scan.paymentChecks.sorted().map { Fact($0.name, at: Self.location($0.location), source: .code) }
        for problem in scan.problems {
            if problem.kind == .missing, let named = project.app.sources.first(where: {
                Paths.resolve($0.value, relativeTo: project.baseDirectory) == problem.path
            }) {
                // A typo in `app.sources`: an input that cannot be read, like any other named file;
                // or a submodule a clone did not check out, which says how to get it.
                let submodule = GitSubmodules.absent(overlapping: [problem.path]).first
                problems.append(Finding(
                    rule: RuleID.inputUnreadable.rawValue, severity: .error, checklist: nil,
                    message: "cannot read `\(named.value)`: no such file or folder",
                    help: submodule == nil ? "check the path; `app.sources` paths are relative to the descriptor's folder"
                        : "run `git submodule update --init --recursive` in the repository, then check again",
                    notes: submodule.map { ["`\($0.value)` is a git submodule (\($0.location)) that is not checked out"] } ?? [],
                    location: named.location))
            } else {
                evidence.problems.append(Fact(problem.message, at: SourceLocation(file: problem.path), source: .code))
            }
        }
        for unresolved in scan.unresolved {
            var note = SourceEvidence.UnresolvedRequest(
                location: location(unresolved.location), api: unresolved.api, argument: unresolved.argument,
                reason: unresolved.reason, kind: SourceEvidence.UnresolvedRequest.Kind(rawValue: unresolved.kind.rawValue) ?? .unresolved)
            note.isGroup = unresolved.isGroup
            evidence.unresolved.append(note)
        }
        evidence.subscriptionGroups = scan.subscriptionGroups.map {
            SourceEvidence.ShownGroup(id: Fact($0.groupID, at: location($0.location), source: .code), api: $0.api)
        }
        evidence.secrets += scan.secrets.map { SourceEvidence.Secret(location: location($0.location), name: $0.name, value: $0.value) }
        // Library configuration files in the scanned folders (MKStoreKit's) are product ID lists.
        let named = Set(project.app.productIDLists.map { Paths.resolve($0.value, relativeTo: project.baseDirectory) })
        for file in scan.libraryConfigurationFiles where !named.contains(file) {
            do throws(InputProblem) {
                let contents = try ProductIDList.read(path: file)
                project.parsedFiles.note(file)
                project.requests += contents.ids
                evidence.secrets += contents.secrets
                if contents.ids.isEmpty { evidence.emptyLists.append(Fact(file, at: SourceLocation(file: file), source: .productList)) }
            } catch {
                evidence.problems.append(Fact(error.finding.message, at: error.finding.location ?? SourceLocation(file: file), source: .productList))
            }
        }
        project.evidence.sources = evidence
        for reference in scan.revenueCat {
            let use = RevenueCatEvidence.CodeUse(
                value: reference.value, location: location(reference.location), api: reference.api, call: location(reference.call), written: reference.written,
                debugOnly: reference.debugOnly)
            switch reference.kind {
            case .apiKey: project.evidence.revenueCat.keys.append(use)
            case .offering: project.evidence.revenueCat.offeringIDs.append(use)
            }
        }
        project.evidence.revenueCat.fetches = evidence.unresolved.filter { $0.kind == .offerings }.map(\.location)

        project.evidence.usesStoreKit1 = scan.usesStoreKit1
        project.evidence.usesStoreKit2 = scan.usesStoreKit2
        project.evidence.storeKit2Uses = scan.storeKit2Uses.map {
            Evidence.StoreKit2Use(api: $0.api, location: location($0.location), guardedMinimum: $0.guardedMinimum, unavailable: $0.unavailable)
        }
        project.evidence.sourcesScanned = scan.filesScanned
        let known = Set(project.requests.map { "\($0.value)@\($0.location)" })
        for request in scan.requests where !known.contains("\(request.id)@\(location(request.location))") {
            project.requests.append(Fact(request.id, at: location(request.location), source: .code))
        }
        if project.app.storeKitAPI == nil, scan.usesStoreKit1 || scan.usesStoreKit2 {
            let api: StoreKitAPI = scan.usesStoreKit1 && scan.usesStoreKit2 ? .both : (scan.usesStoreKit2 ? .storekit2 : .storekit1)
            let where_ = scan.requests.first.map { EvidenceLoader.location($0.location) } ?? SourceLocation(file: project.app.sources[0].value)
            project.app.storeKitAPI = Fact(api, at: where_, source: .code)
        }
    }

    /// The Info.plist's string values and a reader for the property lists the app ships, for
    /// code that reads them by key or by name.
    static func bundleFiles(_ project: Project) -> BundleFiles {
        var infoPlist: [String: [BundleString]] = [:]
        // The descriptor's Info.plist, or the one the chosen target's build settings name.
        var path = project.app.infoPlist.map { Paths.resolve($0.value, relativeTo: project.baseDirectory) }
        if path == nil, let file = project.evidence.buildSettings[XcodeProject.SettingKey.infoPlistFile]?.value,
           let xcodeproj = project.app.xcodeproj {
            let projectFolder = Paths.directoryName(of: Paths.resolve(xcodeproj.value, relativeTo: project.baseDirectory))
            path = Paths.resolve(file, relativeTo: projectFolder)
        }
        if let path, let plist = try? PropertyList.load(path: path, what: "Info.plist"), case .dictionary(let entries, _) = plist {
            for entry in entries {
                // `$(…)` is expanded with the target's build settings; a value still not resolved
                // is left out (unknown, never guessed).
                func string(_ value: PlistValue, key: String?) -> BundleString? {
                    guard case .string(let text, let where_) = value else { return nil }
                    let expanded = text.contains("$") ? project.evidence.settingsExpansion.map { $0.expand(text) } : text
                    guard let expanded, BuildSettings.isResolved(expanded) else { return nil }
                    return BundleString(key: key, value: expanded, location: codeLocation(where_))
                }
                switch entry.value {
                case .string:
                    infoPlist[entry.key] = string(entry.value, key: nil).map { [$0] }
                case .array(let values, _):
                    infoPlist[entry.key] = values.compactMap { string($0, key: nil) }
                case .dictionary(let pairs, _):
                    infoPlist[entry.key] = pairs.compactMap { string($0.value, key: $0.key) }
                default:
                    break
                }
            }
        }
        // A plist the code reads by name, as it is: an array's strings, a dictionary's entries
        // (each string of a value that is a list, each key of one that is a dictionary). Which of
        // them are IDs is what the code does with them (`.keys`, `["Products"]`, the array itself).
        let parsed = project.parsedFiles
        return BundleFiles(infoPlist: infoPlist) { path in
            guard let plist = try? PropertyList.load(path: path, what: "property list") else { return nil }
            parsed.note(path)
            func strings(_ value: PlistValue, key: String?) -> [BundleString] {
                switch value {
                case .string(let text, let where_): return [BundleString(key: key, value: text, location: codeLocation(where_))]
                case .array(let values, _): return values.flatMap { strings($0, key: key) }
                case .dictionary(let entries, _):
                    return entries.map { BundleString(key: key, value: $0.key, location: codeLocation($0.keyLocation)) }
                default: return []
                }
            }
            switch plist {
            case .array(let values, _): return values.flatMap { strings($0, key: nil) }
            case .dictionary(let entries, _): return entries.flatMap { entry in strings(entry.value, key: entry.key) }
            default: return nil
            }
        }
    }

    static func codeLocation(_ location: SourceLocation) -> CodeLocation {
        CodeLocation(file: location.file, line: location.line, column: location.column, endLine: location.endLine, endColumn: location.endColumn)
    }

    static func location(_ location: CodeLocation) -> SourceLocation {
        SourceLocation(
            file: location.file, line: location.line, column: location.column, endLine: location.endLine, endColumn: location.endColumn)
    }
}

extension SourceEvidence {
    /// The files the scan reads, for messages about sources that hold none.
    public static let fileKinds = SourceScanner.sourceKinds
}
