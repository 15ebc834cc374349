import Foundation

// MARK: - `.env` files (react-native-config, react-native-dotenv, Expo's EXPO_PUBLIC_ variables)

extension SourceScanner {
    /// The `.env` files whose values a React Native or Expo app reads at build time, the first
    /// one a key is in giving its value. Templates (`.env.example`, `.env.sample`) hold no values.
    static let environmentFileNames = [".env", ".env.production", ".env.prod", ".env.release"]

    /// Templates: committed in place of an `.env` kept out of the repository. Their values are
    /// examples, never the app's; a request that reads one of their keys is told what they say.
    static let environmentTemplateNames = [".env.example", ".env.sample", ".env.template", ".env.dist"]

    /// A template's name: one of ``environmentTemplateNames``, or any `.env.…` name that ends in
    /// one of their suffixes (`.env.dev.example`, `.env.local.sample`).
    static func isEnvironmentTemplate(_ path: String) -> Bool {
        let name = (path as NSString).lastPathComponent
        return environmentTemplateNames.contains(name)
            || (name.hasPrefix(".env.") && [".example", ".sample", ".template", ".dist"].contains { name.hasSuffix($0) })
    }

    /// The environment files and templates a folder may hold, in the order they are read: the
    /// fixed names, then other templates by name (at most the folder's first 10,000 entries are
    /// looked at).
    static func environmentCandidates(in folder: String) -> [String] {
        var names = environmentFileNames + environmentTemplateNames
        if let directory = opendir(folder.isEmpty ? "." : folder) {
            defer { closedir(directory) }
            var extra: [String] = []
            var seen = 0
            while seen < 10_000, let entry = readdir(directory) {
                seen += 1
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
                }
                if isEnvironmentTemplate(name) && !names.contains(name) { extra.append(name) }
            }
            names += extra.sorted()
        }
        return names
    }

    /// Each `KEY=value` line: the key, the value (unquoted, without a trailing comment), and where
    /// the value starts (columns count Unicode scalars; a quoted value starts after its quote).
    static func environmentEntries(bytes: [UInt8]) -> [(key: String, value: String, line: Int, column: Int)] {
        var entries: [(key: String, value: String, line: Int, column: Int)] = []
        let text = String(decoding: bytes, as: UTF8.self)
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var line = Substring(rawLine)
            if line.hasSuffix("\r") { line = line.dropLast() }
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            guard !trimmed.hasPrefix("#"), let equals = trimmed.firstIndex(of: "=") else { continue }
            var key = trimmed[..<equals].trimmingCharacters(in: .whitespaces)
            if key.hasPrefix("export ") { key = String(key.dropFirst("export ".count)).trimmingCharacters(in: .whitespaces) }
            guard !key.isEmpty, key.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else { continue }
            var value = trimmed[trimmed.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            var valueStart = trimmed.index(after: equals)
            while valueStart < trimmed.endIndex && (trimmed[valueStart] == " " || trimmed[valueStart] == "\t") { valueStart = trimmed.index(after: valueStart) }
            if let quote = value.first, quote == "\"" || quote == "'" {
                // A quoted value ends at its closing quote; a comment may follow.
                guard let close = value.dropFirst().firstIndex(of: quote) else { continue }
                value = String(value[value.index(after: value.startIndex)..<close])
            } else if let comment = value.range(of: " #") {
                value = value[..<comment.lowerBound].trimmingCharacters(in: .whitespaces)
            }
            guard !value.isEmpty else { continue }
            var column = line[..<valueStart].unicodeScalars.count + 1
            if let quote = trimmed[valueStart...].first, quote == "\"" || quote == "'" { column += 1 }
            entries.append((key, value, index + 1, column))
        }
        return entries
    }

    /// Each `KEY=value` of an `.env` file as a constant the code reads three ways:
    /// `Config.KEY` (react-native-config), `process.env.KEY` (Expo, babel dotenv plugins) and
    /// `KEY` imported from `@env` (react-native-dotenv), each written where the value is.
    static func environmentSummary(bytes: [UInt8], file: String) -> FileSummary {
        var summary = FileSummary(path: file, language: .javaScript)
        for entry in environmentEntries(bytes: bytes) {
            let token = ExpressionToken(
                kind: .string, text: entry.value, isLiteral: true, line: entry.line, column: entry.column,
                endLine: entry.line, endColumn: entry.column + entry.value.unicodeScalars.count, attached: false)
            let context = Context(file: 0, position: 0, typePaths: [], language: .javaScript)
            for owner: [String]? in [["Config"], ["process", "env"], nil] {
                summary.definitions.append(Definition(
                    name: entry.key, owner: owner, localScope: nil, position: 0, isPrivate: false, expression: [token], context: context))
            }
        }
        return summary
    }

    /// What the templates say of each key, for a request that reads it: "the template
    /// `.env.example` (line 1) has `IOS_SKU=com.acme.pro`". The first template a key is in wins.
    static func environmentHints(_ templates: [(path: String, bytes: [UInt8])]) -> [String: String] {
        var hints: [String: String] = [:]
        for template in templates {
            for entry in environmentEntries(bytes: template.bytes) where hints[entry.key] == nil {
                hints[entry.key] = "the template `\(template.path)` (line \(entry.line)) has `\(entry.key)=\(entry.value)`"
            }
        }
        return hints
    }
}
