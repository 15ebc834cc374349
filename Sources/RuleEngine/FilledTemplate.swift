import Formats
import Model
import Loaders

extension DeclarativeRule {
    /// A message or help template cut once into literal bytes and the names it fills in, with
    /// the rule's options already put in: what ``DeclarativeRule/fill(_:fields:metadata:)`` does,
    /// without looking each `{name}` up again for every finding (a faulty catalog fills two
    /// templates per item, and a dictionary of fields and a string per name would be most of it).
    struct CompiledTemplate {
        /// The names a catalog check fills in.
        enum Field {
            case value, length, field, product
        }

        enum Part {
            case literal([UInt8])
            case field(Field)
        }

        let parts: [Part]

        /// Cuts `template` as ``DeclarativeRule/fill(_:fields:metadata:)`` reads it: `{` up to the
        /// next `}`; a field first, then an option; any other name stays as written.
        init(_ template: String, metadata: RuleMetadata) {
            var parts: [Part] = []
            var literal: [UInt8] = []
            let utf8 = Array(template.utf8)
            let fieldNames: [String: Field] = ["value": .value, "length": .length, "field": .field, "product": .product]
            var rest = 0
            while let open = utf8[rest...].firstIndex(of: UInt8(ascii: "{")),
                let close = utf8[open...].firstIndex(of: UInt8(ascii: "}"))
            {
                literal += utf8[rest..<open]
                let name = String(decoding: utf8[(open + 1)..<close], as: UTF8.self)
                if let field = fieldNames[name] {
                    if !literal.isEmpty { parts.append(.literal(literal)) }
                    literal = []
                    parts.append(.field(field))
                } else if let option = metadata.option(name)?.text {
                    literal += option.utf8
                } else {
                    literal += utf8[open...close]
                }
                rest = close + 1
            }
            literal += utf8[rest...]
            if !literal.isEmpty { parts.append(.literal(literal)) }
            self.parts = parts
        }

        /// The text with the fields put in (`length`: `value`'s length in characters).
        func fill(value: String, field: String, product: String) -> String {
            var result: [UInt8] = []
            result.reserveCapacity(160)
            fill(value: value, field: field, product: product, into: &result)
            return String(decoding: result, as: UTF8.self)
        }

        /// `value.count`, without grapheme breaking for ASCII text without carriage returns (one
        /// character per byte).
        static func characterCount(_ value: String) -> Int {
            var value = value
            let simple = value.withUTF8 { Constraints.isSimple($0) }
            return simple ? value.utf8.count : value.count
        }

        /// The text, appended to `bytes` as UTF-8.
        func fill(value: String, field: String, product: String, into bytes: inout [UInt8]) {
            for part in parts {
                switch part {
                case .literal(let literal): bytes += literal
                case .field(.value): CompactFindings.append(value, to: &bytes)
                case .field(.length): CompactFindings.append(String(Self.characterCount(value)), to: &bytes)
                case .field(.field): CompactFindings.append(field, to: &bytes)
                case .field(.product): CompactFindings.append(product, to: &bytes)
                }
            }
        }
    }
}
