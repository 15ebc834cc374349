import Formats
import Model
import Loaders

/// What the per-item rules and declarative `each: in_app_purchase` checks found in one read of a
/// package, kept beside it (``Engine/Options/catalogScans``) until the diagnosis reports it.
public struct CatalogScanResults: Sendable {
    /// By rule id: an entry, empty or not, for every check the scan ran.
    public var findingsByRule: [String: [Finding]]
    /// The findings past the listing limit, when the scan was asked to keep them.
    public var unlisted: CompactFindings?
}

extension Engine {
    /// The checks of one streaming read of a catalog package: the per-item rules
    /// (``CatalogItemRule``) and declarative `each: in_app_purchase` checks that `configuration`
    /// leaves on, with its severities and options. Whoever reads the package hands each item to
    /// ``CatalogScan/check(_:)`` as it streams by (`Engine.scanCatalog(path:configuration:keepingUnlisted:)`,
    /// in IAPDoctor, does), then puts ``CatalogScan/results`` beside the package
    /// (``Engine/Options/add(_:to:)``) to be diagnosed with the same configuration.
    ///
    /// `keepingUnlistedFor`: keep the findings past the listing limit too, compactly, for a report
    /// that lists every finding, with room for a catalog of about this many bytes.
    public func catalogScan(configuration: Configuration, keepingUnlistedFor bytes: Int? = nil) -> CatalogScan {
        CatalogScan(ruleSet: configuration.apply(to: ruleSet).ruleSet, implementations: implementations, keepingUnlisted: bytes)
    }
}

extension Engine.Options {
    /// A scanned package into `project`, and what its scan found beside it, here.
    public mutating func add(_ scanned: (package: CatalogPackage, results: CatalogScanResults), to project: inout Project) {
        project.catalogPackages.append(scanned.package)
        catalogScans[scanned.package.file] = scanned.results
    }
}

/// The per-item checks of one read of one package: the enabled per-item rules, each with its
/// context, and the declarative item checks, with what each has found so far. Made for each read,
/// so nothing of one read or one configuration reaches another.
public final class CatalogScan {
    // Constants, so reading them per item costs no exclusivity check. The rules and their
    // contexts are two arrays, not one of pairs: taking a rule out of a pair would copy the
    // existential and the context for every call; each rule is in a box of its own type
    // (``CatalogItemCheck``), which is called in place.
    private let rules: [CatalogItemCheck]
    private let contexts: [CatalogItemContext]
    /// The same, unretained (the arrays above keep them): called through these, neither is
    /// retained and released around every call (two of each an item and rule).
    private let ruleRefs: [Unmanaged<CatalogItemCheck>]
    private let contextRefs: [Unmanaged<CatalogItemContext>]
    private let plans: [DeclarativeRule.CatalogPlan]
    /// Finds the elements the plans check, in one walk of each item.
    private let router: CatalogPlanRouter
    @exclusivity(unchecked) private var ruleFindings: [[Finding]]
    @exclusivity(unchecked) private var planFindings: [[Finding]]
    /// Past the listing limit (``Engine/maxListedFindingsPerRule``) a check's findings are not kept:
    /// each is counted into one stand-in per product and severity, which is all the engine keeps of
    /// it anyway (the count for the summary note, the product and severity for verdicts). Indexed
    /// like `rules`, then `plans`.
    private let beyond: [ElidedFindings]
    /// The findings past the listing limit themselves, when asked for: the rules then write every
    /// finding in full (a listing context never stops listing).
    let unlisted: CompactFindings?
    /// How many findings of each check are kept whole (``Finding``): the listing limit, or, when
    /// the rest are kept compactly for a report that lists them all, fewer (a compact record costs
    /// a third of a finding to keep and to write).
    private let limit: Int
    /// What becomes of each check's findings past its share (indexed like `beyond`).
    private let pastShares: [FindingSink]

    /// `catalog`: the rules in force (the configuration applied); `implementations`: the rules
    /// with Swift logic, by id.
    /// `keepingUnlisted`: keep the findings past the listing limit, with room for a catalog of this
    /// many bytes; `nil`: only count them.
    init(ruleSet: RuleSet, implementations: [String: any Rule], keepingUnlisted: Int? = nil) {
        unlisted = keepingUnlisted.map { CompactFindings(reservingFor: $0) }
        limit = keepingUnlisted != nil ? Engine.wholeFindingsPerRuleWhenKept : Engine.maxListedFindingsPerRule
        let scanState = CatalogScanState()
        var rules: [CatalogItemCheck] = []
        var contexts: [CatalogItemContext] = []
        var plans: [DeclarativeRule.CatalogPlan] = []
        for metadata in ruleSet.rules {
            if let implementation = implementations[metadata.id] {
                guard let rule = implementation.asCatalogItemRule else { continue }
                rules.append(Self.check(rule))
                contexts.append(CatalogItemContext(metadata: metadata, scanState: scanState))
            } else if let plan = DeclarativeRule.CatalogPlan(metadata) {
                // A rule without Swift logic is declarative (as `Engine.diagnose` runs it).
                plans.append(plan)
            }
        }
        self.rules = rules
        self.contexts = contexts
        ruleRefs = rules.map { Unmanaged.passUnretained($0) }
        contextRefs = contexts.map { Unmanaged.passUnretained($0) }
        self.plans = plans
        router = CatalogPlanRouter(plans.map(\.paths))
        ruleFindings = Array(repeating: [], count: rules.count)
        planFindings = Array(repeating: [], count: plans.count)
        let beyond = (0..<rules.count + plans.count).map { _ in ElidedFindings() }
        self.beyond = beyond
        let store = unlisted
        pastShares = beyond.map { tally in store.map { .compact($0, tally) } ?? .count }
    }

