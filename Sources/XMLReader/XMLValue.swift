/// The classic XMLReader dictionary shape, as a Swift value instead of `[String: Any]`.
///
/// Conversion rules (those of the Objective-C `XMLReader`, `dictionaryForXMLData:error:`):
/// 1. element names map to keys; 2. each element is a child dictionary; 3. attributes are entries
/// in the element's dictionary; 4. text goes under the text key (`"text"` by default); 5. a repeated
/// element name turns the value into an array of dictionaries.
///
/// Collisions, which the original resolves by silently overwriting, follow one rule here:
/// child elements always keep their name; an attribute named like a child element is stored as
/// `"@name"`; the element's text is stored under `"#" + textKey` when an attribute or child
/// already uses the text key. Nothing is ever dropped.
public enum XMLValue: Hashable, Sendable {
    case text(String)
    case dictionary(XMLDictionary)
    case array([XMLValue])

    /// The value under `key` when this is a dictionary.
    public subscript(key: String) -> XMLValue? {
        if case .dictionary(let dictionary) = self { return dictionary[key] }
        return nil
    }

    /// The value as an array: an array stays as it is, one value becomes a one-element array, and a
    /// missing value (`nil` receiver in optional chains) an empty one. This is the accessor that
    /// avoids the "one child is a dictionary, two are an array" trap.
    public var arrayValue: [XMLValue] {
        if case .array(let values) = self { return values }
        return [self]
    }

    /// Every value under `key`, always as an array (empty when the key is absent).
    public func array(_ key: String) -> [XMLValue] {
        self[key]?.arrayValue ?? []
    }

    public var stringValue: String? {
        if case .text(let string) = self { return string }
        return nil
    }

    public var dictionaryValue: XMLDictionary? {
        if case .dictionary(let dictionary) = self { return dictionary }
        return nil
    }

    /// Converts to Foundation-style values for callers who want the classic untyped shape:
    /// `[String: Any]` for dictionaries, `[Any]` for arrays, `String` for text.
    public var foundationValue: Any {
        switch self {
        case .text(let string): return string
        case .array(let values): return values.map(\.foundationValue)
        case .dictionary(let dictionary):
            var result: [String: Any] = [:]
            for (key, value) in dictionary.entries { result[key] = value.foundationValue }
            return result
        }
    }
}

/// A dictionary that keeps its keys in document order and remembers where its element started.
public struct XMLDictionary: Hashable, Sendable {
    public private(set) var entries: [(key: String, value: XMLValue)] = []
    /// Position of the element this dictionary was made from.
    public var position: XMLPosition

    public init(position: XMLPosition = XMLPosition(line: 0, column: 0)) {
        self.position = position
    }

    public var keys: [String] { entries.map(\.key) }
    public var count: Int { entries.count }

    /// Where each key's entry is: lookups stay constant-time however many distinct names an
    /// element has (a linear search was quadratic; found by fuzzing).
    private var positions: [String: Int] = [:]

    public subscript(key: String) -> XMLValue? {
        positions[key].map { entries[$0].value }
    }

    /// Adds `value` under `key`; a second value under the same key turns the entry into an array.
    public mutating func append(_ value: XMLValue, forKey key: String) {
        guard let index = positions[key] else {
            positions[key] = entries.count
            entries.append((key, value))
            return
        }
        switch entries[index].value {
        case .array(var values) where isRepeated[key] == true:
            values.append(value)
            entries[index].value = .array(values)
        case let existing:
            entries[index].value = .array([existing, value])
            isRepeated[key] = true
        }
    }

    /// Keys whose array was made by repetition (so a third value extends it instead of nesting).
    private var isRepeated: [String: Bool] = [:]

    public static func == (a: XMLDictionary, b: XMLDictionary) -> Bool {
        a.position == b.position && a.entries.count == b.entries.count
            && zip(a.entries, b.entries).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(position)
        for (key, value) in entries {
            hasher.combine(key)
            hasher.combine(value)
        }
    }
}

/// How the dictionary view is made from the node tree.
public struct XMLDictionaryOptions: Sendable {
    /// Key for an element's text.
    public var textKey: String = "text"
    /// Trim leading and trailing white space from text (white-space-only text is always dropped).
    public var trimText: Bool = true
    /// Use `prefix:name` instead of the local name as the key.
    public var qualifiedNames: Bool = false
    /// Element names whose value is always an array, even for a single occurrence.
    public var alwaysArray: Set<String> = []

    public init(
        textKey: String = "text", trimText: Bool = true, qualifiedNames: Bool = false,
        alwaysArray: Set<String> = []
    ) {
        self.textKey = textKey
        self.trimText = trimText
        self.qualifiedNames = qualifiedNames
        self.alwaysArray = alwaysArray
    }
}

extension XMLNode {
    /// The classic XMLReader shape of this element: `[name: dictionary]`, as a one-entry dictionary.
    public func dictionaryValue(options: XMLDictionaryOptions = XMLDictionaryOptions()) -> XMLValue {
        var root = XMLDictionary(position: position)
        let key = options.qualifiedNames ? qualifiedName : name
        let value = elementValue(options: options)
        root.append(options.alwaysArray.contains(key) ? .array([value]) : value, forKey: key)
        return .dictionary(root)
    }

    /// This element alone as a dictionary (attributes, children, text).
    /// Recursive: the reader caps depth (64 by default), so this stays shallow.
    public func elementValue(options: XMLDictionaryOptions = XMLDictionaryOptions()) -> XMLValue {
        var dictionary = XMLDictionary(position: position)
        let childKeys = Set(children.map { options.qualifiedNames ? $0.qualifiedName : $0.name })
        for attribute in attributes {
            let key = childKeys.contains(attribute.name) ? "@" + attribute.name : attribute.name
            dictionary.append(.text(attribute.value), forKey: key)
        }
        for child in children {
            let key = options.qualifiedNames ? child.qualifiedName : child.name
            let value = child.elementValue(options: options)
            if options.alwaysArray.contains(key), dictionary[key] == nil {
                dictionary.appendArray([value], forKey: key)
            } else {
                dictionary.append(value, forKey: key)
            }
        }
        let text = options.trimText ? self.text : rawText
        if !text.isEmpty, !rawText.allSatisfy(\.isXMLWhitespace) {
            let textKey = dictionary[options.textKey] == nil ? options.textKey : "#" + options.textKey
            dictionary.append(.text(text), forKey: textKey)
        }
        return .dictionary(dictionary)
    }
}

extension XMLDictionary {
    /// Starts `key` as an array that later values extend.
    mutating func appendArray(_ values: [XMLValue], forKey key: String) {
        positions[key] = entries.count
        entries.append((key, .array(values)))
        isRepeated[key] = true
    }
}

extension Character {
    var isXMLWhitespace: Bool { self == " " || self == "\t" || self == "\n" || self == "\r" || self == "\r\n" }
}
