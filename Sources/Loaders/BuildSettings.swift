import Foundation
import Formats
import Model

/// The build settings of one target in one configuration, resolved the way Xcode layers them:
/// Xcode's own values, the project's `.xcconfig`, the project's settings, the target's `.xcconfig`,
/// the target's settings; later assignments over earlier ones, `KEY[sdk=…][config=…]` variants over
/// the plain key of their level. `$(inherited)` and a setting that names itself
/// (`DEVELOPMENT_TEAM = $(DEVELOPMENT_TEAM)`) take the value from below the assignment; any other
/// `$(NAME)` takes the final value of `NAME`.
///
/// Values are resolved on demand, one name at a time, so the work is bounded by what is asked for.
/// A reference that cannot be resolved stays as written: a value still holding `$(` is unknown to
/// iapdoctor (``isResolved(_:)``), never a value to compare or print as an ID.
public struct BuildSettings: Sendable {
    struct Entry: Sendable {
        package var name: String
        var key: String
        var value: Fact<String>
    }

    /// A configuration file that is not there: from its position up, whatever it may define is
    /// unknown (everything, unless it is a known generated file).
    struct Gap: Sendable {
        var position: Int
        var file: String
        var generated: GeneratedConfigurationFile?

        /// Whether the missing file could set `name`: not the project's own paths and names,
        /// which Xcode computes and configuration files do not set.
        func mayDefine(_ name: String) -> Bool {
            if Self.computedByXcode.contains(name) { return false }
            return generated?.mayDefine(name) ?? true
        }

        static let computedByXcode: Set<String> = ["SRCROOT", "SOURCE_ROOT", "PROJECT_DIR", "PROJECT_NAME", "TARGET_NAME", "TARGETNAME", "CONFIGURATION"]
    }

    /// Every assignment, lowest level first.
    var entries: [Entry] = []
    var indicesByName: [String: [Int]] = [:]
    var gaps: [Gap] = []
    /// Optional includes that are not there (``XCConfigFile/optionalGaps``), at their positions.
    var optionalGaps: [(position: Int, file: String)] = []
    public let configuration: String
    public private(set) var sdk: String?
    /// Each assignment's text expanded, once: the value of an assignment does not depend on who
    /// refers to it, so chains (`A = $(B) $(B)`, 2,000 settings naming each other) cost their
    /// length, not their fan-out. A value cut short by a limit is kept as cut, and marks whatever
    /// uses it as cut too (deterministic, since names resolve in a fixed order).
    let expanded = ExpansionCache()
    /// The `.xcconfig` files the configuration is based on (or includes) that could not be read,
    /// but for known generated ones (see ``absentGeneratedFiles``).
    public var missingFiles: [String] { gaps.filter { $0.generated == nil }.map(\.file) }
    /// Known generated files (CocoaPods', Flutter's) that are not there: they define no setting
    /// iapdoctor reads, so only their own settings are unknown.
    public var absentGeneratedFiles: [(file: String, generator: GeneratedConfigurationFile)] {
        gaps.compactMap { gap in gap.generated.map { (gap.file, $0) } }
    }

    init(configuration: String, sdk: String?) {
        self.configuration = configuration
        self.sdk = sdk
    }

    /// The settings one configuration file gives on its own (no project around it), for
    /// `configuration` and `sdk` (by default the one its `SDKROOT` names).
    public static func resolving(_ file: XCConfigFile, configuration: String, sdk: String? = nil) -> BuildSettings {
        var settings = BuildSettings(configuration: configuration, sdk: sdk)
        settings.addFile(file)
        settings.settleSDK()
        return settings
    }

    mutating func add(name: String, key: String, value: Fact<String>) {
        indicesByName[name, default: []].append(entries.count)
        entries.append(Entry(name: name, key: key, value: value))
    }

    /// Marks that a configuration file that should sit here is missing.
    mutating func addMissingFile(_ file: String) {
        gaps.append(Gap(position: entries.count, file: file, generated: GeneratedConfigurationFile.recognize(file)))
    }

