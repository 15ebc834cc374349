import Foundation
import IAPDoctor
import Rules

/// The repository's root folder (tests read examples/, rules.yaml and docs/ from it).
let repositoryRoot: String = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<3 { url.deleteLastPathComponent() }
    return url.path
}()

func repositoryFile(_ path: String) -> String { repositoryRoot + "/" + path }

func readText(_ path: String) -> String {
    (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
}

/// Merges `overlay` onto `base`: mappings merge key by key, lists of mappings merge item by item
/// (extra items are appended, `- {}` keeps an item), anything else (and an empty mapping or
/// list) replaces. Locations stay with the node they came
/// from, so a finding about an overlaid value points into the overlay.
func merge(_ base: YAMLTree, _ overlay: YAMLTree) -> YAMLTree {
    switch (base, overlay) {
    case (.mapping(var pairs, let location), .mapping(let overlayPairs, _)) where !overlayPairs.isEmpty:
        for (key, value) in overlayPairs {
            if let index = pairs.firstIndex(where: { $0.key.text == key.text }) {
                pairs[index] = (pairs[index].key, merge(pairs[index].value, value))
            } else {
                pairs.append((key, value))
            }
        }
        return .mapping(pairs, location)
    case (.sequence(var items, let location), .sequence(let overlayItems, _)) where !overlayItems.isEmpty:
        let allMappings = overlayItems.allSatisfy { if case .mapping = $0 { return true } else { return false } }
        guard allMappings else { return overlay }
        for (index, item) in overlayItems.enumerated() {
            // `- {}` keeps the base item as it is (a placeholder to reach the next one).
            if case .mapping(let pairs, _) = item, pairs.isEmpty, index < items.count { continue }
            if index < items.count { items[index] = merge(items[index], item) } else { items.append(item) }
        }
        return .sequence(items, location)
    default:
        return overlay
    }
}

/// Runs the built-in engine on the healthy example with `snippet` applied on top.
func diagnose(snippet: String, catalog: RuleCatalog = .builtin) -> Diagnosis {
    let basePath = repositoryFile("examples/healthy/project.yaml")
    let base = try! YAMLTreeReader.read(bytes: Array(readText(basePath).utf8), file: basePath).tree!
    let engine = BuiltinRules.engine(catalog: catalog)
    let overlay: YAMLTree?
    do {
        overlay = try YAMLTreeReader.read(bytes: Array(snippet.utf8), file: "snippet.yaml").tree
    } catch {
        let finding = Finding(rule: "input-malformed", severity: .error, checklist: nil, message: error.message,
                              help: error.help, location: error.location)
        var project = Project(descriptorFile: "snippet.yaml", baseDirectory: ".")
        project.descriptor = nil
        return engine.diagnose(project, inputProblems: [finding], options: Engine.Options())
    }
    let tree = overlay.map { merge(base, $0) } ?? base
    let loaded = DescriptorLoader.load(tree: tree, file: basePath, baseDirectory: repositoryFile("examples/healthy"))
    return engine.diagnose(loaded.project, inputProblems: loaded.problems, options: Engine.Options())
}

/// Line numbers (1-based) of the lines that carry the `# <-` marker.
func markedLines(_ snippet: String) -> [Int] {
    snippet.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
        .filter { $0.element.contains("# <-") }.map { $0.offset + 1 }
}

/// Runs the built `iapdoctor` executable; returns its standard output and exit code.
func runIAPDoctor(_ arguments: [String], environment: [String: String] = [:]) throws -> (output: String, status: Int32) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: repositoryFile(".build/debug/iapdoctor"))
    if let productsDirectory = Bundle.allBundles.first(where: { $0.bundlePath.hasSuffix(".xctest") })?.bundleURL.deletingLastPathComponent() {
        let candidate = productsDirectory.appendingPathComponent("iapdoctor")
        if FileManager.default.fileExists(atPath: candidate.path) { process.executableURL = candidate }
    }
    process.arguments = arguments
    process.currentDirectoryURL = URL(fileURLWithPath: repositoryRoot)
    var env = ProcessInfo.processInfo.environment
    env["NO_COLOR"] = "1"
    for (key, value) in environment { env[key] = value }
    process.environment = env
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = Pipe()
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (String(decoding: data, as: UTF8.self), process.terminationStatus)
}
