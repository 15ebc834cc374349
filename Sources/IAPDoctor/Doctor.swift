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

        public init(paths: [String], rulesFile: String? = nil, failOn: Severity? = .error, environment: Environment? = nil) {
            self.paths = paths
            self.rulesFile = rulesFile
            self.failOn = failOn
            self.environment = environment
        }
    }

    /// What kind of input a command-line path is.
    public enum InputKind: Sendable, Equatable {
        case descriptor, catalog, storeKit
    }

    public static func kind(of path: String) -> InputKind {
        let lower = path.lowercased()
        if lower.hasSuffix(".yaml") || lower.hasSuffix(".yml") { return .descriptor }
        if lower.hasSuffix(".storekit") { return .storeKit }
        return .catalog
    }

    public func check(_ request: Request) -> Diagnosis {
        let descriptors = request.paths.filter { Doctor.kind(of: $0) == .descriptor }
        let catalogPaths = request.paths.filter { Doctor.kind(of: $0) == .catalog }
        let storeKitPaths = request.paths.filter { Doctor.kind(of: $0) == .storeKit }
        var problems: [Finding] = []
        var project: Project
        if let path = descriptors.first {
            let loaded = DescriptorLoader.load(path: path)
            project = loaded.project
            problems += loaded.problems
            for extra in descriptors.dropFirst() {
                problems.append(Finding(
                    rule: "input-unreadable", severity: .error, checklist: nil,
                    message: "only one project descriptor can be checked at a time; `\(extra)` is a second one",
                    help: "run iapdoctor once per descriptor", location: SourceLocation(file: extra)))
            }
        } else {
            project = Project(descriptorFile: catalogPaths.first ?? storeKitPaths.first ?? "", baseDirectory: ".")
            project.hasDescriptor = false
        }
        if let environment = request.environment, project.hasDescriptor {
            project.environment = Fact(environment, at: SourceLocation(file: "--environment"))
        }
        // The files the descriptor points at (only when it could be read).
        if project.hasDescriptor, !problems.contains(where: { $0.severity == .error }) {
            problems += EvidenceLoader.load(into: &project)
        }
        for path in storeKitPaths where !project.storeKitCatalogs.contains(where: { $0.file == path }) {
            do {
                project.storeKitCatalogs.append(try StoreKitConfiguration.load(path: path))
            } catch {
                problems.append(error.finding)
            }
        }
        // The descriptor's catalogs first (resolved from its folder), then the command line's.
        var seen = Set<String>()
        let listed = project.catalogs.map { ($0.value, FileSystem.resolve($0.value, relativeTo: project.baseDirectory), Optional($0.location)) }
        for (written, path, location) in listed + catalogPaths.map({ ($0, $0, nil as SourceLocation?) }) {
            let file = CatalogPackage.metadataPath(for: path)
            guard seen.insert(file).inserted else { continue }
            do {
                project.catalogPackages.append(try CatalogPackage.load(path: path))
            } catch {
                var finding = error.finding
                if let location, finding.rule == "input-unreadable" {
                    finding.notes.append("`\(written)` is listed in `catalogs` at \(location); paths there are relative to the descriptor's folder")
                }
                problems.append(finding)
            }
        }
        var configuration = Configuration()
        let configPath = request.rulesFile ?? {
            guard project.hasDescriptor else { return nil }
            let beside = FileSystem.resolve(Configuration.defaultFileName, relativeTo: project.baseDirectory)
            return FileSystem.exists(beside) ? beside : nil
        }()
        if let configPath {
            do {
                configuration = try Configuration.load(path: configPath, catalog: engine.catalog)
                problems += configuration.apply(to: engine.catalog).catalog.invalidPatterns()
            } catch {
                problems += error.problems
            }
        }
        // Inputs as given, then the descriptor's catalogs as resolved.
        var inputs = descriptors + catalogPaths + storeKitPaths
        let given = Set(catalogPaths.map(CatalogPackage.metadataPath(for:)))
        for package in project.catalogPackages where !given.contains(package.file) { inputs.append(package.file) }
        let options = Engine.Options(configuration: configuration, failOn: request.failOn, inputs: inputs)
        return engine.diagnose(project, inputProblems: problems, options: options)
    }
}
