// MARK: - The passes of a scan, and the resolution of every call site

extension SourceScanner {
    /// A type's superclass, its superclass's, and so on (at most 16, and never round a loop).
    static func ancestors(of type: String, in supertypes: [String: String]) -> [String] {
        var chain: [String] = []
        var current = type
        while let parent = supertypes[current], !chain.contains(parent), parent != type, chain.count < 16 {
            chain.append(parent)
            current = parent
        }
        return chain
    }

    /// Wrapper functions followed inside one another: a wrapper of a wrapper of a wrapper.
    static let maxWrapperDepth = 3

    /// Summarizes every file, finds the app's wrapper functions, summarizes again the files that
    /// call one (their calls are entry points, or make their caller a wrapper too), and resolves
    /// every call site. `platform` (`ios`, `macos`, …) chooses `#if os(…)` branches.
    static func scan(
        _ sources: [(path: String, language: Language, bytes: [UInt8])], platform: String? = nil, bundleIdentifier: String? = nil,
        bundle: BundleFiles = BundleFiles(), propertyLists: [String: String] = [:], environment: [(path: String, bytes: [UInt8])] = []
    ) -> SourceScan {
        var summaries = sources.map { summarize(bytes: $0.bytes, file: $0.path, language: $0.language) }
        // Files importing a barrel module import its library: read again knowing it.
        let moduleAliases = barrelAliases(summaries)
        for (index, aliases) in moduleAliases {
            summaries[index] = summarize(bytes: sources[index].bytes, file: sources[index].path, language: sources[index].language, moduleAliases: aliases)
        }
        var known: Set<String> = []
        for _ in 0..<maxWrapperDepth {
            var wrappers: [String: [WrapperFunction]] = [:]
            var storingTypes: Set<String> = []
            var requestTypes: Set<String> = []
            var supertypes: [String: String] = [:]
            for summary in summaries {
                for wrapper in summary.wrappers where !(wrappers[wrapper.name] ?? []).contains(where: { $0.display == wrapper.display }) {
                    wrappers[wrapper.name, default: []].append(wrapper)
                }
                storingTypes.formUnion(summary.storingTypes)
                requestTypes.formUnion(summary.requestTypes)
                supertypes.merge(summary.supertypes) { first, _ in first }
            }
            // Only types whose own code requests products: what their initializers store is
            // followed back to the calls that make one.
            storingTypes.formIntersection(requestTypes)
            // A subclass made with an inherited initializer stores what its superclass does.
            for type in supertypes.keys where Self.ancestors(of: type, in: supertypes).contains(where: storingTypes.contains) {
                storingTypes.insert(type)
            }
            let displays = Set(wrappers.values.joined().map(\.display)).union(storingTypes.map { "type:" + $0 })
            guard !displays.isSubset(of: known) else { break }
            known.formUnion(displays)
            let names = IdentifierSet(Array(wrappers.keys) + Array(storingTypes))
            let hashes = names.names.map { IdentifierFilter.hash($0) }
            for index in sources.indices where hashes.contains(where: summaries[index].identifiers.mayContain)
                && sources[index].bytes.containsIdentifier(in: names) {
                summaries[index] = summarize(
                    bytes: sources[index].bytes, file: sources[index].path, language: sources[index].language, wrappers: wrappers,
                    storingTypes: storingTypes, moduleAliases: moduleAliases[index] ?? [:])
            }
        }
        // Only when some script reads them: an `.env` of a native app is not code.
        var hints: [String: String] = [:]
        if summaries.contains(where: { $0.language == .javaScript }) {
            summaries += environment.filter { !isEnvironmentTemplate($0.path) }.map { file in
                isExpoConfig(file.path) ? expoExtraSummary(bytes: file.bytes, file: file.path) : environmentSummary(bytes: file.bytes, file: file.path)
            }
            hints = environmentHints(environment.filter { isEnvironmentTemplate($0.path) && !isExpoConfig($0.path) })
        }
        return resolve(summaries, platform: platform, bundleIdentifier: bundleIdentifier, bundle: bundle, propertyLists: propertyLists,
                       environmentHints: hints)
    }