    /// One level of a project file: plain keys first (sorted, for a stable order), then the
    /// conditional variants (sorted), which win over the plain key when their conditions hold.
    mutating func addLevel(_ settings: [String: Fact<String>]) {
        let keys = settings.keys.sorted()
        // A character test: a level of thousands of settings is read for every target.
        let bracket: Character = "["
        for key in keys where !key.contains(bracket) { add(name: key, key: key, value: settings[key]!) }
        for key in keys where key.contains(bracket) { add(name: String(key.prefix { $0 != bracket }), key: key, value: settings[key]!) }
    }

    /// Configuration files found only by ignoring the case of their names.
    public private(set) var caseMismatches: [CaseMismatch] = []

    mutating func addFile(_ file: XCConfigFile) {
        var gaps = file.gaps[...]
        for (index, assignment) in file.assignments.enumerated() {
            while let gap = gaps.first, gap.position == index {
                addMissingFile(gap.file)
                gaps = gaps.dropFirst()
            }
            add(name: assignment.name, key: assignment.key, value: assignment.value)
        }
        for gap in gaps { addMissingFile(gap.file) }
        let base = entries.count - file.assignments.count
        optionalGaps += file.optionalGaps.map { (base + $0.position, $0.file) }
        for mismatch in file.caseMismatches where !caseMismatches.contains(mismatch) { caseMismatches.append(mismatch) }
    }

    /// Settles the SDK from `SDKROOT` when none was given, so `[sdk=…]` variants can apply.
    /// `SDKROOT = auto` (a multiplatform target) takes the first device platform of
    /// `SUPPORTED_PLATFORMS`, iOS first.
    mutating func settleSDK() {
        guard sdk == nil, let root = value(XcodeProject.SettingKey.sdkRoot)?.value, Self.isResolved(root), !root.isEmpty else { return }
        if root == "auto" {
            let supported = (value("SUPPORTED_PLATFORMS")?.value ?? "").split(separator: " ").map(String.init)
            sdk = Platform.sdks.map(\.name).first(where: supported.contains)
        } else {
            sdk = root.hasSuffix(".sdk") ? nil : root
        }
    }

    // MARK: Reading

    /// Every setting name that has an assignment, sorted.
    public var names: [String] { indicesByName.keys.sorted() }

    /// The value of `name`, fully expanded, positioned where the value that decided it is written;
    /// `nil` when nothing assigns it (or only variants whose conditions do not hold).
    public func value(_ name: String) -> Fact<String>? {
        switch lookup(name, below: Int.max) {
        case .found(let index):
            let text: String
            if let done = expanded.value(at: index) {
                text = done.value
            } else {
                var expander = VariableExpander(lookup: lookupText, remember: expanded.store)
                text = expander.expand(entries[index].value.value[...], depth: 0, scope: .init(name: name, position: index))
                expanded.store(index, text, truncated: expander.truncated)
            }
            // List settings (`$(inherited) DEBUG` over nothing) leave a space Xcode's splitting drops.
            let trimmed = Self.trimmingSpaces(text)
            return Fact(trimmed, at: decidingLocation(name, index), source: entries[index].value.source)
        case .missing(let file):
            return Fact("$(\(name))", at: SourceLocation(file: file), source: .xcconfig)
        case .undefined:
            return nil
        }
    }

    /// The key of the assignment that decides `name`, as written: `DEVELOPMENT_TEAM[sdk=iphoneos*]`
    /// when a conditional variant wins.
    public func decidingKey(_ name: String) -> String? {
        guard case .found(let index) = lookup(name, below: Int.max) else { return nil }
        return entries[index].key
    }

    /// `text` with its references expanded against these settings (for Info.plist values).
    public func expand(_ text: String) -> String {
        var expander = VariableExpander(lookup: lookupText, remember: expanded.store)
        return expander.expand(text[...], depth: 0, scope: .init(name: "", position: Int.max))
    }

    /// `text` without spaces and tabs at either end (on bytes: values can be 64 KiB).
    static func trimmingSpaces(_ text: String) -> String {
        let bytes = text.utf8
        guard let first = bytes.firstIndex(where: { $0 != 0x20 && $0 != 0x09 }) else { return "" }
        let last = bytes.lastIndex(where: { $0 != 0x20 && $0 != 0x09 })!
        if first == bytes.startIndex, last == bytes.index(before: bytes.endIndex) { return text }
        return String(text[first...last])
    }

