import Foundation
import Testing
import IAPDoctor
import Rules
import TestSupport


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
func diagnose(snippet: String, ruleSet: RuleSet = .builtin) -> Diagnosis {
    let basePath = repositoryFile("examples/healthy/project.yaml")
    let base = try! YAMLTreeReader.read(bytes: Array(readText(basePath).utf8), file: basePath).tree!
    let engine = BuiltinRules.engine(ruleSet: ruleSet)
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
    var project = loaded.project
    var problems = loaded.problems
    if !problems.contains(where: { $0.severity == .error }) { problems += EvidenceLoader.load(into: &project) }
    return engine.diagnose(project, inputProblems: problems, options: Engine.Options())
}

/// Line numbers (1-based) of the lines that carry the `# <-` marker.
func markedLines(_ snippet: String) -> [Int] {
    snippet.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
        .filter { $0.element.contains("# <-") || $0.element.contains("<!-- <- -->") || $0.element.contains("// <-") }.map { $0.offset + 1 }
}

/// The healthy example's project with `overlay` (descriptor YAML) merged onto its descriptor, and
/// the files it points at loaded: what `asc` and `build` examples are checked beside.
func healthyProject(overlay: String) -> (project: Project, problems: [Finding]) {
    let basePath = repositoryFile("examples/healthy/project.yaml")
    let base = try! YAMLTreeReader.read(bytes: Array(readText(basePath).utf8), file: basePath).tree!
    let tree = (try? YAMLTreeReader.read(bytes: Array(overlay.utf8), file: "overlay.yaml").tree).flatMap { $0 }.map { merge(base, $0) } ?? base
    let loaded = DescriptorLoader.load(tree: tree, file: basePath, baseDirectory: repositoryFile("examples/healthy"))
    var project = loaded.project
    var problems = loaded.problems
    if !problems.contains(where: { $0.severity == .error }) { problems += EvidenceLoader.load(into: &project) }
    return (project, problems)
}

/// An `input: asc` rule example: its snapshot (markers blanked, so lines keep their numbers) read
/// as `snapshot.json` beside the healthy descriptor with the example's overlay applied.
func diagnose(ascSnippet snippet: String) -> (diagnosis: Diagnosis, snapshot: String) {
    let (overlay, snapshotText) = RuleDocs.ascExampleParts(snippet) ?? ("", snippet)
    let json = snapshotText.replacingOccurrences(of: "// <-", with: "     ")
    var (project, problems) = healthyProject(overlay: overlay)
    do {
        let snapshot = try ASCSnapshot.load(text: json, file: "snapshot.json")
        ASCFacts.apply(snapshot, namedAt: SourceLocation(file: "--asc"), to: &project)
    } catch {
        problems.append(error.finding)
    }
    return (BuiltinRules.engine().diagnose(project, inputProblems: problems, options: Engine.Options()), snapshotText)
}