    /// The rule with its type known (the existential opened once, here).
    private static func check(_ rule: some CatalogItemRule) -> CatalogItemCheck { TypedCatalogItemCheck(rule) }

    /// Runs every check on one item as it streams by.
    public func check(_ item: CatalogStreamedItem) {
        for index in rules.indices {
            let found = ruleRefs[index]._withUnsafeGuaranteedRef { rule in
                contextRefs[index]._withUnsafeGuaranteedRef { rule.check(item: item, context: $0) }
            }
            if !found.isEmpty {
                keep(found, in: &ruleFindings[index], beyond: index)
                // Past its share a rule's findings go straight to the store, or are only counted
                // (then it need not write them).
                if ruleFindings[index].count >= limit { contextRefs[index]._withUnsafeGuaranteedRef { $0.sink = pastShares[index] } }
            }
        }
        // The plans write into a local array (most items have no findings), not into this
        // object's storage: no exclusivity check per call.
        var flagged: [Finding] = []
        if !plans.isEmpty { router.walk(item.element) }
        for index in plans.indices {
            plans[index].check(
                item, router: router, plan: index, sink: planFindings[index].count < limit ? .list : pastShares[rules.count + index],
                into: &flagged)
            if !flagged.isEmpty {
                keep(flagged, in: &planFindings[index], beyond: rules.count + index)
                flagged.removeAll()
            }
        }
    }

    private func keep(_ found: [Finding], in list: inout [Finding], beyond slot: Int) {
        let room = limit - list.count
        if found.count <= room {
            list += found
            return
        }
        if room > 0 { list += found[..<room] }
        for finding in found[max(room, 0)...] {
            beyond[slot].count(finding)
            // A stand-in's finding is in the store already.
            if !finding.isElided { unlisted?.append(finding) }
        }
    }

    /// What the checks found, once the read has ended.
    public var results: CatalogScanResults { CatalogScanResults(findingsByRule: findingsByRule, unlisted: unlisted) }

    /// What each check found, by rule id (an entry for every check that ran, found or not): the
    /// first ones in item order (up to the limit), then the stand-ins for the rest.
    var findingsByRule: [String: [Finding]] {
        var result: [String: [Finding]] = [:]
        for (index, context) in contexts.enumerated() { result[context.metadata.id] = ruleFindings[index] + beyond[index].standIns }
        for (index, plan) in plans.enumerated() { result[plan.metadata.id] = planFindings[index] + beyond[rules.count + index].standIns }
        return result
    }
}

/// A per-item rule in a box of its own type (``TypedCatalogItemCheck``, the only kind made).
/// Called through `any CatalogItemRule`, a rule was copied out of the existential for every item
/// (its `id` string retained and released with it, ~17 times an item); a box is called in place,
/// and, being a class, without retaining it (`Unmanaged`).
class CatalogItemCheck {
    func check(item: CatalogStreamedItem, context: CatalogItemContext) -> [Finding] {
        preconditionFailure("a CatalogItemCheck is made as a TypedCatalogItemCheck, which overrides check")
    }
}

private final class TypedCatalogItemCheck<Checked: CatalogItemRule>: CatalogItemCheck {
    let rule: Checked

    init(_ rule: Checked) { self.rule = rule }

    override func check(item: CatalogStreamedItem, context: CatalogItemContext) -> [Finding] { rule.check(item: item, context: context) }
}

/// The findings of one check past the listing limit, as one stand-in (``Finding/isElided``) per
/// severity, weighted by how many findings it stands for, with the products they were about (a
/// string each, not a finding each: findings past the limit may number hundreds of thousands).
/// A class: a check that keeps its findings compactly counts them here itself.
final class ElidedFindings {
    private var slots: [Severity: Int] = [:]
    private(set) var standIns: [Finding] = []

    /// What a check returns for a finding it has counted here itself (``FindingSink``):
    /// weighs nothing, so ``count(_:)`` passes over it.
    static let tallied: Finding = {
        var marker = Finding(rule: "", severity: .note, checklist: nil, message: "", location: nil)
        marker.isElided = true
        marker.elidedWeight = 0
        return marker
    }()

    func count(_ finding: Finding) {
        guard finding.elidedWeight > 0 else { return }
        count(rule: finding.rule, severity: finding.severity, checklist: finding.checklist, product: finding.productID)
    }

    func count(rule: String, severity: Severity, checklist: String?, product: String?) {
        if let slot = slots[severity] {
            standIns[slot].elidedWeight += 1
            if let product, standIns[slot].elidedProducts.last != product {
                standIns[slot].elidedProducts.append(product)
            }
            return
        }
        var standIn = Finding(rule: rule, severity: severity, checklist: checklist, message: "", location: nil, productID: product)
        standIn.isElided = true
        slots[severity] = standIns.count
        standIns.append(standIn)
    }
}
