import Formats
import Model

/// An XcodeGen project spec (`project.yml`), read as the project `xcodegen generate` would write:
/// the configurations, the project's and each target's settings and `.xcconfig` files, the
/// Info.plist and entitlements paths, and the bundle ID XcodeGen derives from `bundleIdPrefix`.
/// The result is an ``XcodeProject`` whose build settings resolve as any other's; its facts point
/// into the spec files.
///
/// Read as XcodeGen reads it: `include:`d specs first, the including spec over them (mappings
/// merged key by key); paths in an included spec are relative to that spec; `targetTemplates`
/// under the target's own keys, with `${target_name}` replaced; `settings` as a plain mapping or
/// as `base`/`configs`/`groups`, a `configs` entry applying to every configuration whose name
/// contains it.
public enum XcodeGenSpec {
    /// Specs read, includes included (a real project has a few dozen).
    static let maxFiles = 64
    static let maxIncludeDepth = 8
    /// Build configurations made at most: the spec's configurations times its targets and the
    /// project (a real project has a few hundred). Each is a settings table of its own, so a short
    /// spec of a thousand configurations and a thousand targets would otherwise ask for a million.
    static let maxBuildConfigurations = 20_000

    /// Whether `path` names an XcodeGen spec by its name (`project.yml`, `project.yaml`).
    public static func isSpec(_ path: String) -> Bool {
        let name = Paths.fileName(of: path)
        return name == "project.yml" || name == "project.yaml"
    }

    public static func load(path: String) throws(InputProblem) -> XcodeProject {
        var files: [String] = []
        do {
            let tree = try read(path, depth: 0, files: &files, root: Paths.directoryName(of: path))
            var result = try project(from: tree, file: path)
            result.manifestFiles = files
            return result
        } catch {
            var problem = error
            problem.readFiles = files
            throw problem
        }
    }

    // MARK: Reading and merging

    /// The spec at `path` with what it includes merged in; `files` gets each file read.
    static func read(_ path: String, depth: Int, files: inout [String], root: String) throws(InputProblem) -> YAMLTree {
        let bytes: [UInt8]
        do {
            bytes = try FileSystem.readBytes(path, maxBytes: YAMLTreeReader.maxBytes)
        } catch {
            throw InputProblem.unreadable(error, at: SourceLocation(file: path))
        }
        files.append(path)
        let tree: YAMLTree?
        do {
            tree = try YAMLTreeReader.read(bytes: bytes, file: path, nodeBudget: 200_000).tree
        } catch {
            throw InputProblem(Finding(
                rule: RuleID.inputMalformed.rawValue, severity: .error, checklist: nil,
                message: "the XcodeGen spec cannot be read: \(error.message)", help: error.help, location: error.location))
        }
        guard var spec = tree, case .mapping = spec else { return .mapping([], SourceLocation(file: path)) }
        let folder = Paths.directoryName(of: path)
        if depth > 0 { spec = rebasingPaths(spec, from: folder, to: root) }
        var merged = YAMLTree.mapping([], spec.location)
        for include in includes(of: spec) where depth < maxIncludeDepth && files.count < maxFiles {
            let included = Paths.resolve(include.text, relativeTo: folder)
            // Outside the project is decided from the path before the file system is asked, so
            // whether a file exists there never changes the answer.
            do {
                try Workspace.checkInput(included)
            } catch {
                throw InputProblem.unreadable(error, at: include.location)
            }
            guard FileSystem.exists(included) else { continue }
            merged = merge(merged, try read(included, depth: depth + 1, files: &files, root: root))
        }
        return merge(merged, spec)
    }

    /// `include: [a.yml, {path: b.yml}]` (or one of them alone).
    static func includes(of spec: YAMLTree) -> [YAMLScalar] {
        let entries: [YAMLTree]
        switch spec["include"] {
        case .sequence(let items, _)?: entries = items
        case let single?: entries = [single]
        case nil: entries = []
        }
        return entries.compactMap { $0.scalar ?? $0["path"]?.scalar }
    }

    /// The including spec over the included: mappings merge key by key (a key written twice
    /// merges into its first), anything else is replaced.
    static func merge(_ base: YAMLTree, _ over: YAMLTree) -> YAMLTree {
        guard case .mapping = base, case .mapping = over else { return over }
        var merged = MergedMapping(base)
        merged.merge(over)
        return merged.tree
    }

