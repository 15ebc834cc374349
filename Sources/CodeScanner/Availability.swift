// MARK: - Availability

/// A place the Swift code uses StoreKit 2, with the OS versions the code around it requires.
public struct StoreKit2Use: Sendable, Hashable {
    /// What is used, as shown to the user: `Product.products(for:)`, `StoreView(ids:)`,
    /// `Product.PurchaseResult`.
    public var api: String
    /// The use's first token (`Product` of `Product.products(for:)`).
    public var location: CodeLocation
    /// By platform as `@available` names it (`iOS`, `macOS`, `tvOS`, `watchOS`, `visionOS`): the
    /// highest version an enclosing `if #available`, `guard #available` or `@available` requires.
    /// A platform left out is not checked there: the code runs from the deployment target on.
    public var guardedMinimum: [String: String]
    /// Platforms an enclosing `@available(…, unavailable)` leaves out: the code never runs there.
    public var unavailable: Set<String>

    public init(api: String, location: CodeLocation, guardedMinimum: [String: String] = [:], unavailable: Set<String> = []) {
        self.api = api
        self.location = location
        self.guardedMinimum = guardedMinimum
        self.unavailable = unavailable
    }
}

extension SourceScanner {
    /// What a piece of code requires of the OS it runs on.
    struct Availability: Sendable, Equatable {
        /// Version components by platform name (`iOS`: `[15, 0]`).
        var minimum: [String: [Int]] = [:]
        var unavailable: Set<String> = []

        var isEmpty: Bool { minimum.isEmpty && unavailable.isEmpty }

        /// Code inside both runs only where both hold: per platform, the higher version.
        mutating func formUnion(_ other: Availability) {
            for (platform, version) in other.minimum { require(platform, version) }
            unavailable.formUnion(other.unavailable)
        }

        mutating func require(_ platform: String, _ version: [Int]) {
            if let known = minimum[platform], !Self.isLower(known, than: version) { return }
            minimum[platform] = version
        }

        static func isLower(_ a: [Int], than b: [Int]) -> Bool {
            for index in 0..<max(a.count, b.count) {
                let x = index < a.count ? a[index] : 0
                let y = index < b.count ? b[index] : 0
                if x != y { return x < y }
            }
            return false
        }

        /// `15`, `15.0`, `15.4.1`.
        static func version(_ text: String) -> [Int]? {
            let parts = text.split(separator: ".", omittingEmptySubsequences: false).map { Int($0) }
            guard !parts.isEmpty, parts.allSatisfy({ $0 != nil }) else { return nil }
            return parts.map { $0! }
        }

        /// The platform an availability argument names, in one spelling; nil for the ones StoreKit 2's
        /// minimums do not cover (`macCatalyst`, `iOSApplicationExtension`, `swift`).
        static func platform(_ name: String) -> String? {
            switch name {
            case "iOS", "macOS", "tvOS", "watchOS", "visionOS": return name
            case "OSX", "macOSX": return "macOS"
            case "xrOS": return "visionOS"
            default: return nil
            }
        }

        func use(api: String, at location: CodeLocation) -> StoreKit2Use {
            StoreKit2Use(
                api: api, location: location,
                guardedMinimum: minimum.mapValues { $0.map(String.init).joined(separator: ".") }, unavailable: unavailable)
        }
    }

    /// The availability around the token the summarizer is at. It keeps one entry for each open
    /// `{`, beside the summarizer's scopes: a block requires what its enclosing block does and what
    /// its own condition or declaration adds.
    struct AvailabilityTracker {
        var stack: [Availability] = []
        /// After a `guard #available` in top-level code (`main.swift`).
        var topLevel = Availability()
        /// What the block opened at a token adds: the body of an `if #available`, of an
        /// `@available` declaration, the `else` of an `if #unavailable`.
        var atOpen: [Int: Availability] = [:]
        /// What the rest of the enclosing block gets once the block opened at a token closes: the
        /// `else` of a `guard #available`.
        var afterClose: [Int: Availability] = [:]
        /// `@available` declarations' headers (attribute to body): a parameter of type
        /// `Product.PurchaseResult` is inside the declaration though not inside its body.
        var headers: [(range: Range<Int>, availability: Availability)] = []

