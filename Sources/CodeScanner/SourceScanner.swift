import Foundation

/// A product ID the app's code hands to StoreKit, where its string literal is written.
public struct RequestedProductID: Sendable, Hashable {
    /// Exactly as written (whitespace and case kept; escapes decoded).
    public var id: String
    /// The literal's first character: Swift's opening `"` (the first `#` of a raw string), the `@` of
    /// an Objective-C string. For an enum case without a raw value, the case's name.
    public var location: CodeLocation
    /// The StoreKit entry point, e.g. `Product.products(for:)` or `-initWithProductIdentifiers:`.
    public var api: String
    /// The constant or enum case the literal reached the call through (`StoreIDs.pro`,
    /// `ProductID.gold`, `kPro`); nil when the literal is written in the call itself.
    public var viaConstant: String?
    /// The app's function that handed the IDs on (`requestProducts(_:)`), when the call site is one
    /// of a wrapper's.
    public var wrapper: String?

    public init(id: String, location: CodeLocation, api: String, viaConstant: String? = nil) {
        self.id = id
        self.location = location
        self.api = api
        self.viaConstant = viaConstant
    }
}

/// A string from a property list the app reads at run time: the Info.plist or a plist it ships.
public struct BundleString: Sendable, Hashable {
    /// The dictionary key it is the value of, if any.
    public var key: String?
    public var value: String
    public var location: CodeLocation

    public init(key: String? = nil, value: String, location: CodeLocation) {
        self.key = key
        self.value = value
        self.location = location
    }
}

/// What the app's bundle holds, for code that reads it: `Bundle.main.object(forInfoDictionaryKey:)`
/// and `Bundle.main.path(forResource:ofType:)`.
public struct BundleFiles: Sendable {
    /// The Info.plist's keys: a string value, each string of an array, each entry of a dictionary.
    public var infoPlist: [String: [BundleString]]
    /// Reads a property list found in the scanned folders as its product IDs.
    public var readPropertyList: @Sendable (_ path: String) -> [BundleString]?

    public init(infoPlist: [String: [BundleString]] = [:], readPropertyList: @escaping @Sendable (String) -> [BundleString]? = { _ in nil }) {
        self.infoPlist = infoPlist
        self.readPropertyList = readPropertyList
    }
}

/// Where something is written in a scanned file: 1-based line and column (in Unicode scalars),
/// and where its token ends (the line of its last character and the column after it; 0 when
/// unknown).
public struct CodeLocation: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var column: Int
    public var endLine: Int
    public var endColumn: Int

    public init(file: String, line: Int = 0, column: Int = 0, endLine: Int = 0, endColumn: Int = 0) {
        self.file = file
        self.line = line
        self.column = column
        self.endLine = endLine
        self.endColumn = endColumn
    }

    public static func < (a: CodeLocation, b: CodeLocation) -> Bool {
        (a.file, a.line, a.column) < (b.file, b.line, b.column)
    }

    public var description: String {
        guard line > 0 else { return file }
        return column > 0 ? "\(file):\(line):\(column)" : "\(file):\(line)"
    }
}

/// A call site that hands StoreKit (or an In-App Purchase library) product IDs iapdoctor cannot
/// work out from the code: built at run time, read from a server, a parameter, a model's field.
public struct UnresolvedRequest: Sendable, Hashable {
    /// The entry point's name in the call (`Product` of `Product.products(for:)`, `StoreView`).
    public var location: CodeLocation
    public var api: String
    /// The argument as written, shortened to 80 characters.
    public var argument: String
    /// What stopped the resolution, e.g. "`selectedProductID` is not a constant".
    public var reason: String
    public var kind: Kind
    /// The argument is a subscription group ID, not product IDs.
    public var isGroup = false

    public enum Kind: String, Sendable, Hashable {
        /// Nothing of the argument could be resolved.
        case unresolved
        /// Some elements of a list were resolved, others were not.
        case partial
        /// It resolved to an empty list: the IDs are filled in at run time.
        case empty
        /// RevenueCat offerings: the IDs live in the RevenueCat dashboard.
        case offerings
        /// A wrapper function's parameter reaches StoreKit but no call of the wrapper was found.
        case wrapperWithoutCalls
    }

