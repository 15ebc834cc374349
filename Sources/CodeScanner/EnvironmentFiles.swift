import Foundation

// MARK: - `.env` files (react-native-config, react-native-dotenv, Expo's EXPO_PUBLIC_ variables)

extension SourceScanner {
    /// The `.env` files whose values a React Native or Expo app reads at build time, the first
    /// one a key is in giving its value. Templates (`.env.example`, `.env.sample`) hold no values.
    static let environmentFileNames = [".env", ".env.production", ".env.prod", ".env.release"]

    /// Each `KEY=value` of an `.env` file as a constant the code reads three ways:
    /// `Config.KEY` (react-native-config), `process.env.KEY` (Expo, babel dotenv plugins) and
    /// `KEY` imported from `@env` (react-native-dotenv), each written where the value is.
    static func environmentSummary(bytes: [UInt8], file: String) -> FileSummary {
        var summary = FileSummary(path: file, language: .javaScript)
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
            // Columns count Unicode scalars; a quoted value starts after its quote.
            var column = line[..<valueStart].unicodeScalars.count + 1
            if let quote = trimmed[valueStart...].first, quote == "\"" || quote == "'" { column += 1 }
            let token = ExpressionToken(
                kind: .string, text: value, isLiteral: true, line: index + 1, column: column,
                endLine: index + 1, endColumn: column + value.unicodeScalars.count, attached: false)
            let context = Context(file: 0, position: 0, typePaths: [], language: .javaScript)
            for owner: [String]? in [["Config"], ["process", "env"], nil] {
                summary.definitions.append(Definition(
                    name: key, owner: owner, localScope: nil, position: 0, isPrivate: false, expression: [token], context: context))
            }
        }
        return summary
    }
}