    static func resolve(
        _ summaries: [FileSummary], platform: String? = nil, bundleIdentifier: String? = nil, bundle: BundleFiles = BundleFiles(),
        propertyLists: [String: String] = [:], environmentHints: [String: String] = [:]
    ) -> SourceScan {
        var resolver = Resolver(files: summaries)
        resolver.environmentHints = environmentHints
        resolver.bundle = bundle
        resolver.propertyLists = propertyLists
        resolver.platform = platform
        resolver.bundleIdentifier = bundleIdentifier
        var scan = SourceScan(filesScanned: summaries.count)
        var seen: Set<RequestedProductID> = []
        var imports: Set<String> = []
        var calledWrappers: Set<String> = []
        var unreadLibraries: Set<String> = []
        for file in summaries {
            for limit in file.limitsReached.sorted() {
                scan.problems.append(ScanProblem(message: "`\(file.path)`: \(limit)", path: file.path, kind: .skipped))
            }
        }
        for (fileIndex, file) in resolver.files.enumerated() {
            scan.usesStoreKit1 = scan.usesStoreKit1 || file.usesStoreKit1
            scan.usesStoreKit2 = scan.usesStoreKit2 || file.usesStoreKit2
            scan.storeKit2Uses += file.storeKit2Uses
            imports.formUnion(file.imports)
            scan.importsStoreKitForReviews = scan.importsStoreKitForReviews || file.importsStoreKitForReviews
            scan.secrets += file.secrets
            scan.paymentChecks += file.paymentChecks
            unreadLibraries.formUnion(file.unreadLibraries)
            resolver.fileWork = 0
            for call in file.calls {
                if let wrapper = call.wrapper { calledWrappers.insert(wrapper) }
                let api = call.wrapper.map { "\($0) → \(call.api)" } ?? call.api
                let written = call.written ?? (call.wrapper == nil ? Resolver.written(call.argument) : Resolver.written(call.arguments))
                if call.kind == .remoteConfiguration {
                    scan.unresolved.append(UnresolvedRequest(
                        location: call.location, api: api, argument: "",
                        reason: "RevenueCat offerings name no product ID in the code: the products come from the offerings configured in the RevenueCat dashboard",
                        kind: .offerings))
                    continue
                }
                if let isActive = resolver.isActiveCall(call), !isActive { continue }
                if !resolver.callRuns(call, file: fileIndex) { continue }
                resolver.failure = nil
                resolver.dropped = 0
                if call.kind == .revenueCatKey || call.kind == .offeringID {
                    scan.revenueCat += resolver.revenueCatReferences(call, file: fileIndex, api: api, written: written)
                    continue
                }
                // `ProductView(id: product.id)`: the ID of a product StoreKit already returned,
                // requested where it was fetched.
                if call.wrapper == nil ? Resolver.isFetchedProductID(call.argument)
                    : call.arguments.contains(where: { Resolver.isFetchedProductID($0.tokens) }) { continue }
                // A call site naming only literals costs its own length, whatever was spent before.
                resolver.unmetered = call.wrapper == nil
                    && !call.argument.contains { $0.kind == .identifier || ($0.kind == .string && !$0.isLiteral) }
                let evaluation = resolver.evaluateCall(call, file: fileIndex)
                resolver.unmetered = false
                guard let evaluated = evaluation else {
                    var unresolved = UnresolvedRequest(
                        location: call.location, api: api, argument: written,
                        reason: resolver.failure ?? "`\(written)` is not a string literal, a constant, a string enum case or a list of them",
                        kind: .unresolved)
                    unresolved.isGroup = call.kind == .groupID
                    scan.unresolved.append(unresolved)
                    continue
                }
                for case .unknown(let reason) in evaluated {
                    resolver.dropped += 1
                    resolver.fail(reason)
                }
                let items = evaluated.filter { if case .unknown = $0 { return false } else { return true } }
                let literals = items.compactMap { resolver.literal($0) }
                if items.isEmpty && resolver.dropped == 0 {
                    scan.unresolved.append(UnresolvedRequest(
                        location: call.location, api: api, argument: written,
                        reason: "every value the code gives `\(written)` is empty (an empty list, `nil`, or a function that returns one); the IDs are filled in at run time", kind: .empty))
                    continue
                }
                if literals.isEmpty {
                    // Nothing followed: not a partial success.
                    var unresolved = UnresolvedRequest(
                        location: call.location, api: api, argument: written,
                        reason: resolver.failure ?? "`\(written)` holds values that are not product ID strings", kind: .unresolved)
                    unresolved.isGroup = call.kind == .groupID
                    scan.unresolved.append(unresolved)
                    continue
                }
                if resolver.dropped > 0 {
                    scan.unresolved.append(UnresolvedRequest(
                        location: call.location, api: api, argument: written,
                        reason: "\(resolver.dropped) element\(resolver.dropped == 1 ? "" : "s") of `\(written)` could not be resolved"
                            + (resolver.failure.map { " (\($0))" } ?? ""),
                        kind: .partial))
                }
                for literal in literals {
                    if call.kind == .groupID {
                        let group = SubscriptionGroupReference(groupID: literal.value, location: literal.location, api: api)
                        if !scan.subscriptionGroups.contains(group) { scan.subscriptionGroups.append(group) }
                        continue
                    }
                    var request = RequestedProductID(id: literal.value, location: literal.location, api: call.api, viaConstant: literal.via)
                    request.wrapper = call.wrapper
                    if seen.insert(request).inserted { scan.requests.append(request) }
                }
            }
        }
        for file in resolver.files {
            for wrapper in file.wrappers {
                if case .wrapper(let inner, _) = wrapper.body { calledWrappers.insert(inner) }
            }
        }
        for file in resolver.files {
            resolver.fileWork = 0
            for wrapper in file.wrappers where wrapper.entry.kind != .revenueCatKey && wrapper.entry.kind != .offeringID
                && calledWrappers.insert(wrapper.display).inserted {
                resolver.failure = nil
                resolver.dropped = 0
                let fileIndex = resolver.files.firstIndex { $0.path == file.path } ?? 0
                for literal in (resolver.evaluateUncalled(wrapper, file: fileIndex) ?? []).compactMap({ resolver.literal($0) }) {
                    var request = RequestedProductID(id: literal.value, location: literal.location, api: wrapper.entry.api, viaConstant: literal.via)
                    request.wrapper = wrapper.display
                    scan.requests.append(request)
                }
                scan.unresolved.append(UnresolvedRequest(
                    location: wrapper.location, api: "\(wrapper.display) → \(wrapper.entry.api)", argument: "",
                    reason: "`\(wrapper.display)` hands its parameter to \(wrapper.entry.api), and no call of it with IDs iapdoctor can follow was found",
                    kind: .wrapperWithoutCalls))
            }
        }
        scan.resolutionWork = resolver.work
        scan.importedLibraries = imports.sorted()
        scan.unreadLibraries = unreadLibraries.subtracting(imports).sorted()
        scan.requests.sort {
            ($0.location, $0.id, $0.api, $0.viaConstant ?? "") < ($1.location, $1.id, $1.api, $1.viaConstant ?? "")
        }
        // One request per ID, place and API, whichever constant it came through.
        var placed: Set<String> = []
        scan.requests = scan.requests.filter { placed.insert("\($0.location)|\($0.id)|\($0.api)|\($0.wrapper ?? "")").inserted }
        scan.unresolved.sort { ($0.location, $0.api) < ($1.location, $1.api) }
        scan.subscriptionGroups.sort { ($0.location, $0.groupID) < ($1.location, $1.groupID) }
        scan.secrets.sort { ($0.location, $0.name) < ($1.location, $1.name) }
        var referenced: Set<RevenueCatReference> = []
        scan.revenueCat = scan.revenueCat.filter { referenced.insert($0).inserted }
        scan.revenueCat.sort { ($0.call, $0.location, $0.value ?? "") < ($1.call, $1.location, $1.value ?? "") }
        scan.storeKit2Uses.sort { ($0.location, $0.api) < ($1.location, $1.api) }
        return scan
    }