    /// True when `value` holds no reference left unexpanded.
    public static func isResolved(_ value: String) -> Bool {
        !value.contains("$(") && !value.contains("${")
    }

    /// The names of the references `value` still holds (`$(A).$(B:lower)` → `A`, `B`), for messages
    /// that must not show an unresolved value as if it were one.
    public static func unresolvedNames(in value: String) -> [String] {
        var names: [String] = []
        var rest = value[...]
        while let dollar = rest.firstIndex(of: "$") {
            rest = rest[rest.index(after: dollar)...]
            guard let opener = rest.first, opener == "(" || opener == "{" else { continue }
            let name = rest.dropFirst().prefix { $0.isLetter || $0.isNumber || $0 == "_" }
            if !name.isEmpty, !names.contains(String(name)) { names.append(String(name)) }
        }
        return names
    }

    enum Lookup {
        case found(Int)
        case missing(String)
        case undefined
    }

    /// The assignment of `name` that applies below `position`, or the missing file in the way;
    /// remembered, since a value may refer to the same setting thousands of times and each answer
    /// walks every conditional variant of the name.
    func lookup(_ name: String, below position: Int) -> Lookup {
        if let known = expanded.lookup(name, position) { return known }
        let found = findAssignment(name, below: position)
        expanded.store(name, position, found)
        return found
    }

    func findAssignment(_ name: String, below position: Int) -> Lookup {
        var candidate: Int?
        for index in (indicesByName[name] ?? []).reversed() where index < position {
            if XcodeProject.conditionsHold(entries[index].key, configuration: configuration, sdk: sdk) {
                candidate = index
                break
            }
        }
        if let gap = gaps.last(where: { $0.position < position && $0.position > (candidate ?? -1) && $0.mayDefine(name) }) {
            return .missing(gap.file)
        }
        return candidate.map(Lookup.found) ?? .undefined
    }

    func lookupText(_ name: String, _ scope: VariableExpander.Scope) -> VariableExpander.Resolution {
        let inheriting = name == "inherited" || name == scope.name
        let target = inheriting ? scope.name : name
        switch lookup(target, below: inheriting ? scope.position : Int.max) {
        case .found(let index):
            if let done = expanded.value(at: index) { return .expanded(done.value, truncated: done.truncated) }
            return .text(entries[index].value.value, .init(name: target, position: index))
        case .missing:
            return .unknown
        case .undefined:
            // Xcode expands a setting nothing defines to nothing; one Xcode itself provides
            // (`PLATFORM_NAME`, `ARCHS`) has a value iapdoctor does not know.
            return inheriting || !XcodeProvidedSettings.names.contains(name) ? .expanded("", truncated: false) : .unknown
        }
    }

    /// The settings `name`'s value refers to, directly or through others, that no file defines
    /// and Xcode does not provide: Xcode expands them to nothing (unless the build command sets
    /// them), which a note should say. Sorted.
    public func undefinedReferences(of name: String) -> [String] {
        var found: Set<String> = []
        var visited: Set<Int> = []
        var pending: [(text: String, scope: VariableExpander.Scope)] = []
        if case .found(let index) = lookup(name, below: Int.max) {
            pending.append((entries[index].value.value, .init(name: name, position: index)))
        }
        while let (text, scope) = pending.popLast(), visited.count < 256 {
            for reference in Self.unresolvedNames(in: text) {
                let inheriting = reference == "inherited" || reference == scope.name
                let target = inheriting ? scope.name : reference
                switch lookup(target, below: inheriting ? scope.position : Int.max) {
                case .found(let index):
                    if visited.insert(index).inserted { pending.append((entries[index].value.value, .init(name: target, position: index))) }
                case .undefined:
                    if !inheriting, !XcodeProvidedSettings.names.contains(target) { found.insert(target) }
                case .missing:
                    continue
                }
            }
        }
        return found.sorted()
    }

