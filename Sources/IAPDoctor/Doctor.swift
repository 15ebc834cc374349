import Foundation
import Formats
import Model
import Loaders
import RuleEngine
import Reporters

/// One `iapdoctor check`: load the inputs and the configuration, run the engine, return the
/// diagnosis. The executable only parses arguments and prints.
public struct Doctor: Sendable {
    public var engine: Engine

    public init(engine: Engine) {
        self.engine = engine
    }

    public struct Request: Sendable {
        public var paths: [String]
        /// `--rules FILE`; when `nil`, `.iapdoctor.yml` beside the descriptor is used if present.
        public var rulesFile: String?
        public var failOn: Severity?
        /// Checks as if the descriptor said this `environment` (e.g. `review` before submitting).
        public var environment: Environment?
        /// `--root`: the folder every path an input names must stay inside. `nil`: the
        /// descriptor's folder (a run without a descriptor confines only screenshots, to their package).
        public var root: String?
        /// `--profiles-dir`: where installed provisioning profiles are looked up.
        public var profilesDirectories: [String]?
        /// `--asc`: an App Store Connect snapshot file or folder (over `app_store_connect.snapshot`).
        public var ascSnapshot: String?
        /// `--revenuecat`: a RevenueCat snapshot file (over `revenuecat.snapshot`).
        public var revenueCatSnapshot: String?
        /// Keep every finding past the per-rule listing limit, for a report that lists them all
        /// (``Reporter/listsEveryFinding``): JSON and SARIF.
        public var listsEveryFinding: Bool
        /// Read the source lines the listed findings point at, for a report that quotes them
        /// (``Reporter/quotesSources``): text, and the HTML and Markdown reports.
        public var quotesSources: Bool
        /// `--baseline`: findings accepted before (``Baseline``), left out of this check.
        public var baseline: [String: Int] = [:]

        public init(
            paths: [String], rulesFile: String? = nil, failOn: Severity? = .error, environment: Environment? = nil, root: String? = nil,
            profilesDirectories: [String]? = nil, ascSnapshot: String? = nil, revenueCatSnapshot: String? = nil, listsEveryFinding: Bool = false,
            quotesSources: Bool = true
        ) {
            self.revenueCatSnapshot = revenueCatSnapshot
            self.listsEveryFinding = listsEveryFinding
            self.quotesSources = quotesSources
            self.ascSnapshot = ascSnapshot
            self.profilesDirectories = profilesDirectories
            self.paths = paths
            self.rulesFile = rulesFile
            self.failOn = failOn
            self.environment = environment
            self.root = root
        }
    }

    public typealias InputKind = Loaders.InputKind

    public static func kind(of path: String) -> InputKind { InputKind(path: path) }

    public func check(_ request: Request) -> Diagnosis {
        // Every path the command line names is an input, read or not (never an --output).
        for path in request.paths + [request.rulesFile, request.ascSnapshot, request.revenueCatSnapshot].compactMap({ $0 }) {
            Workspace.noteNamed(path)
            Workspace.noteNamed(CatalogPackage.metadataPath(for: path))
        }
        let descriptor = request.paths.first { Doctor.kind(of: $0) == .descriptor }
        let root = request.root ?? descriptor.map { Paths.directoryName(of: $0) }
        if let root, !FileSystem.isDirectory(root) || root.utf8.contains(0) {
            var project = Project(descriptorFile: descriptor ?? "", baseDirectory: ".")
            project.hasDescriptor = descriptor != nil
            project.descriptor = nil
            let problem = Finding(
                rule: RuleID.inputUnreadable.rawValue, severity: .error, checklist: nil,
                message: "the project root `\(Paths.shown(root))` is not a folder",
                help: "give --root the folder that holds the descriptor and every file it names",
                location: SourceLocation(file: "--root"))
            return engine.diagnose(project, inputProblems: [problem], options: Engine.Options(failOn: request.failOn, inputs: request.paths))
        }
        var diagnosis = Workspace.withConfinement(root: root) { confinedCheck(request) }
        if request.quotesSources { diagnosis.quoteSources() }
        return diagnosis
    }