    /// Names looked for in files' bytes, with the bounds of their lengths.
    /// The first bytes and lengths they have are checked before a name is hashed.
    struct IdentifierSet {
        var names: Set<ArraySlice<UInt8>>
        var longest = 0
        var firstBytes = [Bool](repeating: false, count: 256)
        var lengths: [Bool] = []

        init(_ names: [String]) {
            self.names = Set(names.map { Array($0.utf8)[...] })
            longest = self.names.map(\.count).max() ?? 0
            lengths = [Bool](repeating: false, count: longest + 1)
            for name in self.names {
                if let first = name.first { firstBytes[Int(first)] = true }
                lengths[name.count] = true
            }
        }

        func mayContain(first: UInt8, length: Int) -> Bool {
            length <= longest && firstBytes[Int(first)] && lengths[length]
        }
    }

    /// 2,048 bits set by two hashes of each identifier: no false "absent", few false "present".
    struct IdentifierFilter: Sendable {
        var words = [UInt64](repeating: 0, count: 32)

        static func hash(_ bytes: some Collection<UInt8>) -> UInt64 {
            var hash: UInt64 = 0xcbf29ce484222325
            for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100000001b3 }
            return hash
        }

        mutating func insert(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) {
            add(Self.hash(UnsafeBufferPointer(rebasing: bytes[range])))
        }

        mutating func add(_ hash: UInt64) {
            let first = hash & 2047
            let second = (hash >> 32) & 2047
            words[Int(first >> 6)] |= 1 << (first & 63)
            words[Int(second >> 6)] |= 1 << (second & 63)
        }

        func mayContain(_ hash: UInt64) -> Bool {
            let first = hash & 2047
            let second = (hash >> 32) & 2047
            return words[Int(first >> 6)] & (1 << (first & 63)) != 0 && words[Int(second >> 6)] & (1 << (second & 63)) != 0
        }
    }
}
