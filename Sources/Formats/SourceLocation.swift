/// Where a fact or a finding comes from: a file and, where the format has them, a span from a
/// 1-based start (line, column) to an end (0 when unknown).
///
/// Columns count Unicode scalars (a tab is one column), as every reader counts them. The end is
/// SARIF's: `endLine` is the line of the span's last character, `endColumn` the column just after
/// it (exclusive), so a one-character value at column 5 ends at column 6 and an empty value has
/// `endColumn == column`. A location whose end is unknown is a point (`hasEnd` is false).
///
/// The four numbers are stored as 32-bit integers: a location stays 32 bytes (catalogs keep one
/// per item and field, 100,000 items at a time). Inputs are far
/// smaller than 2³¹ lines, and larger values are clamped.
public struct SourceLocation: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var file: String
    private var storedLine: Int32
    private var storedColumn: Int32
    private var storedEndLine: Int32
    private var storedEndColumn: Int32

    public var line: Int {
        get { Int(storedLine) }
        set { storedLine = Int32(clamping: newValue) }
    }

    public var column: Int {
        get { Int(storedColumn) }
        set { storedColumn = Int32(clamping: newValue) }
    }

    /// The line of the span's last character; 0 when the end is unknown.
    public var endLine: Int {
        get { Int(storedEndLine) }
        set { storedEndLine = Int32(clamping: newValue) }
    }

    /// The column just after the span's last character (exclusive); 0 when the end is unknown.
    public var endColumn: Int {
        get { Int(storedEndColumn) }
        set { storedEndColumn = Int32(clamping: newValue) }
    }

    public init(file: String, line: Int = 0, column: Int = 0, endLine: Int = 0, endColumn: Int = 0) {
        self.file = file
        storedLine = Int32(clamping: line)
        storedColumn = Int32(clamping: column)
        // An end before the start is no end: readers that cannot tell leave it unknown.
        let endsAfterStart = line > 0 && column > 0 && (endLine > line || (endLine == line && endColumn >= column))
        storedEndLine = endsAfterStart && endColumn > 0 ? Int32(clamping: endLine) : 0
        storedEndColumn = endsAfterStart && endColumn > 0 ? Int32(clamping: endColumn) : 0
    }

    /// The span's end is known.
    public var hasEnd: Bool { storedEndLine > 0 && storedEndColumn > 0 }

    /// The span starts and ends on one line.
    public var isOneLine: Bool { hasEnd && storedEndLine == storedLine }

    /// Ordered by file, then start, then end: the order findings are listed in.
    public static func < (a: SourceLocation, b: SourceLocation) -> Bool {
        (a.file, a.storedLine, a.storedColumn, a.storedEndLine, a.storedEndColumn)
            < (b.file, b.storedLine, b.storedColumn, b.storedEndLine, b.storedEndColumn)
    }

    /// `file:line:column`: the start only, as compilers print it.
    public var description: String {
        guard line > 0 else { return file }
        return column > 0 ? "\(file):\(line):\(column)" : "\(file):\(line)"
    }
}

/// Which kind of input stated a fact.
public enum FactSource: String, Sendable, Hashable {
    case descriptor, infoPlist = "info_plist", pbxproj, entitlements, profile, scheme, storekit, catalog,
        productList = "product_list", code, xcconfig,
        appStoreConnect = "app_store_connect", build, revenueCat = "revenuecat"
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
