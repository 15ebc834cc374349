import Formats
import Model
import Loaders
import RuleEngine

/// A local StoreKit configuration file drifts from App Store Connect: a product added, removed,
/// retyped or moved to another group there still tests the old way in Xcode.
struct StoreKitOutOfDateRule: Rule {
    let id = RuleID.storekitOutOfDate.rawValue

    func check(_ context: RuleContext) -> [Outcome] {
        guard let facts = context.project.ascSnapshot, facts.inAppPurchasesFetched || facts.subscriptionsFetched,
            let configuration = context.project.evidence.storeKit
        else { return [] }
        let stored = context.project.products.filter { $0.store != nil }
        let storeByID = Dictionary(stored.compactMap { p in p.productID.map { ($0.value, p) } }, uniquingKeysWith: { a, _ in a })
        let name = Paths.fileName(of: configuration.file)
        var findings: [Finding] = []
        var local = Set<String>()
        for product in configuration.products {
            guard let id = product.productID else { continue }
            local.insert(id.value)
            guard let store = storeByID[id.value] else {
                let complete = facts.inAppPurchasesFetched && facts.subscriptionsFetched
                if complete {
                    findings.append(context.finding(
                        "`\(name)` has `\(id.value)`, which App Store Connect does not have for this app",
                        at: id.location, help: "remove it from the file, or create it in App Store Connect (then sync the file in Xcode)"))
                }
                continue
            }
            if let localType = product.type?.value, let type = store.type?.value, Self.type(localType) != type {
                findings.append(context.finding(
                    "`\(id.value)` is a \(Self.type(localType)?.displayName ?? localType) in `\(name)` but a \(type.displayName) in App Store Connect",
                    at: product.type?.location ?? id.location, help: "change its type in the file (or sync it with App Store Connect in Xcode)"))
            }
            if let group = product.group.flatMap({ configuration.groups.indices.contains($0) ? configuration.groups[$0].name : nil }),
                let storeGroup = store.subscriptionGroup, storeGroup.value != group.value
            {
                findings.append(context.finding(
                    "`\(id.value)` is in group `\(group.value)` in `\(name)` but in `\(storeGroup.value)` in App Store Connect",
                    at: group.location, help: "move it to the group `\(storeGroup.value)` in the file"))
            }
        }
        if facts.inAppPurchasesFetched && facts.subscriptionsFetched {
            for product in stored {
                guard let id = product.productID, !local.contains(id.value) else { continue }
                findings.append(context.finding(
                    "App Store Connect has `\(id.value)`, which `\(name)` does not",
                    at: id.location, help: "add it to `\(name)` (Editor → Sync with App Store Connect, or + in the file's editor) to test it in Xcode"))
            }
        }
        return findings.isEmpty ? [context.pass()] : [context.passWithNotes(findings)]
    }

    static func type(_ local: String) -> ProductType? {
        switch local {
        case "Consumable": return .consumable
        case "NonConsumable": return .nonConsumable
        case "NonRenewingSubscription": return .nonRenewing
        case "RecurringSubscription", "AutoRenewableSubscription": return .autoRenewable
        default: return nil
        }
    }
}
