import CodeScanner
import Foundation
import Formats
import Model

/// A Tuist manifest (`Project.swift`) read as the project `tuist generate` would write: the
/// targets with their bundle IDs, platforms, Info.plist and entitlements, and the settings and
/// `.xcconfig` files of each configuration, as an ``XcodeProject`` whose settings resolve like a
/// committed one's. The manifest is Swift: ``TuistManifest`` evaluates what it can show and
/// leaves the rest unknown.
public enum TuistProject {
    /// Helper files read at most, and their size each (a helpers folder has a few dozen small files).
    static let maxHelperFiles = 200
    static let maxBytes = 1 << 20

    /// Whether `path` names a Tuist project manifest by its name.
    public static func isManifest(_ path: String) -> Bool {
        Paths.fileName(of: path) == "Project.swift"
    }

    public static func load(path: String) throws(InputProblem) -> XcodeProject {
        let text: String
        do {
            text = String(decoding: try FileSystem.readBytes(path, maxBytes: maxBytes), as: UTF8.self)
        } catch {
            throw InputProblem.unreadable(error, at: SourceLocation(file: path))
        }
        let folder = Paths.directoryName(of: path)
        let root = rootFolder(from: folder)
        let helpers = helperFiles(root: root)
        guard let manifest = TuistManifest.read(manifest: (path, text), helpers: helpers) else {
            var problem = InputProblem(Finding(
                rule: RuleID.inputMalformed.rawValue, severity: .error, checklist: nil,
                message: "`\(path)` declares no `let project = Project(…)` that iapdoctor can read",
                help: "run `tuist generate` and name the generated `.xcodeproj` in `app.xcodeproj`",
                location: SourceLocation(file: path)))
            problem.readFiles = [path]
            throw problem
        }
        var result = project(from: manifest, file: path, folder: folder, root: root)
        result.manifestFiles = [path]
        return result
    }

    /// The folder `tuist` runs from: the nearest one above the manifest with `Tuist/` or `Tuist.swift`.
    static func rootFolder(from folder: String) -> String {
        var directory = folder
        for _ in 0..<16 {
            if FileSystem.isDirectory(directory + "/Tuist") || FileSystem.exists(directory + "/Tuist.swift") { return directory }
            let parent = Paths.directoryName(of: directory)
            guard parent != directory, directory != ".", Workspace.isConfined(parent) else { break }
            directory = parent
        }
        return folder
    }

    static func helperFiles(root: String) -> [(path: String, text: String)] {
        let folder = root + "/Tuist/ProjectDescriptionHelpers"
        var files: [(path: String, text: String)] = []
        var walker = FolderWalker(order: .breadthFirst, maxEntries: 2_000)
        walker.walk(folder: folder, problem: { _ in }) { entry in
            if entry.kind == .folder { return !entry.isLink }
            if entry.name.hasSuffix(".swift"), files.count < maxHelperFiles, let bytes = try? FileSystem.readBytes(entry.path, maxBytes: maxBytes) {
                files.append((entry.path, String(decoding: bytes, as: UTF8.self)))
            }
            return false
        }
        return files.sorted { $0.path < $1.path }
    }

    static func location(_ text: TuistManifest.Text) -> SourceLocation {
        SourceLocation(
            file: text.location.file, line: text.location.line, column: text.location.column,
            endLine: text.location.endLine, endColumn: text.location.endColumn)
    }

    static func fact(_ text: TuistManifest.Text) -> Fact<String> { Fact(text.value, at: location(text), source: .pbxproj) }

    static func facts(_ settings: [String: TuistManifest.Text]) -> [String: Fact<String>] { settings.mapValues(fact) }