    /// A mapping that mappings are merged into one after another, its keys found through an
    /// index kept across the merges: a merge costs the size of what is merged in, not the
    /// product of the two mappings' sizes.
    struct MergedMapping {
        var pairs: [(key: YAMLScalar, value: YAMLTree)] = []
        var positions: [String: Int] = [:]
        var location: SourceLocation

        init(_ base: YAMLTree) {
            guard case .mapping(let pairs, let location) = base else {
                self.location = base.location
                return
            }
            self.location = location
            self.pairs = pairs
            for (index, pair) in pairs.enumerated() where positions[pair.key.text] == nil { positions[pair.key.text] = index }
        }

        /// Merges `over` in; anything but a mapping replaces what was merged so far, as in ``merge(_:_:)``.
        mutating func merge(_ over: YAMLTree) {
            guard case .mapping(let overPairs, _) = over else {
                pairs = []
                positions = [:]
                return
            }
            for (key, value) in overPairs {
                if let index = positions[key.text] {
                    pairs[index].value = XcodeGenSpec.merge(pairs[index].value, value)
                } else {
                    positions[key.text] = pairs.count
                    pairs.append((key, value))
                }
            }
        }

        var tree: YAMLTree { .mapping(pairs, location) }
    }

    /// An included spec's paths (relative to its `folder`), made relative to the root spec's
    /// folder `root` (XcodeGen's `relativePaths`): `configFiles`, `info.path`, `entitlements.path`.
    static func rebasingPaths(_ spec: YAMLTree, from folder: String, to root: String) -> YAMLTree {
        func rebase(_ scalar: YAMLScalar) -> YAMLScalar {
            var scalar = scalar
            if !scalar.text.hasPrefix("/") { scalar.text = Paths.relativePath(Paths.resolve(scalar.text, relativeTo: folder), from: root) }
            return scalar
        }
        func rebaseValues(_ tree: YAMLTree?) -> YAMLTree? {
            guard case .mapping(let pairs, let location)? = tree else { return tree }
            return .mapping(pairs.map { ($0.key, $0.value.scalar.map { .scalar(rebase($0)) } ?? $0.value) }, location)
        }
        func replacing(_ tree: YAMLTree, _ key: String, _ transform: (YAMLTree?) -> YAMLTree?) -> YAMLTree {
            guard case .mapping(var pairs, let location) = tree, let index = pairs.firstIndex(where: { $0.key.text == key }),
                  let value = transform(pairs[index].value) else { return tree }
            pairs[index].value = value
            return .mapping(pairs, location)
        }
        func rebaseTarget(_ target: YAMLTree) -> YAMLTree {
            var target = replacing(target, "configFiles", rebaseValues)
            for key in ["info", "entitlements"] {
                target = replacing(target, key) { value in value.map { replacing($0, "path") { $0?.scalar.map { .scalar(rebase($0)) } } } }
            }
            return target
        }
        var spec = replacing(spec, "configFiles", rebaseValues)
        for key in ["targets", "targetTemplates"] {
            spec = replacing(spec, key) { targets in
                guard case .mapping(let pairs, let location)? = targets else { return targets }
                return .mapping(pairs.map { ($0.key, rebaseTarget($0.value)) }, location)
            }
        }
        return spec
    }

    // MARK: The project