    private func confinedCheck(_ request: Request) -> Diagnosis {
        let descriptors = request.paths.filter { Doctor.kind(of: $0) == .descriptor }
        let catalogPaths = request.paths.filter { Doctor.kind(of: $0) == .catalog }
        let storeKitPaths = request.paths.filter { Doctor.kind(of: $0) == .storeKit }
        var problems: [Finding] = []
        var project: Project
        if let path = descriptors.first {
            let loaded = DescriptorLoader.load(path: path)
            project = loaded.project
            problems += loaded.problems
            // Its lines are quoted under findings when it parsed, or when it is a file of its own
            // (not a link, which could lead to a secret that fails to parse as YAML).
            if !loaded.isUnusable || !FileSystem.isSymbolicLink(path) { project.parsedFiles.note(path) }
            // Every path the descriptor names is an input, even when an error stops the run first.
            for named in project.namedPaths + loaded.mentionedValues {
                let resolved = Paths.resolve(named, relativeTo: project.baseDirectory)
                Workspace.noteNamed(resolved)
                Workspace.noteNamed(CatalogPackage.metadataPath(for: resolved))
            }
            for extra in descriptors.dropFirst() {
                problems.append(Finding(
                    rule: RuleID.inputUnreadable.rawValue, severity: .error, checklist: nil,
                    message: "only one project descriptor can be checked at a time; `\(extra)` is a second one",
                    help: "run iapdoctor once per descriptor", location: SourceLocation(file: extra)))
            }
        } else {
            let builds = request.paths.filter { Doctor.kind(of: $0) == .build }
            project = Project(descriptorFile: catalogPaths.first ?? storeKitPaths.first ?? builds.first ?? "", baseDirectory: ".")
            project.hasDescriptor = false
        }
        // A descriptor kept outside its project (`init DIR -o elsewhere.yaml`) names the project's
        // folder; that widens what may be read, so it counts only for a descriptor that is no
        // file of a checkout (no `.git` above it) and lies outside the folder it names: a
        // descriptor in a pull request can never widen its own confinement.
        if request.root == nil, let stated = project.projectRoot {
            let folder = Paths.resolve(stated.value, relativeTo: project.baseDirectory)
            let descriptorFolder = Paths.directoryName(of: project.descriptorFile)
            if FileSystem.isInsideGitWorkTree(descriptorFolder) || Paths.isWithin(descriptorFolder, folder) || !FileSystem.isDirectory(folder) {
                problems.append(Finding(
                    rule: RuleID.descriptorInvalidValue.rawValue, severity: .warning, checklist: nil,
                    message: "`project_root` is not used: it counts only for a descriptor outside both the folder it names and any git checkout, and names a folder",
                    help: "remove `project_root`, or pass `--root \(Paths.shown(folder))` on the command line",
                    location: stated.location))
            } else {
                return Workspace.withConfinement(root: folder) { finishCheck(request, project: project, problems: problems, storeKitPaths: storeKitPaths, catalogPaths: catalogPaths) }
            }
        }
        return finishCheck(request, project: project, problems: problems, storeKitPaths: storeKitPaths, catalogPaths: catalogPaths)
    }