    /// The optional includes that are not there (`#include? "DeveloperSettings.xcconfig"`) and come
    /// after an assignment `name`'s value is built from: a developer's local file of that name
    /// may change the value on their Mac, while a clean checkout (CI, Archive on another Mac)
    /// builds the committed one. Sorted.
    public func localOverrides(of name: String) -> [String] {
        guard !optionalGaps.isEmpty else { return [] }
        var decided: [Int] = []
        var visited: Set<Int> = []
        var pending: [(text: String, scope: VariableExpander.Scope)] = []
        if case .found(let index) = lookup(name, below: Int.max) {
            decided.append(index)
            pending.append((entries[index].value.value, .init(name: name, position: index)))
        }
        while let (text, scope) = pending.popLast(), visited.count < 256 {
            for reference in Self.unresolvedNames(in: text) {
                let inheriting = reference == "inherited" || reference == scope.name
                let target = inheriting ? scope.name : reference
                if case .found(let index) = lookup(target, below: inheriting ? scope.position : Int.max), visited.insert(index).inserted {
                    decided.append(index)
                    pending.append((entries[index].value.value, .init(name: target, position: index)))
                }
            }
        }
        guard let earliest = decided.min() else { return [] }
        return Set(optionalGaps.filter { $0.position > earliest }.map(\.file)).sorted()
    }

    /// Where the value of `name` was decided: the assignment itself, or, when it only passes the
    /// lower value on (`$(inherited)`, `$(NAME)`), the assignment it passes on.
    func decidingLocation(_ name: String, _ index: Int) -> SourceLocation {
        var index = index
        for _ in 0..<64 {
            let text = entries[index].value.value
            guard ["$(inherited)", "${inherited}", "$(\(name))", "${\(name)}"].contains(text),
                case .found(let lower) = lookup(name, below: index) else { break }
            index = lower
        }
        return entries[index].value.location
    }
}

// MARK: - Variable expansion

/// Expands build-setting references under a depth limit and an output budget.
struct VariableExpander {
    /// The assignment whose text is being expanded: `$(inherited)` and `$(name)` look below it.
    struct Scope {
        package var name: String
        var position: Int
    }

    enum Resolution {
        /// Text still to expand, in the scope of the assignment it comes from.
        case text(String, Scope)
        /// A value already expanded (`truncated` when a limit cut it short).
        case expanded(String, truncated: Bool)
        case unknown
    }

    let lookup: (String, Scope) -> Resolution
    /// Told of every assignment expanded (position, value, whether a limit cut it), to remember it.
    let remember: (Int, String, Bool) -> Void
    /// A limit (depth, calls, output budget) cut some expansion short: what was produced since is
    /// not the complete value and must not be remembered.
    private(set) var truncated = false
    /// Characters that may still be produced; a chain of settings that doubles at every level would
    /// otherwise grow without bound before the depth limit stops it. 64 KiB is far beyond any real
    /// value (a bundle ID is at most 155 characters; long flag lists are a few KB) and bounds the
    /// work modifiers do on every level of a crafted chain.
    var budget = 1 << 16
    static let maxDepth = 16
    /// Modifiers applied to one reference (`$(NAME:lower:rfc1034identifier)`), each a pass over the value.
    static let maxModifiers = 16
    /// Expansions done so far: nested references can branch at every level, which is exponential
    /// in nesting without a cap (found by fuzzing).
    var calls = 0
    static let maxCalls = 10_000

    init(lookup: @escaping (String, Scope) -> Resolution, remember: @escaping (Int, String, Bool) -> Void = { _, _, _ in }) {
        self.lookup = lookup
        self.remember = remember
    }

    /// Over a plain dictionary (no levels: `$(inherited)` is empty).
    init(settings: [String: String]) {
        self.lookup = { name, _ in
            if let text = settings[name] { return .text(text, Scope(name: name, position: Int.max)) }
            return name == "inherited" ? .expanded("", truncated: false) : .unknown
        }
        self.remember = { _, _, _ in }
    }