    static func project(from spec: YAMLTree, file: String) throws(InputProblem) -> XcodeProject {
        let folder = Paths.directoryName(of: file)
        let name = spec["name"]?.scalar?.text ?? ""
        // `configs: {Debug: debug, Release: release}`; XcodeGen's default is these two.
        var configurations: [String] = []
        if case .mapping(let pairs, _)? = spec["configs"] { configurations = pairs.map(\.key.text) }
        if configurations.isEmpty { configurations = ["Debug", "Release"] }
        let groups = settingGroups(spec)
        let projectFiles = configFiles(spec["configFiles"], folder: folder)
        let projectLevel = configurations.map { configuration in
            XcodeProject.BuildConfiguration(
                id: "project:" + configuration, name: configuration, location: spec["name"]?.location ?? SourceLocation(file: file),
                buildSettings: settings(spec["settings"], configuration: configuration, groups: groups),
                baseConfigurationFile: projectFiles[configuration])
        }
        var project = XcodeProject(
            generatedFrom: file, generator: "XcodeGen", name: name, projectDirectory: folder, projectConfigurations: projectLevel,
            defaultConfigurationName: spec["options"]?["defaultConfig"]?.scalar?.text ?? configurations.last)
        let templates = spec["targetTemplates"]
        let bundleIDPrefix = spec["options"]?["bundleIdPrefix"]?.scalar
        let deploymentTargets = spec["options"]?["deploymentTarget"]
        guard case .mapping(let targets, let targetsLocation)? = spec["targets"] else {
            project.loadConfigurationFiles()
            return project
        }
        let made = configurations.count * (targets.count + 1)
        guard made <= maxBuildConfigurations else {
            throw InputProblem(Finding(
                rule: RuleID.inputMalformed.rawValue, severity: .error, checklist: nil,
                message: "the XcodeGen spec declares \(configurations.count) configurations for \(targets.count) targets, "
                    + "\(made) build configurations in all; iapdoctor reads at most \(maxBuildConfigurations)",
                help: "run `xcodegen generate` and name the generated `.xcodeproj` in `app.xcodeproj`",
                location: targetsLocation))
        }
        for (key, declared) in targets.sorted(by: { $0.key.text < $1.key.text }) {
            let target = applyingTemplates(declared, templates: templates, name: key.text)
            let type = target["type"]?.scalar
            let platform = target["platform"]?.scalar
            let files = configFiles(target["configFiles"], folder: folder)
            var presets: [String: Fact<String>] = [:]
            let sdk = platform.flatMap { XcodeProject.sdk(forPlatformName: $0.text) }
            if let platform, let sdk { presets[XcodeProject.SettingKey.sdkRoot] = Fact(sdk, at: platform.location, source: .pbxproj) }
            if let platform, let setting = sdk.flatMap({ XcodeProject.deploymentTargetSetting(sdk: $0) }),
               let version = target["deploymentTarget"]?.scalar ?? deploymentTargets?[platform.text]?.scalar {
                presets[setting] = Fact(version.text, at: version.location, source: .pbxproj)
            }
            if let path = target["info"]?["path"]?.scalar { presets[XcodeProject.SettingKey.infoPlistFile] = Fact(path.text, at: path.location, source: .pbxproj) }
            if let path = target["entitlements"]?["path"]?.scalar {
                presets[XcodeProject.SettingKey.codeSignEntitlements] = Fact(path.text, at: path.location, source: .pbxproj)
            }
            let levels = configurations.map { configuration in
                XcodeProject.BuildConfiguration(
                    id: "target:\(key.text):\(configuration)", name: configuration, location: key.location,
                    buildSettings: presets.merging(settings(target["settings"], configuration: configuration, groups: groups)) { _, own in own },
                    baseConfigurationFile: files[configuration])
            }
            project.targets.append(XcodeProject.Target(
                id: "target:" + key.text, name: key.text, location: key.location,
                productType: type.map { Fact("com.apple.product-type." + $0.text, at: $0.location, source: .pbxproj) },
                configurations: levels, defaultConfigurationName: project.defaultConfigurationName, hasInAppPurchaseCapability: nil,
                developmentTeamAttribute: nil, linksStoreKit: false, storeKitReferenceLocation: nil, sourceFiles: []))
        }
        project.loadConfigurationFiles()
        // The bundle ID XcodeGen writes for a target that sets none at any level.
        if let bundleIDPrefix {
            for index in project.targets.indices {
                for (position, configuration) in project.targets[index].configurations.enumerated() {
                    let resolved = project.settings(target: project.targets[index], configuration: configuration.name)
                    guard case .undefined = resolved.lookup(XcodeProject.SettingKey.productBundleIdentifier, below: Int.max) else { continue }
                    let name = project.targets[index].name.replacingOccurrences(of: "_", with: "-")
                        .filter { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == ".") }
                    project.targets[index].configurations[position].buildSettings[XcodeProject.SettingKey.productBundleIdentifier] =
                        Fact(bundleIDPrefix.text + "." + name, at: bundleIDPrefix.location, source: .pbxproj)
                }
            }
        }
        return project
    }

    /// `targetTemplates` named by the target's `templates`, in order, under the target's own keys.
    static func applyingTemplates(_ target: YAMLTree, templates: YAMLTree?, name: String) -> YAMLTree {
        guard case .sequence(let names, _)? = target["templates"] else { return target }
        var merged = MergedMapping(.mapping([], target.location))
        // A template named twice is written out for the target once; named twice in a row, it
        // is merged once (merging the same mapping again changes nothing).
        var bodies: [String: YAMLTree] = [:]
        var previous: String?
        for template in names.prefix(16) {
            guard let text = template.scalar?.text, text != previous else { continue }
            if bodies[text] == nil {
                guard let body = templates?[text] else { continue }
                bodies[text] = replacingTargetName(body, with: name)
            }
            merged.merge(bodies[text]!)
            previous = text
        }
        merged.merge(target)
        return merged.tree
    }

    static func replacingTargetName(_ tree: YAMLTree, with name: String) -> YAMLTree {
        switch tree {
        case .scalar(var scalar):
            // Both spellings start with `$`: a scalar without one is kept as it is.
            guard scalar.text.utf8.contains(UInt8(ascii: "$")) else { return tree }
            scalar.text = scalar.text.replacingOccurrences(of: "${target_name}", with: name).replacingOccurrences(of: "$target_name", with: name)
            return .scalar(scalar)
        case .mapping(let pairs, let location):
            return .mapping(pairs.map { ($0.key, replacingTargetName($0.value, with: name)) }, location)
        case .sequence(let items, let location):
            return .sequence(items.map { replacingTargetName($0, with: name) }, location)
        }
    }

    static func settingGroups(_ spec: YAMLTree) -> [String: YAMLTree] {
        var groups: [String: YAMLTree] = [:]
        for key in ["settingGroups", "settingPresets"] {
            guard case .mapping(let pairs, _)? = spec[key] else { continue }
            for (name, value) in pairs { groups[name.text] = value }
        }
        return groups
    }

    /// The settings of one configuration: groups, then `base` (or the plain mapping), then every
    /// `configs` entry whose name the configuration's name contains (case aside).
    static func settings(_ tree: YAMLTree?, configuration: String, groups: [String: YAMLTree], depth: Int = 0) -> [String: Fact<String>] {
        guard case .mapping(let pairs, _)? = tree, depth < 8 else { return [:] }
        let structured = pairs.contains { ["base", "configs", "groups"].contains($0.key.text) }
        guard structured else { return flat(tree) }
        var result: [String: Fact<String>] = [:]
        if case .sequence(let names, _)? = tree?["groups"] {
            for name in names {
                guard let text = name.scalar?.text, let group = groups[text] else { continue }
                result.merge(settings(group, configuration: configuration, groups: groups, depth: depth + 1)) { _, new in new }
            }
        }
        result.merge(flat(tree?["base"])) { _, new in new }
        if case .mapping(let variants, _)? = tree?["configs"] {
            for (variant, values) in variants where configuration.lowercased().contains(variant.text.lowercased()) {
                result.merge(settings(values, configuration: configuration, groups: groups, depth: depth + 1)) { _, new in new }
            }
        }
        return result
    }

    /// A mapping of settings: text as is, `true`/`false` as `YES`/`NO`, lists joined with spaces.
    static func flat(_ tree: YAMLTree?) -> [String: Fact<String>] {
        guard case .mapping(let pairs, _)? = tree else { return [:] }
        var result: [String: Fact<String>] = [:]
        for (key, value) in pairs {
            switch value {
            case .scalar(let scalar):
                var text = scalar.text
                if !scalar.isQuoted, ["true", "True", "TRUE", "yes"].contains(text) { text = "YES" }
                if !scalar.isQuoted, ["false", "False", "FALSE", "no"].contains(text) { text = "NO" }
                if scalar.isNull { text = "" }
                result[key.text] = Fact(text, at: scalar.location, source: .pbxproj)
            case .sequence(let items, let location):
                result[key.text] = Fact(items.compactMap(\.scalar?.text).joined(separator: " "), at: location, source: .pbxproj)
            case .mapping:
                continue
            }
        }
        return result
    }

    /// `configFiles: {Debug: Config/Debug.xcconfig}`, resolved from the spec's folder.
    static func configFiles(_ tree: YAMLTree?, folder: String) -> [String: String] {
        guard case .mapping(let pairs, _)? = tree else { return [:] }
        var files: [String: String] = [:]
        for (configuration, path) in pairs {
            if let text = path.scalar?.text { files[configuration.text] = Paths.resolve(text, relativeTo: folder) }
        }
        return files
    }
}