        var current: Availability { stack.last ?? topLevel }

        mutating func open(_ index: Int) {
            var availability = current
            if let added = atOpen.removeValue(forKey: index) { availability.formUnion(added) }
            stack.append(availability)
        }

        mutating func close(opened index: Int) {
            _ = stack.popLast()
            guard let added = afterClose.removeValue(forKey: index) else { return }
            if stack.isEmpty { topLevel.formUnion(added) } else { stack[stack.count - 1].formUnion(added) }
        }

        func at(_ index: Int) -> Availability {
            var availability = current
            for header in headers where header.range.contains(index) { availability.formUnion(header.availability) }
            return availability
        }

        mutating func addHeader(_ range: Range<Int>, _ availability: Availability) {
            headers.removeAll { $0.range.upperBound <= range.lowerBound }
            headers.append((range, availability))
        }
    }
}

extension SourceScanner.Summarizer {
    typealias Availability = SourceScanner.Availability

    /// Declarations an `@available` attribute can stand before.
    static let declarationKeywords: Set<String> = [
        "func", "init", "deinit", "subscript", "var", "let", "struct", "class", "enum", "actor", "protocol",
        "extension", "typealias", "associatedtype", "case", "macro",
    ]

    /// Records a StoreKit 2 use at the token `index` with the availability around it.
    mutating func noteStoreKit2(_ api: String, at index: Int, location: CodeLocation? = nil) {
        summary.usesStoreKit2 = true
        let location = location ?? self.location(index)
        summary.storeKit2Uses.append(availability.at(index).use(api: api, at: location))
    }

    /// `#available(iOS 15, *)` / `#unavailable(iOS 15)` in a condition, `@available(iOS 15, *)`
    /// before a declaration.
    mutating func availabilityMarker(_ index: Int) {
        guard isPunctuation(index + 1, "(") else { return }
        let available = isWord(index, "#available")
        if available || isWord(index, "#unavailable") {
            let close = matchingClose(index + 1)
            let requirement = availabilityArguments(index + 2..<close)
            guard !requirement.minimum.isEmpty else { return }
            availabilityCondition(requirement, negated: !available, after: close)
        } else if isWord(index, "available") && isPunctuation(index - 1, "@") {
            let close = matchingClose(index + 1)
            let requirement = availabilityArguments(index + 2..<close)
            guard !requirement.isEmpty else { return }
            availabilityAttribute(requirement, at: index - 1, after: close)
        }
    }

    /// `iOS 15, macOS 12.0, *` (the short form), or `iOS, introduced: 15.0` / `macOS, unavailable`.
    func availabilityArguments(_ range: Range<Int>) -> Availability {
        var result = Availability()
        var named: String?  // the platform of the long form
        var start = range.lowerBound
        while start < range.upperBound {
            let end = argumentEnd(from: start, close: range.upperBound)
            switch end - start {
            case 2 where isIdentifier(start) && tokens[start + 1].kind == .number:
                if let platform = Availability.platform(text(start)), let version = Availability.version(text(start + 1)) {
                    result.require(platform, version)
                }
            case 1 where isIdentifier(start):
                if start == range.lowerBound {
                    named = Availability.platform(text(start))
                } else if isWord(start, "unavailable"), let named {
                    result.unavailable.insert(named)
                }
            case 3 where isWord(start, "introduced") && isPunctuation(start + 1, ":") && tokens[start + 2].kind == .number:
                if let named, let version = Availability.version(text(start + 2)) { result.require(named, version) }
            default:
                break
            }
            start = end + 1
        }
        return result
    }

