import Formats
import Model
import Loaders

/// Decodes the composed node tree of the built-in rules.yaml that scripts/embed-rules.py writes
/// beside its text, so a start-up does not compose the YAML (a test keeps the two equal).
enum BuiltinRulesTree {
    static func decode(_ form: String, file: String) -> YAMLTree? {
        var form = form
        return form.withUTF8 { bytes in
            var reader = Reader(bytes: bytes, file: file)
            return reader.node()
        }
    }

    private struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        let file: String
        var offset = 0

        /// One header field: a tag letter or a decimal number, ended by a space or a newline.
        mutating func field() -> Int? {
            var value = 0, digits = 0
            while offset < bytes.count, bytes[offset] != UInt8(ascii: " "), bytes[offset] != UInt8(ascii: "\n") {
                let byte = bytes[offset]
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
                digits += 1
                offset += 1
            }
            offset += 1
            return digits > 0 ? value : nil
        }

        /// Four fields: the start's line and column, the end's line and column.
        mutating func location() -> SourceLocation? {
            guard let line = field(), let column = field(), let endLine = field(), let endColumn = field() else { return nil }
            return SourceLocation(file: file, line: line, column: column, endLine: endLine, endColumn: endColumn)
        }

        mutating func node() -> YAMLTree? {
            guard offset + 2 <= bytes.count else { return nil }
            let kind = bytes[offset]
            offset += 2
            switch kind {
            case UInt8(ascii: "M"):
                guard let count = field(), let location = location() else { return nil }
                var pairs: [(key: YAMLScalar, value: YAMLTree)] = []
                pairs.reserveCapacity(count)
                for _ in 0..<count {
                    guard case .scalar(let key)? = node(), let value = node() else { return nil }
                    pairs.append((key, value))
                }
                return .mapping(pairs, location)
            case UInt8(ascii: "L"):
                guard let count = field(), let location = location() else { return nil }
                var items: [YAMLTree] = []
                items.reserveCapacity(count)
                for _ in 0..<count {
                    guard let item = node() else { return nil }
                    items.append(item)
                }
                return .sequence(items, location)
            case UInt8(ascii: "S"):
                guard let quoted = field(), let location = location(), let length = field(),
                    offset + length <= bytes.count  // the literal drops the last newline
                else { return nil }
                let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[offset..<(offset + length)]), as: UTF8.self)
                offset += length + 1
                return .scalar(YAMLScalar(text: text, isQuoted: quoted != 0, location: location))
            default:
                return nil
            }
        }
    }
}
