// MARK: - `#if` conditions

extension SourceScanner {
    /// Whether a `#if` condition holds when building for `platform` (`ios`, `macos`, `tvos`,
    /// `watchos`, `visionos`): true, false, or nil when the files cannot tell (`DEBUG`, an unknown
    /// platform, a module that may or may not be there).
    static func conditionHolds(_ text: String, platform: String?) -> Bool? {
        var parser = ConditionParser(text: Array(text.utf8), platform: platform)
        let value = parser.disjunction()
        parser.skipSpaces()
        return parser.position == parser.text.count ? value : nil
    }

    struct ConditionParser {
        let text: [UInt8]
        let platform: String?
        var position = 0
        var depth = 0

        init(text: [UInt8], platform: String?) {
            self.text = text
            self.platform = platform
        }

        mutating func skipSpaces() {
            while position < text.count && (text[position] == 0x20 || text[position] == 0x09) { position += 1 }
        }

        mutating func take(_ symbol: String) -> Bool {
            skipSpaces()
            let bytes = Array(symbol.utf8)
            guard position + bytes.count <= text.count, Array(text[position..<position + bytes.count]) == bytes else { return false }
            position += bytes.count
            return true
        }

        mutating func disjunction() -> Bool? {
            var value = conjunction()
            while take("||") {
                let right = conjunction()
                value = value == true || right == true ? true : (value == false && right == false ? false : nil)
            }
            return value
        }

        mutating func conjunction() -> Bool? {
            var value = unary()
            while take("&&") {
                let right = unary()
                value = value == false || right == false ? false : (value == true && right == true ? true : nil)
            }
            return value
        }

        mutating func unary() -> Bool? {
            // Conditions are a line long; the bound keeps `!!!!…` or `((((…` from deep recursion.
            guard depth < 32 else {
                position = text.count
                return nil
            }
            depth += 1
            defer { depth -= 1 }
            if take("!") { return unary().map { !$0 } }
            if take("(") {
                let value = disjunction()
                guard take(")") else {
                    position = text.count
                    return nil
                }
                return value
            }
            return primary()
        }

        mutating func word() -> String {
            skipSpaces()
            let start = position
            while position < text.count && SourceScanner.isIdentifierPart(text[position]) { position += 1 }
            return String(decoding: text[start..<position], as: UTF8.self)
        }

        /// `os(macOS)`, `canImport(AppKit)`, `targetEnvironment(macCatalyst)`, `swift(>=5.9)`, a flag.
        mutating func primary() -> Bool? {
            let name = word()
            guard !name.isEmpty else {
                position = text.count
                return nil
            }
            guard take("(") else {
                if name == "true" { return true }
                if name == "false" { return false }
                return nil  // a build flag such as DEBUG
            }
            let start = position
            while position < text.count && text[position] != 0x29 { position += 1 }
            let argument = String(decoding: text[start..<position], as: UTF8.self).trimmingSpaces()
            guard take(")") else { return nil }
            switch name {
            case "os": return os(argument)
            case "canImport": return canImport(argument)
            case "targetEnvironment": return argument == "macCatalyst" && platform != nil ? false : nil
            case "swift", "compiler", "hasFeature", "hasAttribute": return true
            default: return nil
            }
        }

        func os(_ name: String) -> Bool? {
            guard let platform else { return nil }
            switch name {
            case "iOS": return platform == "ios"
            case "macOS", "OSX": return platform == "macos"
            case "tvOS": return platform == "tvos"
            case "watchOS": return platform == "watchos"
            case "visionOS", "xrOS": return platform == "visionos"
            case "Linux", "Windows", "Android", "FreeBSD", "OpenBSD", "WASI", "Cygwin", "PS4", "Haiku": return false
            default: return nil
            }
        }

        func canImport(_ module: String) -> Bool? {
            switch module {
            case "StoreKit", "Foundation", "SwiftUI", "Combine", "Darwin", "os": return true
            case "UIKit":
                guard let platform else { return nil }
                return platform == "ios" || platform == "tvos" || platform == "visionos"
            case "AppKit", "Cocoa":
                guard let platform else { return nil }
                return platform == "macos"
            case "WatchKit":
                guard let platform else { return nil }
                return platform == "watchos"
            default: return nil
            }
        }
    }
}

extension String {
    fileprivate func trimmingSpaces() -> String {
        var scalars = Substring(self)
        while scalars.first == " " { scalars.removeFirst() }
        while scalars.last == " " { scalars.removeLast() }
        return String(scalars)
    }
}

extension SourceScanner.Resolver {
    func conditionHolds(_ text: String) -> Bool? {
        SourceScanner.conditionHolds(text, platform: platform)
    }

    /// Whether a definition's `#if` branches can be the ones built: false when one cannot.
    func isActive(_ conditions: [SourceScanner.Condition]) -> Bool? {
        var result: Bool? = true
        for condition in conditions {
            guard let holds = conditionHolds(condition.text) else {
                result = nil
                continue
            }
            if holds != condition.holds { return false }
        }
        return result
    }
}
