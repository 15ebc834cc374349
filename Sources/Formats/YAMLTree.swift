import Yams

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A YAML document as a plain tree whose every node knows its span in the file (see ``YAMLSpans``).
///
/// Made from Yams's `compose` (never `Yams.load`, which expands an alias bomb into gigabytes):
/// aliases are expanded here under a node budget, merge keys (`<<`) are applied, and duplicate
/// keys are reported, so the rest of iapdoctor never sees YAML's sharper edges.
public indirect enum YAMLTree: Sendable {
    case scalar(YAMLScalar)
    case mapping([(key: YAMLScalar, value: YAMLTree)], SourceLocation)
    case sequence([YAMLTree], SourceLocation)

    public var location: SourceLocation {
        switch self {
        case .scalar(let scalar): return scalar.location
        case .mapping(_, let location), .sequence(_, let location): return location
        }
    }

    /// The value under `key` when this is a mapping.
    public subscript(key: String) -> YAMLTree? {
        guard case .mapping(let pairs, _) = self else { return nil }
        return pairs.first { $0.key.text == key }?.value
    }

    public var scalar: YAMLScalar? {
        if case .scalar(let scalar) = self { return scalar }
        return nil
    }

    /// `null`, `~` or an empty plain scalar.
    public var isNull: Bool { scalar?.isNull ?? false }

    /// What kind of node this is, for messages ("a mapping", "a list", "a text value").
    public var kindDescription: String {
        switch self {
        case .scalar(let scalar): return scalar.isNull ? "null" : "the value `\(scalar.text)`"
        case .mapping: return "a mapping"
        case .sequence: return "a list"
        }
    }
}

public struct YAMLScalar: Sendable, Hashable {
    public var text: String
    /// Quoted scalars are always text, never `null`, booleans or numbers.
    public var isQuoted: Bool
    public var location: SourceLocation

    package init(text: String, isQuoted: Bool, location: SourceLocation) {
        self.text = text
        self.isQuoted = isQuoted
        self.location = location
    }

    public var isNull: Bool {
        !isQuoted && (text.isEmpty || text == "~" || text == "null" || text == "Null" || text == "NULL")
    }
}

/// A problem found while reading a YAML file.
public struct YAMLProblem: Error, Sendable {
    public var message: String
    public var help: String
    public var location: SourceLocation

    package init(message: String, help: String, location: SourceLocation) {
        self.message = message
        self.help = help
        self.location = location
    }
}

public enum YAMLTreeReader {
    /// Most nodes a document may expand to (aliases count every time they are used). A check costs
    /// about 600 bytes per node at its peak (the composed tree, the project, the outcomes), so
    /// 750,000 nodes keep the largest accepted descriptor near 450 MB; a 10,000-product
    /// descriptor is about 300,000 nodes.
    public static let defaultNodeBudget = 750_000
    /// Largest YAML file read, in bytes (a 10,000-product descriptor is about 6 MB).
    public static let maxBytes = 12 << 20
    /// Longest single value, in bytes.
    public static let maxScalarBytes = 1 << 20

