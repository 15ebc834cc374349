import Formats
import Model
import Loaders

/// A catalog rule that also looks at each `<in_app_purchase>` while a package streams by (items
/// are not kept, so what needs an item's elements is checked then). Listed with the other rules
/// (`BuiltinRules.all`, generated from the rule files); the engine's scan (``Engine/scanCatalog(path:configuration:)``) runs
/// the enabled ones, each with its ``CatalogItemContext``, and the rule's ``Rule/check(_:)``
/// later reports what they found through ``RuleContext/itemFindings(in:)``.
public protocol CatalogItemRule: Rule {
    /// Checks one item. `item` (and every element view in it) is valid only during the call.
    func check(item: CatalogStreamedItem, context: CatalogItemContext) -> [Finding]
}

extension CatalogItemRule {
    public var asCatalogItemRule: (any CatalogItemRule)? { self }
}

/// What a per-item rule sees while a package streams: its own metadata with the configuration
/// applied (severity, options), and state the rules share over one read of one package.
///
/// Not a ``RuleContext``: items stream while the project is still being loaded, before the
/// requested IDs can be matched (the index of known products includes these very items). A class:
/// it is handed to a rule for every item, and as a struct holding the metadata it was copied
/// field by field, a retain and a release for each, every time.
public final class CatalogItemContext {
    public let metadata: RuleMetadata
    /// Shared by every rule over every item of this read (e.g. facts about screenshot files).
    public let scanState: CatalogScanState

    /// Where this rule's findings go (the scan changes it once the rule has listed its share).
    var sink = FindingSink.list

    /// Whether this rule's findings are still listed: false once the scan holds
    /// ``Engine/maxListedFindingsPerRule`` of them and keeps no more. Past that a finding is only
    /// counted, so ``finding(_:at:help:notes:related:product:)`` does not write its texts.
    public internal(set) var isListing: Bool {
        get { if case .count = sink { return false } else { return true } }
        set { sink = newValue ? .list : .count }
    }

    init(metadata: RuleMetadata, scanState: CatalogScanState) {
        self.metadata = metadata
        self.scanState = scanState
    }

    /// A finding of this rule, with its configured severity and its checklist item. Its texts and
    /// location are worked out only while the rule is listing (``isListing``); past the listing
    /// limit it is a stand-in with the severity and the product, all the count needs, so a faulty
    /// catalog does not format a message for each of its findings, listed or not.
    public func finding(
        _ message: @autoclosure () -> String, at location: @autoclosure () -> SourceLocation, help: @autoclosure () -> String? = nil,
        notes: @autoclosure () -> [String] = [], related: @autoclosure () -> [RelatedSpan] = [], product: String? = nil
    ) -> Finding {
        switch sink {
        case .list:
            return metadata.finding(message(), at: location(), help: help(), notes: notes(), related: related(), product: product)
        case .count:
            return metadata.countedFinding(product: product)
        case .compact(let store, let tally):
            let related = related()
            if related.isEmpty {
                metadata.keep(message(), at: location(), help: help(), notes: notes(), product: product, in: store)
            } else {
                store.append(metadata.finding(message(), at: location(), help: help(), notes: notes(), related: related, product: product))
            }
            return metadata.tally(product: product, in: tally)
        }
    }

    /// ``finding(_:at:help:notes:related:product:)`` for a message given as the pieces it is
    /// joined from: kept compactly, the pieces go straight into the store (no message string; a
    /// rule that fires on every item of a catalog spent a third of its time interpolating).
    public func finding(
        joining parts: [String], at location: @autoclosure () -> SourceLocation, help: String? = nil, notes: [String] = [],
        product: String? = nil
    ) -> Finding {
        switch sink {
        case .list:
            return metadata.finding(parts.joined(), at: location(), help: help, notes: notes, product: product)
        case .count:
            return metadata.countedFinding(product: product)
        case .compact(let store, let tally):
            let defaultHelp = metadata.defaultHelp
            store.append(
                rule: metadata.id, severity: metadata.severity, checklist: metadata.checklist,
                writingMessage: { bytes in for part in parts { CompactFindings.append(part, to: &bytes) } },
                hasHelp: help != nil || defaultHelp != nil,
                writingHelp: { bytes in if let text = help ?? defaultHelp { CompactFindings.append(text, to: &bytes) } },
                notes: notes, location: location(), product: product)
            return metadata.tally(product: product, in: tally)
        }
    }

