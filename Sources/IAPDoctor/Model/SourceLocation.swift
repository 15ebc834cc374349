/// Where a fact or a finding comes from: a file and, where the format has them, a 1-based line and
/// column (0 when unknown).
public struct SourceLocation: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var column: Int

    public init(file: String, line: Int = 0, column: Int = 0) {
        self.file = file
        self.line = line
        self.column = column
    }

    public static func < (a: SourceLocation, b: SourceLocation) -> Bool {
        (a.file, a.line, a.column) < (b.file, b.line, b.column)
    }

    public var description: String {
        guard line > 0 else { return file }
        return column > 0 ? "\(file):\(line):\(column)" : "\(file):\(line)"
    }
}

/// Which kind of input stated a fact.
public enum FactSource: String, Sendable, Hashable {
    case descriptor, infoPlist = "info_plist", pbxproj, entitlements, profile, scheme, storekit, catalog,
        productList = "product_list", code, xcconfig,
        appStoreConnect = "app_store_connect"
}

/// A value that remembers where it was stated. A fact that was not stated is absent (`nil`), never
/// defaulted: absence is what makes a checklist item `unknown`.
public struct Fact<Value: Sendable>: Sendable {
    public var value: Value
    public var location: SourceLocation
    public var source: FactSource

    public init(_ value: Value, at location: SourceLocation, source: FactSource = .descriptor) {
        self.value = value
        self.location = location
        self.source = source
    }

    public func map<T>(_ transform: (Value) -> T) -> Fact<T> {
        Fact<T>(transform(value), at: location, source: source)
    }
}

extension Fact: Equatable where Value: Equatable {}
extension Fact: Hashable where Value: Hashable {}
