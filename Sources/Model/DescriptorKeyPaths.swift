import Formats

/// What every key enum of `Generated/DescriptorKeys.swift` offers: the name the descriptor spells
/// inside its mapping, and the path a question or a problem names.
public protocol DescriptorSchemaKey: RawRepresentable, CaseIterable, Hashable, Sendable where RawValue == String {
    /// The key as it is written inside its own mapping (`bundle_id` for `app.bundle_id`).
    var name: String { get }
    /// The key's path inside a mapping at `prefix` (`products[2].status`); `DescriptorKey`s are
    /// paths from the top already.
    func path(in prefix: String) -> String
    /// Every key's name, in the schema's order (generated, made once).
    static var names: [String] { get }
}

extension DescriptorSchemaKey {
    public var name: String { rawValue }
    public func path(in prefix: String) -> String { prefix.isEmpty ? rawValue : "\(prefix).\(rawValue)" }
}

extension DescriptorKey: DescriptorSchemaKey {
    /// The top level's key names (a `DescriptorKey`'s mapping is given by its path: `names(in:)`).
    public static var names: [String] { names(in: nil) }

    public var name: String { rawValue.split(separator: ".").last.map(String.init) ?? rawValue }
    public func path(in prefix: String) -> String { rawValue }

    /// The mapping this key sits in (`nil` at the top level).
    public var parent: DescriptorKey? {
        rawValue.lastIndex(of: ".").flatMap { DescriptorKey(rawValue: String(rawValue[..<$0])) }
    }

    /// The keys a mapping may hold, in the schema's order (`nil`: the top level).
    public static func keys(in mapping: DescriptorKey?) -> [DescriptorKey] {
        allCases.filter { $0.parent == mapping }
    }

    /// Their names, made once (`namesByMapping`, generated).
    public static func names(in mapping: DescriptorKey?) -> [String] { namesByMapping[mapping?.rawValue ?? ""] ?? [] }
}

extension ProductKey: DescriptorSchemaKey {}
extension SubscriptionGroupKey: DescriptorSchemaKey {}
extension LocalizationKey: DescriptorSchemaKey {}

/// The descriptor key a question or a disagreement sends the user to: made only from the schema's
/// keys, so a place that names a key cannot misspell it.
public struct DescriptorKeyPath: Hashable, Sendable, CustomStringConvertible {
    /// `app.bundle_id`, `products[2].status`.
    public let rawValue: String

    public init(_ key: DescriptorKey) { rawValue = key.rawValue }

    /// `key` of the list entry or locale at `prefix` (`products[2]`, `products[] (product_id: x)`).
    public init<Key: DescriptorSchemaKey>(_ key: Key, in prefix: String) { rawValue = key.path(in: prefix) }

    public var description: String { rawValue }
}