    public func finding(_ draft: CatalogItemFinding) -> Finding {
        finding(draft.message, at: draft.location, help: draft.help, notes: draft.notes, related: draft.related, product: draft.product)
    }
}

/// Where a catalog check's findings go during a scan, chosen by the scan for each check: listed
/// (made whole, while the check lists its share), kept compactly in the scan's store and counted
/// into the check's tally without the finding being made (when the caller asked for every
/// finding: JSON, SARIF), or only counted (past the listing limit: no text is written).
enum FindingSink {
    case list, compact(CompactFindings, ElidedFindings), count
}

extension RuleMetadata {
    /// Counts a finding of this rule kept compactly (verdicts and totals need its product and
    /// severity), and what the check returns for it: ``ElidedFindings/tallied``.
    func tally(product: String?, in tally: ElidedFindings) -> Finding {
        tally.count(rule: id, severity: severity, checklist: checklist, product: product)
        return ElidedFindings.tallied
    }

    /// Keeps a finding of this rule (no related spans, no secret) in `store` without making it:
    /// what ``finding(_:at:help:notes:related:product:secret:)`` would hold.
    func keep(_ message: String, at location: SourceLocation, help: String?, notes: [String], product: String?, in store: CompactFindings) {
        store.append(
            rule: id, severity: severity, checklist: checklist, message: message, help: help ?? defaultHelp, notes: notes,
            location: location, product: product)
    }
}

/// One problem in a package, before a context makes it a finding of its rule: what a rule's
/// helpers return where the same check runs on streamed items and on the rest of the package.
public struct CatalogItemFinding: Sendable, Hashable {
    public var message: String
    public var location: SourceLocation
    public var help: String?
    public var notes: [String]
    /// Other places the finding names (see ``Finding/related``).
    public var related: [RelatedSpan]
    public var product: String?

    public init(
        _ message: String, at location: SourceLocation, help: String? = nil, notes: [String] = [], related: [RelatedSpan] = [],
        product: String? = nil
    ) {
        self.message = message
        self.location = location
        self.help = help
        self.notes = notes
        self.related = related
        self.product = product
    }
}

extension RuleContext {
    /// The finding for a draft, with this rule's severity and checklist item.
    public func finding(_ draft: CatalogItemFinding) -> Finding {
        finding(draft.message, at: draft.location, help: draft.help, notes: draft.notes, related: draft.related, product: draft.product)
    }

    /// What this rule found in `package`'s items while they streamed by.
    public func itemFindings(in package: CatalogPackage) -> [Finding] {
        // The scan keeps an entry, empty or not, for every check it ran: none means the package
        // was read with another configuration (or none), and the rule would pass unchecked.
        guard let found = catalogScans[package.file]?.findingsByRule[metadata.id] else {
            assertionFailure("`\(metadata.id)` did not run on `\(package.file)`; read it with Engine.scanCatalog and the configuration it is diagnosed with")
            return []
        }
        return found
    }
}

/// State the per-item rules share over one read of a package, one value per type. Made anew for
/// each read, so nothing in it outlives the read (or reaches another configuration's).
public final class CatalogScanState {
    /// By type: a few (one per kind of shared state the rules keep), so a list, searched in
    /// order; rules ask for them in turn for every item, where a dictionary hashed each time.
    private var values: [(key: ObjectIdentifier, value: AnyObject)] = []
    /// The last value asked for (rules ask for the same one many times in a row).
    private var last: (key: ObjectIdentifier, value: AnyObject)?

    init() {}

    /// The value of type `T`, made by `make` the first time.
    public func value<T: AnyObject>(_ type: T.Type, make: () -> T) -> T {
        let key = ObjectIdentifier(type)
        if let last, last.key == key { return unsafeDowncast(last.value, to: T.self) }
        let value: AnyObject
        if let known = values.first(where: { $0.key == key }) {
            value = known.value
        } else {
            value = make()
            values.append((key, value))
        }
        last = (key, value)
        return unsafeDowncast(value, to: T.self)
    }
}
