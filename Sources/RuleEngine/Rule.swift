import Formats
import Model
import Loaders

/// A rule with logic: a pure function from the project to outcomes. Its metadata (checklist item,
/// severity, options, examples) lives in `rules.yaml` under the same id.
public protocol Rule: Sendable {
    var id: String { get }
    func check(_ context: RuleContext) -> [Outcome]
    /// This rule as a per-item catalog rule, when it is one (``CatalogItemRule`` supplies it). A
    /// requirement rather than `rule as? any CatalogItemRule`: a failed cast to a protocol searches
    /// every conformance in the binary, and a run would repeat that search for each of its rules.
    var asCatalogItemRule: (any CatalogItemRule)? { get }
}

extension Rule {
    public var asCatalogItemRule: (any CatalogItemRule)? { nil }
}

/// What a rule sees: the project, its own metadata (with the user's overrides applied), the
/// clock, and the requested IDs already matched against the known products.
public struct RuleContext: Sendable {
    public let project: Project
    public let metadata: RuleMetadata
    /// `checked_at`, or the current time.
    public let now: Timestamp
    public let requests: [ResolvedRequest]
    public let productIndex: ProductIndex
    /// What the streamed read of each catalog package found, by package file.
    public let catalogScans: [String: CatalogScanResults]

    public init(
        project: Project, metadata: RuleMetadata, now: Timestamp, requests: [ResolvedRequest], productIndex: ProductIndex,
        catalogScans: [String: CatalogScanResults] = [:]
    ) {
        self.catalogScans = catalogScans
        self.project = project
        self.metadata = metadata
        self.now = now
        self.requests = requests
        self.productIndex = productIndex
    }

    public var environment: Environment { project.effectiveEnvironment }
    public var item: String { metadata.checklist ?? "" }

    public func number(_ option: String, default fallback: Double) -> Double {
        metadata.option(option)?.number ?? fallback
    }

    public func text(_ option: String, default fallback: String) -> String {
        metadata.option(option)?.text ?? fallback
    }

    // MARK: Building findings and outcomes

    /// A finding of this rule. `related`: the other places it names (each `note` is one of
    /// `notes`, which every format shows; the text report draws the span instead). `secret`: the value the finding is
    /// about, when it is a secret; every output masks it (see ``Finding/secret``).
    public func finding(
        _ message: String, at location: SourceLocation?, help: String? = nil, notes: [String] = [],
        related: [RelatedSpan] = [], product: String? = nil, secret: String? = nil
    ) -> Finding {
        metadata.finding(message, at: location, help: help, notes: notes, related: related, product: product, secret: secret)
    }

    public func pass(product: String? = nil, item: String? = nil) -> Outcome {
        Outcome(item: item ?? self.item, productID: product, status: .pass, rule: metadata.id)
    }

    public func fail(_ findings: Finding..., product: String? = nil, item: String? = nil) -> Outcome {
        Outcome(
            item: item ?? self.item, productID: product ?? findings.first?.productID, status: .fail(findings),
            rule: metadata.id)
    }

    /// The item passes, and `findings` (notes) are reported with it.
    public func passWithNotes(_ findings: [Finding], product: String? = nil, item: String? = nil) -> Outcome {
        Outcome(item: item ?? self.item, productID: product, status: .passWithNotes(findings), rule: metadata.id)
    }

    /// The item stays unknown: `question` is what the user answers, at `key` of the descriptor.
    public func unknown(_ question: String, key: DescriptorKeyPath, product: String? = nil, item: String? = nil) -> Outcome {
        Outcome(item: item ?? self.item, productID: product, status: .unknown(question: question, key: key.rawValue), rule: metadata.id)
    }

    public func unknown(_ question: String, key: DescriptorKey, product: String? = nil, item: String? = nil) -> Outcome {
        unknown(question, key: DescriptorKeyPath(key), product: product, item: item)
    }

    public func notApplicable(_ reason: String, product: String? = nil, item: String? = nil) -> Outcome {
        Outcome(item: item ?? self.item, productID: product, status: .notApplicable(reason: reason), rule: metadata.id)
    }

    /// The `.storekit` files this rule judges: every one, or for a rule on App Store Connect's
    /// limits (``RuleMetadata/judgesStoreLimit``) those checked on their own.
    public var judgedStoreKitFiles: [StoreKitConfiguration] {
        metadata.judgesStoreLimit ? project.storeKitFiles.filter { $0.use == .catalog } : project.storeKitFiles
    }

    /// Why a rule on App Store Connect's limits has no `.storekit` file to judge, when the only
    /// files are those the app's Run uses.
    public var storeLimitNotApplicable: Outcome? {
        guard metadata.judgesStoreLimit, judgedStoreKitFiles.isEmpty, let used = project.storeKitFiles.first else { return nil }
        let name = Paths.fileName(of: used.file)
        let whose = used.isSynced
            ? "its metadata is App Store Connect's own (it is synced), judged in the App Store Connect snapshot"
            : "Xcode serves its products whatever App Store Connect would accept; the store's limits are judged in the App Store Connect snapshot"
        return notApplicable("`\(name)` is the file the app's Run uses: \(whose)")
    }

    /// A pass when `findings` is empty, else one failing outcome per finding.
    public func outcomes(_ findings: [Finding], product: String? = nil) -> [Outcome] {
        findings.isEmpty ? [pass(product: product)] : findings.map { fail($0, product: product) }
    }
}

extension RuleMetadata {
    /// A finding of this rule: its severity, its checklist item, and its help unless `help` is given.
    func finding(
        _ message: String, at location: SourceLocation?, help: String? = nil, notes: [String] = [],
        related: [RelatedSpan] = [], product: String? = nil, secret: String? = nil
    ) -> Finding {
        Finding(
            rule: id, severity: severity, checklist: checklist, message: message,
            help: help ?? defaultHelp, notes: notes, location: location,
            related: related, productID: product, secret: secret.map(Secret.init))
    }

    /// The help a finding of this rule gets when it is given none.
    var defaultHelp: String? { help.isEmpty ? nil : help }

    /// A finding past the listing limit, for counting only (``Finding/isElided``): the severity and
    /// the product (for verdicts), no texts, no location.
    func countedFinding(product: String?) -> Finding {
        var finding = Finding(rule: id, severity: severity, checklist: checklist, message: "", location: nil, productID: product)
        finding.isElided = true
        return finding
    }
}