    mutating func expand(_ text: Substring, depth: Int, scope: Scope) -> String {
        calls += 1
        guard text.contains("$") else { return String(text) }
        guard depth < Self.maxDepth, calls <= Self.maxCalls else {
            truncated = true
            return String(text)
        }
        var output = ""
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            guard character == "$" else {
                output.append(character)
                index = text.index(after: index)
                continue
            }
            let afterDollar = text.index(after: index)
            guard afterDollar < text.endIndex else {
                output.append(character)
                break
            }
            let opener = text[afterDollar]
            if opener == "(" || opener == "{" {
                let closer: Character = opener == "(" ? ")" : "}"
                guard let close = matchingClose(in: text, from: text.index(after: afterDollar), opener: opener, closer: closer) else {
                    output += text[index...]
                    break
                }
                let reference = text[index...close]
                let inner = expand(text[text.index(after: afterDollar)..<close], depth: depth + 1, scope: scope)
                output += resolve(reference: inner, written: reference, depth: depth, scope: scope)
                index = text.index(after: close)
            } else if opener.isASCII, opener.isLetter || opener == "_" {
                var end = afterDollar
                while end < text.endIndex, text[end].isASCII, text[end].isLetter || text[end].isNumber || text[end] == "_" {
                    end = text.index(after: end)
                }
                let name = String(text[afterDollar..<end])
                output += resolve(reference: name, written: text[index..<end], depth: depth, scope: scope)
                index = end
            } else {
                output.append(character)
                index = afterDollar
            }
            if output.utf8.count > budget {
                truncated = true
                return output
            }
        }
        budget -= min(budget, output.utf8.count)
        return output
    }

    func matchingClose(in text: Substring, from start: Substring.Index, opener: Character, closer: Character) -> Substring.Index? {
        var depth = 0
        var index = start
        while index < text.endIndex {
            let character = text[index]
            if character == opener {
                depth += 1
            } else if character == closer {
                if depth == 0 { return index }
                depth -= 1
            }
            index = text.index(after: index)
        }
        return nil
    }

    /// `NAME` or `NAME:modifier:…`; names that cannot be resolved stay as `written`.
    mutating func resolve(reference: String, written: Substring, depth: Int, scope: Scope) -> String {
        let parts = reference.split(separator: ":", maxSplits: Self.maxModifiers + 1, omittingEmptySubsequences: false)
        let name = String(parts[0])
        let modifiers = parts.dropFirst()
        // Real references use one or two modifiers; a chain past the limit is left unexpanded.
        guard modifiers.count <= Self.maxModifiers else {
            truncated = true
            return String(written)
        }
        var value: String
        let resolution = budget > 0 ? lookup(name, scope) : .unknown
        if budget <= 0 { truncated = true }
        if case .expanded(let done, let cut) = resolution {
            value = done
            if cut { truncated = true }
        } else if case .text(let text, let inner) = resolution {
            let wasTruncated = truncated
            truncated = false
            value = expand(text[...], depth: depth + 1, scope: inner)
            if inner.position >= 0, inner.position < Int.max { remember(inner.position, value, truncated) }
            truncated = truncated || wasTruncated
        } else if let fallback = modifiers.first(where: { $0.hasPrefix("default=") }) {
            value = String(fallback.dropFirst("default=".count))
        } else {
            return String(written)
        }
        for modifier in modifiers {
            value = Self.apply(modifier, to: value)
        }
        return value
    }
}

/// Expanded assignment values by position, and the assignment each name resolves to below each
/// position, shared by every lookup of one ``BuildSettings``.
/// A class so that reads stay `func`s; one resolution runs on one thread at a time.
final class ExpansionCache: @unchecked Sendable {
    private var values: [Int: (value: String, truncated: Bool)] = [:]
    private var lookups: [LookupKey: BuildSettings.Lookup] = [:]

    struct LookupKey: Hashable {
        package var name: String
        var position: Int
    }

    func lookup(_ name: String, _ position: Int) -> BuildSettings.Lookup? { lookups[LookupKey(name: name, position: position)] }

    func store(_ name: String, _ position: Int, _ found: BuildSettings.Lookup) { lookups[LookupKey(name: name, position: position)] = found }

    func value(at position: Int) -> (value: String, truncated: Bool)? { values[position] }

    func store(_ position: Int, _ value: String, truncated: Bool) { values[position] = (value, truncated) }
}