    /// The block a condition list ends with: the body of an `if` or `while`, or a `guard`'s `else`.
    func conditionBlock(after start: Int) -> (open: Int, isElse: Bool)? {
        var depth = 0
        var k = start
        // Condition lists are short; the bound keeps a stray `#available` from scanning the file.
        let limit = min(tokens.count, start + 1024)
        while k < limit {
            if isPunctuation(k, "(") || isPunctuation(k, "[") {
                depth += 1
            } else if isPunctuation(k, ")") || isPunctuation(k, "]") {
                if depth == 0 { return nil }
                depth -= 1
            } else if depth == 0 {
                if isPunctuation(k, "{") { return (k, isWord(k - 1, "else")) }
                if isPunctuation(k, "}") || isPunctuation(k, ";") { return nil }
            }
            k += 1
        }
        return nil
    }

    /// `if #available(…) { here }`, `guard #available(…) else { … }` and here to the end of the
    /// enclosing block; `if #unavailable(…) { … } else { here }`, `guard #unavailable(…) else { here }`.
    mutating func availabilityCondition(_ requirement: Availability, negated: Bool, after close: Int) {
        guard let (open, isElse) = conditionBlock(after: close + 1) else { return }
        switch (negated, isElse) {
        case (false, false), (true, true):
            availability.atOpen[open, default: Availability()].formUnion(requirement)
        case (false, true):
            availability.afterClose[open, default: Availability()].formUnion(requirement)
        case (true, false):
            let end = matchingClose(open)
            if isWord(end + 1, "else") && isPunctuation(end + 2, "{") {
                availability.atOpen[end + 2, default: Availability()].formUnion(requirement)
            }
        }
    }

    /// `@available(…)` before a func, init, subscript, computed or closure-initialized property,
    /// type or extension: its header and its body require what the attribute says.
    mutating func availabilityAttribute(_ requirement: Availability, at attribute: Int, after close: Int) {
        // Other attributes and modifiers come between (`@MainActor public final class`).
        var keyword: Int?
        var depth = 0
        var k = close + 1
        while k < min(tokens.count, close + 65) {
            if isPunctuation(k, "(") {
                depth += 1
            } else if isPunctuation(k, ")") {
                depth -= 1
            } else if depth == 0 {
                if isPunctuation(k, "{") || isPunctuation(k, "}") || isPunctuation(k, ";") { return }
                if isIdentifier(k), !isPunctuation(k - 1, "@"), Self.declarationKeywords.contains(text(k)),
                   !(isWord(k, "class") && isIdentifier(k + 1) && Self.declarationKeywords.contains(text(k + 1))) {
                    keyword = k
                    break
                }
            }
            k += 1
        }
        guard let keyword else { return }
        let isBinding = isWord(keyword, "var") || isWord(keyword, "let")
        var body: Int?
        depth = 0
        k = keyword + 1
        while k < min(tokens.count, keyword + 4096) {
            if isPunctuation(k, "(") || isPunctuation(k, "[") {
                depth += 1
            } else if isPunctuation(k, ")") || isPunctuation(k, "]") {
                if depth == 0 { break }
                depth -= 1
            } else if depth == 0 {
                if isPunctuation(k, "{") {
                    body = k
                    break
                }
                // A declaration without a body (a protocol requirement, a stored property) ends
                // before the next one.
                if isPunctuation(k, "}") || isPunctuation(k, ";") { break }
                if isPunctuation(k, "@") && tokens[k].line > tokens[k - 1].line { break }
                if isIdentifier(k), !isPunctuation(k - 1, "."), Self.declarationKeywords.contains(text(k)) { break }
                if isBinding && tokens[k].line > tokens[k - 1].line && !continuesAcrossLine(k) { break }
            }
            k += 1
        }
        availability.addHeader(attribute..<(body ?? k), requirement)
        if let body { availability.atOpen[body, default: Availability()].formUnion(requirement) }
    }
}
