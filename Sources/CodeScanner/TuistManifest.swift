/// What a Tuist manifest (`Project.swift`, with the `Tuist/ProjectDescriptionHelpers` it uses)
/// declares about the project `tuist generate` writes: its targets, their bundle IDs, platforms,
/// Info.plist and entitlements files, and the settings and `.xcconfig` files of each
/// configuration. Values are what ``ManifestEvaluator`` can show from the code; anything else is
/// left out, never guessed.
public struct TuistManifest: Sendable {
    /// A value and where it is written.
    public struct Text: Sendable {
        public var value: String
        public var location: CodeLocation
    }

    /// A path and what it is relative to: the manifest's folder, or the root (the folder holding `Tuist/`).
    public struct Path: Sendable {
        public var path: Text
        public var relativeToRoot: Bool
    }

    public struct Configuration: Sendable {
        public var name: String
        public var settings: [String: Text] = [:]
        public var xcconfig: Path?
    }

    public struct Settings: Sendable {
        public var base: [String: Text] = [:]
        public var configurations: [Configuration] = []
    }

    public struct Target: Sendable {
        public var name: Text
        /// The `Product` case: `app`, `appExtension`, `unitTests`, …
        public var product: String?
        /// The first destination or platform named: `iOS`, `iPhone`, `macOS`, …
        public var platform: String?
        public var bundleID: Text?
        public var deploymentTarget: Text?
        public var infoPlist: Path?
        public var entitlements: Path?
        public var settings = Settings()
    }

    /// A scheme the manifest declares: what Tuist writes as an `.xcscheme`.
    public struct Scheme: Sendable {
        public var name: Text
        /// The target its Run action launches: `runAction(executable:)`, else the build action's first target.
        public var runs: String?
        /// `runAction(options: .options(storeKitConfigurationPath: …))`.
        public var storeKitConfiguration: Path?
    }

    public var name: Text?
    public var settings = Settings()
    public var targets: [Target] = []
    public var schemes: [Scheme] = []

    /// Reads `manifest` with the helper files it may use (each path and text).
    public static func read(manifest: (path: String, text: String), helpers: [(path: String, text: String)]) -> TuistManifest? {
        var evaluator = ManifestEvaluator()
        for file in [manifest] + helpers {
            evaluator.collect(Self.tokens(file.text, path: file.path), file: file.path)
        }
        // `let project = Project(…)`, or a helper that returns one.
        guard let declaration = evaluator.declarations["project"]?.first(where: { $0.file == manifest.path && $0.owners.isEmpty })
                ?? evaluator.declarations["project"]?.first(where: { $0.file == manifest.path })
        else { return nil }
        let project = evaluator.body(declaration.tokens, scope: [:], owners: [], file: manifest.path)
        guard case .call(let callee, _) = project, callee.hasSuffix("Project") || callee == "init" else { return nil }
        var result = TuistManifest()
        result.name = text(project.argument("name"))
        result.settings = settings(project.argument("settings"))
        if case .array(let items)? = project.argument("targets") {
            result.targets = items.compactMap(target)
        }
        if case .array(let items)? = project.argument("schemes") {
            result.schemes = items.compactMap(scheme)
        }
        return result
    }

    static func tokens(_ text: String, path: String) -> [SourceScanner.ExpressionToken] {
        var bytes = Array(text.utf8)
        if bytes.count > 4 << 20 { bytes = Array(bytes.prefix(4 << 20)) }
        return bytes.withUnsafeBufferPointer { buffer -> [SourceScanner.ExpressionToken] in
            var lexer = SourceScanner.Lexer(bytes: buffer, language: .swift)
            lexer.run()
            var summarizer = SourceScanner.Summarizer(bytes: buffer, tokens: lexer.tokens, file: path, language: .swift)
            return summarizer.snapshot(0..<lexer.tokens.count, limit: 1 << 20) ?? []
        }
    }

    static func text(_ value: ManifestEvaluator.Value?) -> Text? {
        guard case .text(let text, let location)? = value else { return nil }
        return Text(value: text, location: location)
    }

    /// `"Config/App.xcconfig"`, `.relativeToRoot("…")`, `.relativeToManifest("…")`, `.file(path: …)`.
    static func path(_ value: ManifestEvaluator.Value?) -> Path? {
        switch value {
        case .text?:
            return text(value).map { Path(path: $0, relativeToRoot: false) }
        case .call(let callee, let arguments)?:
            let inner = arguments.first?.value
            switch callee {
            case "relativeToRoot": return text(inner).map { Path(path: $0, relativeToRoot: true) }
            case "relativeToManifest", "relativeToCurrentFile", "path": return text(inner).map { Path(path: $0, relativeToRoot: false) }
            case "file", "dictionary": return path(value?.argument("path") ?? inner)
            default: return nil
            }
        default:
            return nil
        }
    }