    public init(location: CodeLocation, api: String, argument: String, reason: String, kind: Kind) {
        self.location = location
        self.api = api
        self.argument = argument
        self.reason = reason
        self.kind = kind
    }
}

/// A subscription group ID handed to a StoreKit view (`SubscriptionStoreView(groupID:)`): a group,
/// not a product.
public struct SubscriptionGroupReference: Sendable, Hashable {
    public var groupID: String
    public var location: CodeLocation
    public var api: String
}

/// A value that looks like an App Store shared secret (32 hexadecimal digits) under a name that
/// says secret. The value is kept only for the reporters to mask it; no description prints it.
public struct SecretSighting: Sendable, Hashable, CustomStringConvertible {
    /// Where the value is written.
    public var location: CodeLocation
    /// The key, constant or argument label it is written under (`SharedSecret`, `sharedSecret:`).
    public var name: String
    /// The value, for reporters to mask where they quote its line; never printed.
    public var value: String

    public init(location: CodeLocation, name: String, value: String) {
        self.location = location
        self.name = name
        self.value = value
    }

    public var description: String { "\(name) at \(location): <secret>" }
}

/// A value the code hands to a RevenueCat SDK that is not a product ID: the SDK's API key
/// (`Purchases.configure(withAPIKey:)`) or an offering's identifier (`offerings.all["pro"]`).
/// A secret key's value is kept only for the rules to judge and the reporters to mask.
public struct RevenueCatReference: Sendable, Hashable {
    public enum Kind: String, Sendable { case apiKey, offering }
    public var kind: Kind
    /// nil when the code's value could not be worked out (read at run time, from a file the scan
    /// does not read).
    public var value: String?
    /// Where the value is written (the literal, or the constant it comes from), else the call.
    public var location: CodeLocation
    /// The call, as shown to the user: `Purchases.configure(withAPIKey:)`.
    public var api: String
    /// Where the call is.
    public var call: CodeLocation
    /// The argument as written, shortened.
    public var written: String
    /// true when only Debug builds compile the call (`#if DEBUG`), false when only the others do
    /// (its `#else`, `#if !DEBUG`); nil when every build does.
    public var debugOnly: Bool?

    public init(kind: Kind, value: String?, location: CodeLocation, api: String, call: CodeLocation, written: String, debugOnly: Bool? = nil) {
        self.kind = kind
        self.value = value
        self.location = location
        self.api = api
        self.call = call
        self.written = written
        self.debugOnly = debugOnly
    }
}

/// Something the scan could not read. `missing` roots are typos in `app.sources`.
public struct ScanProblem: Sendable, Hashable {
    public enum Kind: String, Sendable { case missing, unreadable, oversized, skipped }
    public var message: String
    public var path: String
    public var kind: Kind
}

/// What a scan of Swift and Objective-C sources found.
public struct SourceScan: Sendable {
    /// Sorted by the literal's location (files by path, then line and column).
    public var requests: [RequestedProductID]
    /// Call sites whose IDs could not be worked out, sorted by location.
    public var unresolved: [UnresolvedRequest] = []
    public var subscriptionGroups: [SubscriptionGroupReference] = []
    public var secrets: [SecretSighting] = []
    /// RevenueCat SDK keys and offering identifiers the code names, sorted by location.
    public var revenueCat: [RevenueCatReference] = []
    /// `SKProductsRequest`, `SKPayment`, `SKMutablePayment` or `SKPaymentQueue` appears in code.
    public var usesStoreKit1: Bool
    /// `Product.products(for:)`, a purchase of a fetched `Product`, or `Product.PurchaseResult` /
    /// `Product.PurchaseOption` appears in code.
    public var usesStoreKit2: Bool
    /// Each StoreKit 2 use behind `usesStoreKit2` in Swift, with the OS versions the
    /// `#available` checks and `@available` attributes around it require; sorted by location.
    public var storeKit2Uses: [StoreKit2Use] = []
    /// StoreKit and In-App Purchase libraries the code imports (`StoreKit`, `RevenueCat`, …), sorted.
    public var importedLibraries: [String] = []
    /// Some file imports StoreKit only to ask for App Store reviews (not in ``importedLibraries``).
    public var importsStoreKitForReviews = false
    /// Where the code asks whether the device may make payments (`canMakePayments`), at most one
    /// place per file, sorted.
    public var paymentChecks: [PaymentCheck] = []
    /// Imported modules named like purchase libraries that the scanner does not read, sorted.
    public var unreadLibraries: [String] = []
    /// Configuration files of In-App Purchase libraries found in the scanned folders
    /// (`MKStoreKitConfigs.plist`), to be read as product ID lists.
    public var libraryConfigurationFiles: [String] = []
    public var filesScanned: Int
    /// IDs the constant resolver handled in all (at most `maxResolutionWork` for one file's call
    /// sites, `maxTotalResolutionWork` for the project's): a measure of its cost that tests can
    /// check without timing anything.
    public var resolutionWork = 0
    public static let maxResolutionWork = SourceScanner.Resolver.maxWork
    public static let maxTotalResolutionWork = SourceScanner.Resolver.maxTotalWork
    /// The longest string a constant is built to before it is no longer followed.
    public static let maxBuiltTextBytes = SourceScanner.Resolver.maxTextBytes
    /// Files that could not be read, symbolic link loops, oversized files, missing paths. Never fatal.
    public var problems: [ScanProblem]