    private func finishCheck(_ request: Request, project: Project, problems: [Finding], storeKitPaths: [String], catalogPaths: [String]) -> Diagnosis {
        let descriptors = request.paths.filter { Doctor.kind(of: $0) == .descriptor }
        var project = project
        var problems = problems
        project.profileFolders = request.profilesDirectories
        if let environment = request.environment, project.hasDescriptor {
            project.environment = Fact(environment, at: SourceLocation(file: "--environment"))
        }
        // The files the descriptor points at (only when it could be read).
        if project.hasDescriptor, !problems.contains(where: { $0.severity == .error }) {
            project.revenueCat.commandLineSnapshot = request.revenueCatSnapshot
            problems += EvidenceLoader.load(into: &project)
            problems += loadSnapshot(request, into: &project)
        }
        // The descriptor's build (relative to its folder, confined to it), then the command line's.
        var builds: [(path: String, named: Fact<String>?)] = []
        if project.hasDescriptor, let named = project.app.build {
            builds.append((Paths.resolve(named.value, relativeTo: project.baseDirectory), named))
        }
        builds += request.paths.filter { Doctor.kind(of: $0) == .build }.map { ($0, nil) }
        let listNames = project.productListNames
        for (path, named) in builds {
            do throws(InputProblem) {
                let built: BuiltApp
                if named != nil {
                    // The descriptor's: inside the project, like every path it names.
                    do throws(FileSystem.Problem) {
                        try Workspace.checkInput(path)
                    } catch {
                        throw InputProblem.unreadable(error, at: SourceLocation(file: path))
                    }
                    built = try BuiltApp.load(path: path, listNames: listNames)
                } else {
                    // Named on the command line: the user's choice, not confined to the descriptor's folder.
                    built = try Workspace.withConfinement(root: nil) { () throws(InputProblem) in
                        try BuiltApp.load(path: path, listNames: listNames)
                    }
                }
                if let archive = built.archive { project.parsedFiles.note(archive.file) }
                project.parsedFiles.note(built.infoPlist)
                if let profile = built.profile { project.parsedFiles.note(profile.file) }
                project.builtApps.append(built)
                problems += built.problems
            } catch {
                var finding = error.finding
                if let named {
                    finding.notes.append("`\(named.value)` is `app.build` at \(named.location); paths there are relative to the descriptor's folder")
                    finding.related.append(RelatedSpan(named.location, label: "named here"))
                }
                problems.append(finding)
            }
        }
        project.adoptRunningBuild()
        for path in storeKitPaths where !project.storeKitFiles.contains(where: { $0.file == path }) {
            do {
                // Named on the command line: the user's choice, not confined to the descriptor's folder.
                project.storeKitFiles.append(try Workspace.withConfinement(root: nil) { () throws(InputProblem) in
                    try StoreKitConfiguration.load(path: path)
                })
                project.parsedFiles.note(path)
            } catch {
                problems.append(error.finding)
            }
        }
        // The configuration first: the catalogs' items are checked, as they stream by, with the
        // rules and options it sets.
        var configurationProblems: [Finding] = []
        var configuration = Configuration()
        let configPath = request.rulesFile ?? {
            guard project.hasDescriptor else { return nil }
            let beside = Paths.resolve(Configuration.defaultFileName, relativeTo: project.baseDirectory)
            return FileSystem.exists(beside) ? beside : nil
        }()
        if let configPath {
            do {
                // `--rules` is the user's choice; `.iapdoctor.yml` beside the descriptor is inside its folder.
                configuration = try Workspace.withConfinement(root: nil) { () throws(ConfigurationError) in
                    try Configuration.load(path: configPath, ruleSet: engine.ruleSet)
                }
                project.parsedFiles.note(configPath)
                configurationProblems += configuration.apply(to: engine.ruleSet).ruleSet.invalidPatterns()
            } catch {
                if !FileSystem.isSymbolicLink(configPath) { project.parsedFiles.note(configPath) }
                configurationProblems += error.problems
            }
        }
        var options = Engine.Options(configuration: configuration, failOn: request.failOn, inputs: [], keepsUnlisted: request.listsEveryFinding)
        // The descriptor's catalogs first (resolved from its folder), then the command line's.
        var seen = Set<String>()
        let listed = project.catalogs.map { ($0.value, Paths.resolve($0.value, relativeTo: project.baseDirectory), Optional($0.location)) }
        for (written, path, location) in listed + catalogPaths.map({ ($0, $0, nil as SourceLocation?) }) {
            let file = CatalogPackage.metadataPath(for: path)
            guard seen.insert(file).inserted else { continue }
            if location != nil {
                // A descriptor's `catalogs` stay inside the project; the command line's are the user's choice.
                do throws(FileSystem.Problem) {
                    try Workspace.checkInput(path)
                } catch {
                    problems.append(InputProblem.unreadable(
                        error, at: location, notes: location.map { ["`\(Paths.shown(written))` is listed in `catalogs` at \($0)"] } ?? []).finding)
                    continue
                }
            }
            do {
                let scanned = try engine.scanCatalog(path: path, configuration: configuration, keepingUnlisted: request.listsEveryFinding)
                project.parsedFiles.note(scanned.package.file)
                options.add(scanned, to: &project)
            } catch {
                var finding = error.finding
                if let location, finding.rule == RuleID.inputUnreadable.rawValue {
                    finding.notes.append("`\(written)` is listed in `catalogs` at \(location); paths there are relative to the descriptor's folder")
                    finding.related.append(RelatedSpan(location, label: "listed here"))
                }
                problems.append(finding)
            }
        }
        problems += configurationProblems
        // Inputs as given, then the descriptor's catalogs as resolved.
        var inputs = descriptors + catalogPaths + storeKitPaths + request.paths.filter { Doctor.kind(of: $0) == .build }
        let given = Set(catalogPaths.map(CatalogPackage.metadataPath(for:)))
        for package in project.catalogPackages where !given.contains(package.file) { inputs.append(package.file) }
        for built in project.builtApps where !inputs.contains(built.path) { inputs.append(built.path) }
        if let snapshot = project.ascSnapshot?.snapshot { inputs.append(snapshot.path) }
        if let snapshot = project.evidence.revenueCat.snapshot { inputs.append(snapshot.file) }
        options.inputs = inputs
        options.suppressions.baseline = request.baseline
        if let configPath {
            let folder = Paths.directoryName(of: configPath)
            let current = FileManager.default.currentDirectoryPath
            options.suppressions.ignores = configuration.ignores.map { ignore in
                var ignore = ignore
                ignore.pattern = ignore.path.map { path in
                    let joined = Paths.resolve(path, relativeTo: folder)
                    return Paths.normalize(joined.hasPrefix("/") ? joined : current + "/" + joined)
                }
                return ignore
            }
        }
        let diagnosis = engine.diagnose(project, inputProblems: problems, options: options)
        // `iapdoctor:ignore` directives in the files the findings point at (files iapdoctor
        // parsed, never others): when there are any, the rules' answers are assembled again
        // without what they suppress.
        let directives = Doctor.directives(near: diagnosis.findings, parsed: project.parsedFiles)
        guard !directives.isEmpty else { return diagnosis }
        options.suppressions.directives = directives
        return engine.diagnose(project, inputProblems: problems, options: options)
    }