    /// Parses `bytes` (the contents of `file`). Throws one positioned problem for input that is not
    /// YAML at all; returns the tree and the duplicate-key problems otherwise.
    public static func read(
        bytes: [UInt8], file: String, nodeBudget: Int = defaultNodeBudget
    ) throws(YAMLProblem) -> (tree: YAMLTree?, duplicates: [YAMLProblem]) {
        guard bytes.count <= maxBytes else {
            throw YAMLProblem(
                message: "the file is \(bytes.count) bytes; YAML files larger than \(maxBytes) bytes are refused",
                help: "check that this is the right file", location: SourceLocation(file: file))
        }
        if let long = firstLongLine(bytes, limit: maxScalarBytes) {
            throw YAMLProblem(
                message: "line \(long) is longer than \(maxScalarBytes) bytes; descriptor lines are names, IDs and dates",
                help: "check that this is the right file", location: SourceLocation(file: file, line: long, column: 1))
        }
        // The standard library validates fast; the byte-by-byte walk only runs to find the position.
        if String(validating: bytes, as: UTF8.self) == nil, let bad = firstInvalidUTF8(bytes) {
            throw YAMLProblem(
                message: "the file is not valid UTF-8 (byte 0x\(String(bytes[bad.offset], radix: 16, uppercase: true)))",
                help: "save the file as UTF-8", location: SourceLocation(file: file, line: bad.line, column: bad.column))
        }
        // A UTF-8 byte order mark (Windows editors write one) is not part of the document: without
        // this the first key would be `\u{FEFF}version`. Columns on line 1 are counted after it,
        // as editors show them.
        let hasByteOrderMark = bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF
        let text = hasByteOrderMark
            ? bytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[3...]), as: UTF8.self) }
            : String(decoding: bytes, as: UTF8.self)
        let node: Node?
        do {
            // Scalars are typed by the descriptor reader, not by YAML tags: the basic resolver skips
            // the regex per scalar that the default one runs (most of the load time).
            node = try Yams.compose(yaml: text, Resolver.basic)
        } catch let error as YamlError {
            throw problem(from: error, file: file, text: text)
        } catch {
            throw YAMLProblem(message: "\(error)", help: "fix the YAML syntax", location: SourceLocation(file: file))
        }
        guard let node else { return (nil, []) }
        // Aliases may repeat parts of a document, but a document of N bytes has far fewer than N/2
        // nodes of its own: more than that is an alias bomb, refused before it is expanded.
        let budget = min(nodeBudget, max(10_000, bytes.count / 2))
        // Marks count Unicode scalars; the stdlib counts them fast even in a debug build.
        let spans = YAMLSpans(
            bytes: bytes, from: hasByteOrderMark ? 3 : 0, isASCII: text.unicodeScalars.count == text.utf8.count)
        var converter = Converter(file: file, budget: budget, spans: spans)
        let tree = try converter.convert(node, depth: 0)
        return (tree, converter.duplicates)
    }

    /// The first line (1-based) longer than `limit` bytes, if any: libyaml takes seconds and
    /// hundreds of megabytes on a scalar of tens of megabytes, so such files stop here.
    static func firstLongLine(_ bytes: [UInt8], limit: Int) -> Int? {
        bytes.withUnsafeBufferPointer { buffer -> Int? in
            guard let base = buffer.baseAddress else { return nil }
            var line = 1
            var start = 0
            while start < buffer.count {
                // memchr: fast even in debug builds, where a Swift byte loop over a big file is slow.
                guard let found = memchr(base + start, 0x0A, buffer.count - start) else {
                    return buffer.count - start > limit ? line : nil
                }
                let index = UnsafePointer<UInt8>(found.assumingMemoryBound(to: UInt8.self)) - base
                if index - start > limit { return line }
                line += 1
                start = index + 1
            }
            return nil
        }
    }

    /// Position of the first byte that is not valid UTF-8, or `nil` when all of it is.
    static func firstInvalidUTF8(_ bytes: [UInt8]) -> (offset: Int, line: Int, column: Int)? {
        var line = 1, column = 1, index = 0
        while index < bytes.count {
            let byte = bytes[index]
            var length = 0
            switch byte {
            case 0x00...0x7F: length = 1
            case 0xC2...0xDF: length = 2
            case 0xE0...0xEF: length = 3
            case 0xF0...0xF4: length = 4
            default: return (index, line, column)
            }
            guard index + length <= bytes.count else { return (index, line, column) }
            for k in 1..<length where bytes[index + k] & 0xC0 != 0x80 { return (index, line, column) }
            if length == 3 {
                let second = bytes[index + 1]
                if (byte == 0xE0 && second < 0xA0) || (byte == 0xED && second > 0x9F) { return (index, line, column) }
            }
            if length == 4 {
                let second = bytes[index + 1]
                if (byte == 0xF0 && second < 0x90) || (byte == 0xF4 && second > 0x8F) { return (index, line, column) }
            }
            if byte == 0x0A {
                line += 1
                column = 1
            } else {
                column += 1
            }
            index += length
        }
        return nil
    }

    static func problem(from error: YamlError, file: String, text: String) -> YAMLProblem {
        func lineText(_ number: Int) -> Substring? {
            let lines = text.split(separator: "\n", maxSplits: number, omittingEmptySubsequences: false)
            return number >= 1 && number <= lines.count ? lines[number - 1] : nil
        }
        func located(_ problem: String, _ mark: Mark?, _ context: YamlError.Context?) -> YAMLProblem {
            var message = problem
            if let context, !context.text.isEmpty { message = "\(problem) (\(context.text))" }
            let location = mark.map { SourceLocation(file: file, line: $0.line, column: $0.column) }
                ?? SourceLocation(file: file)
            // libyaml calls a tab "a character that cannot start any token"; say what it is.
            if let mark, let line = lineText(mark.line), line.hasPrefix("\t") || line.drop(while: { $0 == " " }).hasPrefix("\t") {
                return YAMLProblem(
                    message: "invalid YAML: line \(mark.line) is indented with a tab",
                    help: "indent with spaces; YAML does not allow tabs for indentation", location: location)
            }
            return YAMLProblem(message: "invalid YAML: \(message)", help: helpText(problem), location: location)
        }
        switch error {
        case .scanner(let context, let problem, let mark, _): return located(problem, mark, context)
        case .parser(let context, let problem, let mark, _): return located(problem, mark, context)
        case .composer(let context, let problem, let mark, _): return located(problem, mark, context)
        case .reader(let problem, _, _, _): return located(problem, nil, nil)
        case .duplicatedKeysInMapping(let duplicates, let context):
            return YAMLProblem(
                message: "duplicate key \(duplicates.map { "`\($0)`" }.joined(separator: ", ")) in a mapping",
                help: "keep one of the entries: YAML mappings cannot repeat a key",
                location: SourceLocation(file: file, line: context.mark.line, column: context.mark.column))
        default: return located("\(error)", nil, nil)
        }
    }

    static func helpText(_ problem: String) -> String {
        if problem.contains("tab") { return "indent with spaces; YAML does not allow tabs for indentation" }
        if problem.contains("nesting") { return "flatten the document; it nests deeper than YAML readers accept" }
        return "fix the YAML syntax at this position (a missing `:`, a wrong indentation or an unclosed quote or bracket are the usual causes)"
    }

    private struct Converter {
        let file: String
        var budget: Int
        var duplicates: [YAMLProblem] = []
        let spans: YAMLSpans
        /// Ends already found, by start mark: long scalars' and flow collections'.
        var longScalarEnds: [Int64: YAMLSpans.Point?] = [:]
        var flowCollectionEnds: [Int64: YAMLSpans.Point?] = [:]

        let initialBudget: Int

        init(file: String, budget: Int, spans: YAMLSpans) {
            self.file = file
            self.budget = budget
            self.initialBudget = budget
            self.spans = spans
        }

        func location(_ mark: Mark?) -> SourceLocation {
            SourceLocation(file: file, line: mark?.line ?? 0, column: mark?.column ?? 0)
        }

        func location(_ mark: Mark?, to end: YAMLSpans.Point?) -> SourceLocation {
            SourceLocation(
                file: file, line: mark?.line ?? 0, column: mark?.column ?? 0, endLine: end?.line ?? 0, endColumn: end?.column ?? 0)
        }

        /// A scalar's span: from its mark to the end of its value in the text.
        mutating func scalarLocation(_ scalar: Node.Scalar) -> SourceLocation {
            // Aliases repeat a node with its marks: a long value is looked at once, not once per use.
            let key = scalar.string.utf8.count > 64 ? scalar.mark.map(Self.key) : nil
            if let key, let known = longScalarEnds[key] { return location(scalar.mark, to: known) }
            let end = spans.point(scalar.mark).flatMap { spans.scalarEnd(from: $0, style: scalar.style, value: scalar.string) }
            if let key { longScalarEnds[key] = end }
            return location(scalar.mark, to: end)
        }

        /// A collection's span: to its closing bracket (flow style), or to its last entry's end.
        mutating func collectionLocation(_ mark: Mark?, lastEntry: SourceLocation?) -> SourceLocation {
            let lastEnd = lastEntry.flatMap { entry -> YAMLSpans.Point? in
                guard entry.hasEnd, let offset = spans.offset(line: entry.endLine, column: entry.endColumn) else { return nil }
                return YAMLSpans.Point(offset: offset, line: entry.endLine, column: entry.endColumn)
            }
            guard let start = spans.point(mark), spans.isFlowCollection(at: start) else { return location(mark, to: lastEnd) }
            // The scan to the bracket is short unless the text pads it: once per collection, as above.
            let key = mark.map(Self.key)
            if let key, let known = flowCollectionEnds[key] { return location(mark, to: known) }
            let end = spans.flowCollectionEnd(start: start, lastEntryEnd: lastEnd, isEmpty: lastEntry == nil)
            if let key { flowCollectionEnds[key] = end }
            return location(mark, to: end)
        }

        static func key(_ mark: Mark) -> Int64 { Int64(mark.line) << 32 | Int64(mark.column) }

        mutating func convert(_ node: Node, depth: Int) throws(YAMLProblem) -> YAMLTree {
            budget -= 1
            guard budget >= 0 else {
                throw YAMLProblem(
                    message: "the document expands to more than \(initialBudget) nodes (aliases are counted each time they are used)",
                    help: "remove the anchors and aliases that repeat large parts of the document",
                    location: location(node.mark))
            }
            guard depth < 200 else {
                throw YAMLProblem(
                    message: "the document nests more than 200 levels deep",
                    help: "flatten the document", location: location(node.mark))
            }
            switch node {
            case .scalar(let scalar):
                // No descriptor value is anywhere near this long; refuse rather than carry it around.
                guard scalar.string.utf8.count <= YAMLTreeReader.maxScalarBytes else {
                    throw YAMLProblem(
                        message: "a value is \(scalar.string.utf8.count) bytes long; values longer than \(YAMLTreeReader.maxScalarBytes) bytes are refused",
                        help: "check the file: descriptor values are names, IDs and dates", location: location(scalar.mark))
                }
                return .scalar(
                    YAMLScalar(text: scalar.string, isQuoted: scalar.style != .plain && scalar.style != .any,
                               location: scalarLocation(scalar)))
            case .alias(let alias):
                throw YAMLProblem(
                    message: "undefined alias `*\(alias.anchor.rawValue)`", help: "define the anchor before using it",
                    location: location(alias.mark))
            case .sequence(let sequence):
                var items: [YAMLTree] = []
                for item in sequence { items.append(try convert(item, depth: depth + 1)) }
                return .sequence(items, collectionLocation(sequence.mark, lastEntry: items.last?.location))
            case .mapping(let mapping):
                var pairs: [(key: YAMLScalar, value: YAMLTree)] = []
                var merged: [(key: YAMLScalar, value: YAMLTree)] = []
                var seen: [String: SourceLocation] = [:]
                // The last entry as written (a merged or repeated one included): where the mapping ends.
                var lastEntry: SourceLocation?
                for (keyNode, valueNode) in mapping {
                    guard case .scalar(let keyScalar) = keyNode else {
                        throw YAMLProblem(
                            message: "a mapping key must be a plain value, not a list or mapping",
                            help: "use a text key", location: location(keyNode.mark))
                    }
                    let key = YAMLScalar(
                        text: keyScalar.string, isQuoted: keyScalar.style != .plain && keyScalar.style != .any,
                        location: scalarLocation(keyScalar))
                    let value = try convert(valueNode, depth: depth + 1)
                    lastEntry = value.location
                    if key.text == "<<", !key.isQuoted {
                        // Merge key: the referenced mappings' entries, unless stated here.
                        let sources: [YAMLTree]
                        if case .sequence(let list, _) = value { sources = list } else { sources = [value] }
                        for source in sources {
                            guard case .mapping(let sourcePairs, _) = source else {
                                throw YAMLProblem(
                                    message: "a merge key `<<` needs a mapping or a list of mappings",
                                    help: "point `<<` at an anchored mapping (`<<: *defaults`)", location: key.location)
                            }
                            merged.append(contentsOf: sourcePairs)
                        }
                        continue
                    }
                    if let first = seen[key.text] {
                        duplicates.append(
                            YAMLProblem(
                                message: "duplicate key `\(key.text)`; it was already set at line \(first.line)",
                                help: "keep one `\(key.text)` entry in this mapping", location: key.location))
                        continue
                    }
                    seen[key.text] = key.location
                    pairs.append((key, value))
                }
                for pair in merged where seen[pair.key.text] == nil {
                    seen[pair.key.text] = pair.key.location
                    pairs.append(pair)
                }
                return .mapping(pairs, collectionLocation(mapping.mark, lastEntry: lastEntry))
            }
        }
    }
}
