import JSONReader

/// JSON inputs (`.storekit` files, product ID lists, App Store Connect snapshots) are read with
/// the compact `JSONReader`; these give its values the positions and facts the loaders use.
extension JSONNode {
    /// The value's span in its file.
    public var location: SourceLocation {
        let span = span
        return SourceLocation(file: document.file, line: span.line, column: span.column, endLine: span.endLine, endColumn: span.endColumn)
    }

    /// A fact for a string value.
    public func stringFact(_ source: FactSource) -> Fact<String>? {
        string.map { Fact($0, at: location, source: source) }
    }

    /// Parses a JSON input; a syntax error becomes its message and position.
    public static func parse(bytes: [UInt8], file: String, maxValues: Int = JSONDocument.maxValues, foldingDepth: Int = 0) throws(JSONInputError) -> JSONNode {
        do {
            return try JSONDocument.parse(bytes: bytes, file: file, maxValues: maxValues, foldingDepth: foldingDepth).root
        } catch {
            throw JSONInputError(message: error.message, location: SourceLocation(file: file, line: error.line, column: error.column))
        }
    }
}

extension JSONNode {
    /// ``standalone(maxValues:)`` for a loader: a value too large to read on its own is an error
    /// at its position.
    public func readAlone() throws(JSONInputError) -> JSONNode {
        do {
            return try standalone()
        } catch {
            throw JSONInputError(message: error.message, location: SourceLocation(file: error.file, line: error.line, column: error.column))
        }
    }
}

extension JSONNode.Member {
    /// The key's span (its quotes included).
    public var keyLocation: SourceLocation { keyNode.location }
}

/// A JSON input that is not JSON: what is wrong and where.
public struct JSONInputError: Error, Sendable {
    public var message: String
    public var location: SourceLocation
}