    /// The directives in each parsed file a finding points at, in file order.
    static func directives(near findings: [Finding], parsed: ParsedFiles) -> [Suppressions.Directive] {
        var files: [String] = []
        var seen: Set<String> = []
        for finding in findings {
            guard let file = finding.location?.file, finding.location?.line ?? 0 > 0, seen.insert(file).inserted else { continue }
            files.append(file)
        }
        var directives: [Suppressions.Directive] = []
        for file in files.sorted() where parsed.contains(file) {
            guard let bytes = try? FileSystem.readBytes(file, maxBytes: 64 << 20), Suppressions.mentionsDirective(bytes) else { continue }
            directives += Suppressions.directives(in: String(decoding: bytes, as: UTF8.self), file: file)
        }
        return directives
    }
}

extension Project {
    /// Every path the descriptor names, as written (relative to its folder): the `app:` files, the
    /// profile, the catalogs. The never-write-an-input guard counts each, read or not.
    public var namedPaths: [String] {
        let single = [app.infoPlist, app.xcodeproj, app.entitlements, app.scheme, app.storeKitConfiguration, app.build, signing.profile.file,
                      appStoreConnect.snapshot, revenueCat.snapshot]
        var paths = single.compactMap { $0?.value }
        if let project = app.xcodeproj?.value { paths.append(project + "/project.pbxproj") }
        paths += app.productIDLists.map(\.value) + app.sources.map(\.value) + catalogs.map(\.value)
        return paths
    }
}

extension Doctor {
    /// The App Store Connect snapshot: `--asc` (the user's choice, not confined), else the
    /// descriptor's `app_store_connect.snapshot` (relative to its folder, confined to it).
    func loadSnapshot(_ request: Request, into project: inout Project) -> [Finding] {
        let named: (path: String, location: SourceLocation, confined: Bool)
        if let given = request.ascSnapshot {
            named = (given, SourceLocation(file: "--asc"), false)
        } else if let stated = project.appStoreConnect.snapshot {
            named = (Paths.resolve(stated.value, relativeTo: project.baseDirectory), stated.location, true)
        } else {
            return []
        }
        do {
            // The user's own `--asc` file is read wherever it is; the files of a folder it names
            // stay inside that folder, as those of a folder the descriptor names stay in the project.
            let root: String? = FileSystem.isDirectory(named.path) ? named.path : nil
            let snapshot = try named.confined
                ? ASCSnapshot.load(path: named.path)
                : Workspace.withConfinement(root: root) { () throws(InputProblem) in try ASCSnapshot.load(path: named.path) }
            project.parsedFiles.note(snapshot.files)
            ASCFacts.apply(snapshot, namedAt: named.location, to: &project)
            return []
        } catch {
            var finding = error.finding
            if named.location.file != "--asc", finding.rule == RuleID.inputUnreadable.rawValue {
                finding.notes.append("the snapshot is named at \(named.location); the path is relative to the descriptor's folder")
            }
            return [finding]
        }
    }
}

extension Diagnosis {
    /// Reads the source lines its reports may quote (``linesToQuote``) from the files the run
    /// parsed, so that reporters open no file.
    public mutating func quoteSources() {
        sourceQuotes = SourceQuotes.read(linesToQuote, of: parsedFiles)
    }
}
