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

        public init(paths: [String], rulesFile: String? = nil, failOn: Severity? = .error) {
            self.paths = paths
            self.rulesFile = rulesFile
            self.failOn = failOn
        }
    }

    public func check(_ request: Request) -> Diagnosis {
        let path = request.paths.first ?? ""
        let loaded = DescriptorLoader.load(path: path)
        var problems = loaded.problems
        var configuration = Configuration()
        let configPath = request.rulesFile ?? {
            let beside = FileSystem.resolve(Configuration.defaultFileName, relativeTo: loaded.project.baseDirectory)
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
        let options = Engine.Options(configuration: configuration, failOn: request.failOn, inputs: request.paths)
        return engine.diagnose(loaded.project, inputProblems: problems, options: options)
    }
}