    public init(requests: [RequestedProductID] = [], usesStoreKit1: Bool = false, usesStoreKit2: Bool = false,
                filesScanned: Int = 0, problems: [ScanProblem] = []) {
        self.requests = requests
        self.usesStoreKit1 = usesStoreKit1
        self.usesStoreKit2 = usesStoreKit2
        self.filesScanned = filesScanned
        self.problems = problems
    }

    /// Whether the code shows any sign of In-App Purchase: an import, a StoreKit type, a request.
    public var mentionsInAppPurchase: Bool {
        !importedLibraries.isEmpty || usesStoreKit1 || usesStoreKit2 || !requests.isEmpty || !unresolved.isEmpty
    }
}

/// Finds the product IDs that Swift and Objective-C code passes to StoreKit. Each file is tokenized
/// once (comments, escapes, multi-line and raw strings understood) and summarized into its
/// constants, string enums and StoreKit call sites; the call sites are then resolved against the
/// constants of every scanned file, so an ID defined in `StoreIDs.swift` and requested in
/// `Store.swift` is found and reported where its literal is written.
public enum SourceScanner {
    // The folders a scan skips are `FolderWalker.skippedFolderNames` and project bundles, the same
    // ones `iapdoctor init` skips.
    /// Larger files are generated or vendored; reading them would only slow the scan down.
    static let maxFileBytes = 4 << 20
    /// Sources read in all by one scan: several times the largest app's.
    static let maxScanBytes = 256 << 20

    /// Reads one file, at most `maxBytes`; a failure is its message.
    public typealias FileReader = @Sendable (_ path: String, _ maxBytes: Int) -> Result<[UInt8], ReadFailure>

    public struct ReadFailure: Error, Sendable {
        public var message: String
        public init(_ message: String) { self.message = message }
    }

    /// Reads with Foundation; iapdoctor passes its own reader, which records every input it opens.
    public static let defaultReader: FileReader = { path, maxBytes in
        guard let handle = FileHandle(forReadingAtPath: path) else { return .failure(ReadFailure("cannot read `\(path)`")) }
        defer { try? handle.close() }
        let data = (try? handle.read(upToCount: maxBytes + 1)) ?? Data()
        if data.count > maxBytes { return .failure(ReadFailure("skipped `\(path)`: larger than \(maxBytes >> 20) MiB")) }
        return .success(Array(data))
    }

