// MARK: - Expo's `extra` (app.json, app.config.js, app.config.ts)

extension SourceScanner {
    /// The Expo config files whose `extra` values the app reads at run time through
    /// `Constants.expoConfig.extra` (expo-constants), looked for where `.env` files are.
    static let expoConfigNames = ["app.json", "app.config.js", "app.config.ts"]

    static func isExpoConfig(_ path: String) -> Bool {
        expoConfigNames.contains(String(path.split(separator: "/").last ?? ""))
    }

    /// The names expo-constants gives the `extra` object, each an owner of its entries.
    static let expoExtraOwners: [[String]] = [
        ["Constants", "expoConfig", "extra"], ["Constants", "manifest", "extra"],
        ["Constants", "manifest2", "extra", "expoClient", "extra"],
    ]

    /// Each entry of the config's `extra` object as a constant of those owners, its value the
    /// expression written there: a literal (app.json), or code (`process.env.KEY`, read from an
    /// `.env` file like any other).
    static func expoExtraSummary(bytes: [UInt8], file: String) -> FileSummary {
        bytes.withUnsafeBufferPointer { buffer in
            var lexer = Lexer(bytes: buffer, language: .javaScript)
            lexer.run()
            var summarizer = Summarizer(bytes: buffer, tokens: lexer.tokens, file: file, language: .javaScript)
            summarizer.summary.source = bytes
            summarizer.expoExtra()
            var summary = summarizer.summary
            summary.calls = []
            return summary
        }
    }
}

extension SourceScanner.Summarizer {
    /// Finds `extra: {` (or `"extra": {`) and records each `key: value` inside it.
    mutating func expoExtra() {
        var index = 0
        while index + 2 < tokens.count {
            defer { index += 1 }
            guard keyName(index) == "extra", isPunctuation(index + 1, ":"), isPunctuation(index + 2, "{") else { continue }
            var k = index + 3
            while k < tokens.count, !isPunctuation(k, "}") {
                guard let name = keyName(k), isPunctuation(k + 1, ":") else { return }
                let start = k + 2
                var end = start
                var depth = 0
                while end < tokens.count {
                    if tokens[end].kind == .punctuation {
                        let byte = bytes[tokens[end].start]
                        if byte == 0x28 || byte == 0x5B || byte == 0x7B { depth += 1 }
                        if byte == 0x29 || byte == 0x5D || byte == 0x7D {
                            if depth == 0 { break }
                            depth -= 1
                        }
                        if byte == 0x2C && depth == 0 { break }
                    }
                    end += 1
                }
                if let expression = snapshot(start..<end) {
                    for owner in SourceScanner.expoExtraOwners {
                        summary.definitions.append(SourceScanner.Definition(
                            name: name, owner: owner, localScope: nil, position: k, isPrivate: false, expression: expression, context: context(k)))
                    }
                }
                k = end
                if isPunctuation(k, ",") { k += 1 }
            }
            return
        }
    }

    /// A property name: a word, or a string (`"extra"`).
    func keyName(_ index: Int) -> String? {
        guard index < tokens.count else { return nil }
        switch tokens[index].kind {
        case .identifier: return text(index)
        case .string: return stringValue(tokens[index])
        default: return nil
        }
    }
}