    /// `.settings(base: […], configurations: [.debug(name: .debug, settings: […], xcconfig: …)])`,
    /// and the older `.settings(base:, debug:, release:)`.
    static func settings(_ value: ManifestEvaluator.Value?) -> Settings {
        var result = Settings()
        guard case .call? = value else { return result }
        result.base = dictionary(value?.argument("base"))
        if case .array(let items)? = value?.argument("configurations") {
            for item in items {
                guard case .call(let kind, _) = item else { continue }
                let name = configurationName(item.argument("name")) ?? (kind == "debug" ? "Debug" : kind == "release" ? "Release" : nil)
                guard let name else { continue }
                result.configurations.append(Configuration(
                    name: name, settings: dictionary(item.argument("settings")), xcconfig: path(item.argument("xcconfig"))))
            }
        }
        for (label, name) in [("debug", "Debug"), ("release", "Release")] {
            guard let configuration = value?.argument(label) else { continue }
            result.configurations.append(Configuration(
                name: name, settings: dictionary(configuration.argument("settings") ?? configuration), xcconfig: path(configuration.argument("xcconfig"))))
        }
        return result
    }

    /// `.debug` → Debug, `.release` → Release, `"Beta"`, `.configuration("Beta")`.
    static func configurationName(_ value: ManifestEvaluator.Value?) -> String? {
        switch value {
        case .member(let name)?: return name == "debug" ? "Debug" : name == "release" ? "Release" : name
        case .text(let text, _)?: return text
        case .call(_, let arguments)?: return arguments.first?.value.text
        default: return nil
        }
    }

    /// A settings dictionary: `"KEY": "value"`, `.string("value")`, `.array([…])` (joined).
    static func dictionary(_ value: ManifestEvaluator.Value?) -> [String: Text] {
        guard case .dictionary(let entries)? = value else { return [:] }
        var result: [String: Text] = [:]
        for (key, value) in entries {
            switch value {
            case .text(let text, let location):
                result[key] = Text(value: text, location: location)
            case .call(let callee, let arguments) where callee == "string":
                if let text = text(arguments.first?.value) { result[key] = text }
            case .array(let items):
                result[key] = joined(items)
            case .call(let callee, let arguments) where callee == "array":
                if case .array(let items)? = arguments.first?.value { result[key] = joined(items) }
            case .member(let name) where name == "true" || name == "false":
                continue
            default:
                continue
            }
        }
        return result
    }

    /// A list setting: its texts joined with spaces, when every item is text.
    static func joined(_ items: [ManifestEvaluator.Value]) -> Text? {
        let texts = items.compactMap(\.text)
        guard texts.count == items.count, let first = items.first, case .text(_, let location) = first else { return nil }
        return Text(value: texts.joined(separator: " "), location: location)
    }

    static func target(_ value: ManifestEvaluator.Value) -> Target? {
        guard case .call(let callee, _) = value, callee == "target" || callee == "Target" || callee.hasSuffix(".target") || callee == "Target.init",
              let name = text(value.argument("name")) else { return nil }
        var target = Target(name: name)
        if case .member(let product)? = value.argument("product") { target.product = product }
        target.platform = platform(value.argument("destinations") ?? value.argument("platform"))
        target.bundleID = text(value.argument("bundleId"))
        if case .call(_, let arguments)? = value.argument("deploymentTargets") ?? value.argument("deploymentTarget") {
            target.deploymentTarget = text(arguments.first { $0.label == nil || $0.label == "targetVersion" }?.value)
        }
        target.infoPlist = path(value.argument("infoPlist"))
        target.entitlements = path(value.argument("entitlements"))
        target.settings = settings(value.argument("settings"))
        return target
    }

    /// `.scheme(name:, buildAction: .buildAction(targets: […]), runAction: .runAction(executable:, options:))`.
    static func scheme(_ value: ManifestEvaluator.Value) -> Scheme? {
        guard case .call(let callee, _) = value, callee == "scheme" || callee == "Scheme" || callee.hasSuffix(".scheme") || callee == "Scheme.init",
              let name = text(value.argument("name")) else { return nil }
        var scheme = Scheme(name: name)
        let run = value.argument("runAction")
        scheme.runs = targetName(run?.argument("executable"))
        if scheme.runs == nil, case .array(let targets)? = value.argument("buildAction")?.argument("targets") {
            scheme.runs = targets.lazy.compactMap { targetName($0) }.first
        }
        scheme.storeKitConfiguration = path(run?.argument("options")?.argument("storeKitConfigurationPath"))
        return scheme
    }

    /// `"App"`, `.target("App")`, `.target(name: "App")`, `.project(path:, target: "App")`, and a
    /// target value itself (`.target(App.target.name)` where `App.target` is `.target(name: …)`).
    static func targetName(_ value: ManifestEvaluator.Value?, depth: Int = 0) -> String? {
        switch value {
        case .text(let text, _)?: return text
        case .call(_, let arguments)? where depth < 4:
            let chosen = arguments.first { $0.label == "target" || $0.label == "name" } ?? arguments.first { $0.label == nil }
            return chosen?.value.text ?? targetName(chosen?.value, depth: depth + 1)
        default: return nil
        }
    }

    static func platform(_ value: ManifestEvaluator.Value?) -> String? {
        switch value {
        case .member(let name)?: return name
        case .array(let items)?: return items.lazy.compactMap { if case .member(let name) = $0 { return name } else { return nil } }.first
        case .call(let callee, _)?: return callee
        default: return nil
        }
    }
}