    static func project(from manifest: TuistManifest, file: String, folder: String, root: String) -> XcodeProject {
        func resolved(_ path: TuistManifest.Path) -> String {
            Paths.resolve(path.path.value, relativeTo: path.relativeToRoot ? root : folder)
        }
        var names = manifest.settings.configurations.map(\.name)
        for target in manifest.targets { names += target.settings.configurations.map(\.name).filter { !names.contains($0) } }
        if names.isEmpty { names = ["Debug", "Release"] }
        let here = manifest.name.map(location) ?? SourceLocation(file: file)
        let projectLevel = names.map { name in
            let configuration = manifest.settings.configurations.first { $0.name == name }
            return XcodeProject.BuildConfiguration(
                id: "project:" + name, name: name, location: here,
                buildSettings: facts(manifest.settings.base).merging(facts(configuration?.settings ?? [:])) { _, own in own },
                baseConfigurationFile: configuration?.xcconfig.map(resolved))
        }
        var project = XcodeProject(
            generatedFrom: file, generator: "Tuist", name: manifest.name?.value ?? "", projectDirectory: folder,
            projectConfigurations: projectLevel, defaultConfigurationName: names.contains("Release") ? "Release" : names.last)
        for target in manifest.targets {
            var presets: [String: Fact<String>] = [:]
            if let bundleID = target.bundleID { presets[XcodeProject.SettingKey.productBundleIdentifier] = fact(bundleID) }
            if let sdk = target.platform.flatMap(XcodeProject.sdk(forPlatformName:)) {
                presets[XcodeProject.SettingKey.sdkRoot] = Fact(sdk, at: location(target.name), source: .pbxproj)
                if let version = target.deploymentTarget, let setting = XcodeProject.deploymentTargetSetting(sdk: sdk) { presets[setting] = fact(version) }
            }
            for (key, path) in [(XcodeProject.SettingKey.infoPlistFile, target.infoPlist), (XcodeProject.SettingKey.codeSignEntitlements, target.entitlements)] {
                guard let path else { continue }
                presets[key] = Fact(Paths.relativePath(resolved(path), from: folder), at: location(path.path), source: .pbxproj)
            }
            let levels = names.map { name in
                let configuration = target.settings.configurations.first { $0.name == name }
                return XcodeProject.BuildConfiguration(
                    id: "target:\(target.name.value):\(name)", name: name, location: location(target.name),
                    buildSettings: presets.merging(facts(target.settings.base)) { _, own in own }.merging(facts(configuration?.settings ?? [:])) { _, own in own },
                    baseConfigurationFile: configuration?.xcconfig.map(resolved))
            }
            project.targets.append(XcodeProject.Target(
                id: "target:" + target.name.value, name: target.name.value, location: location(target.name),
                productType: target.product.map { Fact(productType($0), at: location(target.name), source: .pbxproj) },
                configurations: levels, defaultConfigurationName: project.defaultConfigurationName, hasInAppPurchaseCapability: nil,
                developmentTeamAttribute: nil, linksStoreKit: false, storeKitReferenceLocation: nil, sourceFiles: []))
        }
        project.manifestSchemes = manifest.schemes.map { scheme in
            XcodeProject.ManifestScheme(name: scheme.name.value, runs: scheme.runs, storeKitConfiguration: scheme.storeKitConfiguration.map(resolved))
        }
        project.loadConfigurationFiles()
        return project
    }

    /// Tuist's `Product` cases as Xcode product types.
    static func productType(_ product: String) -> String {
        let types = [
            "app": "application", "appExtension": "app-extension", "unitTests": "bundle.unit-test", "uiTests": "bundle.ui-testing",
            "framework": "framework", "staticFramework": "framework", "staticLibrary": "library.static", "dynamicLibrary": "library.dynamic",
            "bundle": "bundle", "watch2App": "application.watchapp2", "watch2Extension": "watchkit2-extension",
            "appClip": "application.on-demand-install-capable", "messagesExtension": "app-extension.messages", "commandLineTool": "tool",
            "extensionKitExtension": "extensionkit-extension", "stickerPackExtension": "app-extension.messages-sticker-pack",
        ]
        return "com.apple.product-type." + (types[product] ?? product)
    }
}