/// An `input: build` rule example: a built app described in YAML (`bundle_id`, `signed_for`:
/// `development` or `app_store`, `resources`, `minimum_os`, `profile_app_id`, `strings` (the executable's C string constants), `lists`, `repository_lists`, `export: ipa`), written as an `.xcarchive` (or an
/// `.ipa`) with the healthy
/// example's team and checked beside the healthy descriptor with the example's overlay applied.
func diagnose(buildSnippet snippet: String) throws -> Diagnosis {
    let (overlay, described) = RuleDocs.ascExampleParts(snippet) ?? ("", snippet)
    let description = try #require(try YAMLTreeReader.read(bytes: Array(described.utf8), file: "build.yaml").tree)
    let bundleID = try #require(description["bundle_id"]?.scalar?.text)
    var fixture = BuiltAppFixture()
    fixture.bundleID = bundleID
    fixture.archiveBundleID = bundleID
    fixture.profileAppID = "4KQ2H9XW7B." + bundleID
    fixture.signedAppID = "4KQ2H9XW7B." + bundleID
    fixture.development = description["signed_for"]?.scalar?.text == "development"
    if let minimumOS = description["minimum_os"]?.scalar?.text { fixture.minimumOS = minimumOS }
    if case .sequence(let strings, _)? = description["strings"] { fixture.strings = strings.compactMap { $0.scalar?.text } }
    if let profileAppID = description["profile_app_id"]?.scalar?.text { fixture.profileAppID = profileAppID }
    if case .sequence(let resources, _)? = description["resources"] {
        fixture.resources = resources.compactMap { $0.scalar?.text }
    }
    /// `{ Products.plist: [ids] }` as XML property lists.
    func lists(_ key: String) -> [(name: String, text: String)] {
        guard case .mapping(let entries, _)? = description[key] else { return [] }
        return entries.compactMap { entry in
            guard let name = Optional(entry.key.text), case .sequence(let ids, _) = entry.value else { return nil }
            let strings = ids.compactMap { $0.scalar?.text }.map { "  <string>\($0)</string>" }.joined(separator: "\n")
            return (name, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<array>\n\(strings)\n</array>\n</plist>\n")
        }
    }
    fixture.resourceTexts = lists("lists")
    let folder = try makeScratchFolder("build-example")
    defer { removeScratch(folder) }
    let archive = description["export"]?.scalar?.text == "ipa" ? try fixture.writeIPA(in: folder) : try fixture.writeArchive(in: folder)

    var (project, problems) = healthyProject(overlay: overlay)
    // The repository's lists, read as the descriptor's `app.product_id_lists` are.
    for (name, text) in lists("repository_lists") {
        try FileManager.default.createDirectory(atPath: folder + "/repository", withIntermediateDirectories: true)
        let file = folder + "/repository/" + name
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        project.app.productIDLists.append(Fact(file, at: SourceLocation(file: "overlay.yaml"), source: .descriptor))
        project.requests += try ProductIDList.read(path: file).ids
    }
    do {
        project.builtApps.append(try BuiltApp.load(path: archive, listNames: project.productListNames))
        problems += project.builtApps.last?.problems ?? []
    } catch {
        problems.append(error.finding)
    }
    project.adoptRunningBuild()
    return BuiltinRules.engine().diagnose(project, inputProblems: problems, options: Engine.Options())
}

/// The software5.12 envelope that catalog examples sit in; the snippet starts on line 9.
let catalogEnvelopeHead = """
    <?xml version="1.0" encoding="UTF-8"?>
    <package xmlns="http://apple.com/itunes/importer" version="software5.12">
      <provider>GreenThumbApps</provider>
      <team_id>4KQ2H9XW7B</team_id>
      <software>
        <vendor_id>com.greenthumb.pocketgarden</vendor_id>
        <software_metadata>
          <in_app_purchases>

    """
let catalogEnvelopeTail = "\n      </in_app_purchases>\n    </software_metadata>\n  </software>\n</package>\n"

/// Writes a catalog example into a fresh `.itmsp` folder (with examples/catalog's screenshots) and
/// returns the metadata.xml path and the line offset of the snippet's first line.
func writeCatalogExample(_ snippet: String) throws -> (path: String, lineOffset: Int) {
    let trimmed = snippet.drop { $0 == " " || $0 == "\n" }
    let whole = trimmed.hasPrefix("<?xml") || trimmed.hasPrefix("<package")
    let text = whole ? snippet : catalogEnvelopeHead + snippet + catalogEnvelopeTail
    let folder = try makeScratchFolder("iapdoctor-example", suffix: ".itmsp")
    let fixtures = repositoryFile("examples/catalog/PocketGarden.itmsp")
    for name in try FileManager.default.contentsOfDirectory(atPath: fixtures) where name.hasSuffix(".png") {
        try FileManager.default.copyItem(atPath: fixtures + "/" + name, toPath: folder + "/" + name)
    }
    let path = folder + "/metadata.xml"
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    let offset = whole ? 0 : catalogEnvelopeHead.split(separator: "\n", omittingEmptySubsequences: false).count - 1
    return (path, offset)
}

/// Runs the built-in engine on the healthy descriptor together with a catalog example.
func diagnose(catalogSnippet snippet: String, rule: RuleMetadata) throws -> (Diagnosis, String, Int) {
    let (path, offset) = try writeCatalogExample(snippet)
    // The diagnosis keeps the path as text only: the package can go once it is read.
    defer { removeScratch(Paths.directoryName(of: path)) }
    let basePath = repositoryFile("examples/healthy/project.yaml")
    let loaded = DescriptorLoader.load(path: basePath)
    var project = loaded.project
    var problems = loaded.problems
    var ruleSet = RuleSet.builtin
    if let index = ruleSet.rules.firstIndex(where: { $0.id == rule.id }) {
        for (name, value) in rule.exampleOptions {
            if let option = ruleSet.rules[index].options.firstIndex(where: { $0.name == name }) {
                ruleSet.rules[index].options[option].value = value
            }
        }
    }
    let engine = BuiltinRules.engine(ruleSet: ruleSet)
    var options = Engine.Options()
    do {
        options.add(try engine.scanCatalog(path: path, configuration: options.configuration), to: &project)
    } catch {
        problems.append(error.finding)
    }
    let diagnosis = engine.diagnose(project, inputProblems: problems, options: options)
    return (diagnosis, path, offset)
}

/// Runs the built-in engine on the healthy descriptor with a StoreKit configuration example: a
/// `products` array (or a whole file when the snippet starts with `{`).
func diagnose(storeKitSnippet snippet: String) throws -> Diagnosis {
    let trimmed = snippet.drop { $0 == " " || $0 == "\n" }
    let text = trimmed.hasPrefix("{") ? snippet : "{ \"products\": \(snippet), \"settings\": {}, \"version\": { \"major\": 3, \"minor\": 0 } }"
    let path = scratchPath("iapdoctor-example", suffix: ".storekit")
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    defer { removeScratch(path) }
    let loaded = DescriptorLoader.load(path: repositoryFile("examples/healthy/project.yaml"))
    var project = loaded.project
    var problems = loaded.problems
    do {
        project.storeKitFiles = [try StoreKitConfiguration.load(path: path)]
    } catch {
        problems.append(error.finding)
    }
    return BuiltinRules.engine().diagnose(project, inputProblems: problems, options: Engine.Options())
}