    /// Scans files and folders; relative paths are joined to `baseDirectory` and findings keep
    /// that joined path.
    /// With a `root` (its links resolved), the walk never leaves it: a link leading outside is a problem.
    /// `platform` (`ios`, `macos`, `tvos`, `watchos`, `visionos`) chooses `#if os(…)` branches;
    /// `bundleIdentifier` is what `Bundle.main.bundleIdentifier` gives.
    public static func scan(
        paths: [String], baseDirectory: String, root: String? = nil, platform: String? = nil, bundleIdentifier: String? = nil,
        bundle: BundleFiles = BundleFiles(), reader: FileReader = defaultReader
    ) -> SourceScan {
        var walk = SourceFinder(root: root)
        for path in paths {
            var resolved = path.hasPrefix("/") || baseDirectory.isEmpty || baseDirectory == "." ? path : baseDirectory + "/" + path
            if path == "." { resolved = baseDirectory.isEmpty ? "." : baseDirectory }
            while resolved.hasSuffix("/.") { resolved.removeLast(2) }
            while resolved.count > 1 && resolved.hasSuffix("/") { resolved.removeLast() }
            walk.visit(root: resolved)
        }
        var problems = walk.problems
        var sources: [(path: String, language: Language, bytes: [UInt8])] = []
        // Sorted so that the order of `paths` cannot change which of two same-named constants wins.
        for file in walk.files.sorted(by: { $0.path < $1.path }) {
            switch reader(file.path, maxFileBytes) {
            case .success(let bytes): sources.append((file.path, file.language, bytes))
            case .failure(let failure): problems.append(ScanProblem(message: failure.message, path: file.path, kind: .unreadable))
            }
        }
        var propertyLists: [String: String] = [:]
        for path in walk.propertyLists.sorted() where propertyLists[(path as NSString).lastPathComponent] == nil {
            propertyLists[(path as NSString).lastPathComponent] = path
        }
        // `.env` files in a scanned folder or beside it (the app's root, when `src/` is scanned).
        var environment: [(path: String, bytes: [UInt8])] = []
        var environmentSeen: Set<String> = []
        for path in paths {
            var folder = path.hasPrefix("/") || baseDirectory.isEmpty || baseDirectory == "." ? path : baseDirectory + "/" + path
            while folder.count > 1 && folder.hasSuffix("/") { folder.removeLast() }
            for directory in [folder, (folder as NSString).deletingLastPathComponent] {
                for name in environmentCandidates(in: directory) + expoConfigNames {
                    let file = directory.isEmpty || directory == "." ? name : directory + "/" + name
                    let real = FolderWalker.realPath(file)
                    var info = stat()
                    guard stat(file, &info) == 0, FolderWalker.kind(info.st_mode) == .regularFile, walk.walker.isInsideRoot(real),
                          environmentSeen.insert(real).inserted, case .success(let bytes) = reader(file, 1 << 20) else { continue }
                    // A template is only quoted in notes: by its path from the project's folder.
                    let base = baseDirectory.hasSuffix("/") ? baseDirectory : baseDirectory + "/"
                    let shown = isEnvironmentTemplate(file) && !baseDirectory.isEmpty && file.hasPrefix(base) ? String(file.dropFirst(base.count)) : file
                    environment.append((shown, bytes))
                }
            }
        }
        var scan = scan(sources, platform: platform, bundleIdentifier: bundleIdentifier, bundle: bundle, propertyLists: propertyLists,
                        environment: environment)
        scan.problems = problems + scan.problems
        scan.libraryConfigurationFiles = walk.configurationFiles.sorted()
        // MKStoreKit reads its IDs from its configuration file, which is read as a list: its own
        // request, fed from that file at run time, is not a call site left unknown.
        if !scan.libraryConfigurationFiles.isEmpty {
            scan.unresolved.removeAll { libraryFilesReadingConfiguration.contains(($0.location.file as NSString).lastPathComponent) }
        }
        return scan
    }

    /// Scans several files' text together, in the order given; each language comes from the
    /// file's extension, and files in neither language are left out.
    /// `propertyLists` are the plist files the app ships, by name, read with `bundle`.
    public static func scan(
        sources: [(file: String, text: String)], platform: String? = nil, bundleIdentifier: String? = nil,
        bundle: BundleFiles = BundleFiles(), propertyLists: [String: String] = [:]
    ) -> SourceScan {
        scan(sources.compactMap { source in
            language(ofFile: source.file).map { (source.file, $0, Array(source.text.utf8)) }
        }, platform: platform, bundleIdentifier: bundleIdentifier, bundle: bundle, propertyLists: propertyLists)
    }

    /// Scans one file's text; the language comes from the file's extension.
    public static func scan(source: String, file: String) -> SourceScan {
        guard let language = language(ofFile: file) else {
            return SourceScan(problems: [ScanProblem(
                message: "skipped `\(file)`: not a \(sourceKinds)", path: file, kind: .skipped)])
        }
        return scan([(file, language, Array(source.utf8))])
    }
}

