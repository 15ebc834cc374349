import JSONReader
import Formats
import Model

/// Products and subscription groups from an App Store Connect snapshot, merged into the
/// project's by product ID and reference name.
extension ASCFacts.Mapper {
    typealias Resource = ASCSnapshot.Resource

    /// The app's resources behind a relationship: the linked ones when the app record says which,
    /// else every resource of the type that no other app claims (a folder of saved responses
    /// often holds the list without its app).
    private func appResources(_ relationship: String, type: String) -> (resources: [Resource], listKnown: Bool) {
        if let app = facts.app, let linked = snapshot.relatedHeld(app, relationship) {
            // A linked product the snapshot does not hold exists, unread: the list is not complete.
            let complete = linked.count == app.linkage(relationship)?.references.count
            return (linked, complete)
        }
        let claimed = Set(snapshot.resources(ofType: "apps").filter { $0.id != facts.app?.id }
            .flatMap { $0.linkage(relationship)?.references ?? [] })
        return (snapshot.resources(ofType: type).filter { !claimed.contains($0.reference) }, false)
    }

    mutating func applyGroups(_ project: inout Project) {
        for group in appResources("subscriptionGroups", type: "subscriptionGroups").resources {
            guard let name = group.string("referenceName") else { continue }
            var merged = project.subscriptionGroups.first { $0.referenceName?.value == name.value }
                ?? SubscriptionGroup(location: group.location, referenceName: name, localizations: nil)
            merged.storeID = Fact(group.id, at: group.location, source: .appStoreConnect)
            if let found = localizations(of: group, "subscriptionGroupLocalizations") {
                merged.localizations = Fact(found.resources.compactMap(localization), at: found.location, source: .appStoreConnect)
            }
            if let index = project.subscriptionGroups.firstIndex(where: { $0.referenceName?.value == name.value }) {
                project.subscriptionGroups[index] = merged
            } else {
                project.subscriptionGroups.append(merged)
            }
        }
    }

    mutating func applyProducts(_ project: inout Project) {
        let purchases = appResources("inAppPurchasesV2", type: "inAppPurchases")
        let groups = appResources("subscriptionGroups", type: "subscriptionGroups")
        var subscriptions: [(Resource, Resource?)] = []
        var subscriptionsKnown = groups.listKnown
        for group in groups.resources {
            if let members = snapshot.relatedHeld(group, "subscriptions") {
                subscriptions += members.map { ($0, group) }
                if members.count != group.linkage("subscriptions")?.references.count { subscriptionsKnown = false }
            } else {
                subscriptionsKnown = false
                subscriptions += snapshot.resources(ofType: "subscriptions").filter {
                    $0.linkage("group")?.references.first == group.reference
                }.map { ($0, group) }
            }
        }
        let listed = Set(subscriptions.map { $0.0.reference })
        if facts.app == nil {
            // Subscriptions saved without their group.
            subscriptions += snapshot.resources(ofType: "subscriptions").filter { !listed.contains($0.reference) }.map { ($0, nil) }
        }
        facts.inAppPurchasesFetched = purchases.listKnown
        facts.subscriptionsFetched = subscriptionsKnown
        facts.productListLocation = facts.app?.relationships["inAppPurchasesV2"]?.location ?? facts.app?.location

        var storeIDs = Set<String>()
        // The typed products a store product may merge into, by ID, in order: looked up, not
        // searched (a catalog of 6,000 products made the search quadratic).
        var unmerged: [String: [Int]] = [:]
        for (index, product) in project.products.enumerated() where product.store == nil {
            if let id = product.productID?.value { unmerged[id, default: []].append(index) }
        }
        for resource in purchases.resources {
            if let product = product(from: resource, kind: .inAppPurchase, group: nil) {
                storeIDs.insert(product.productID!.value)
                merge(product, into: &project, unmerged: &unmerged)
            }
        }
        for (resource, group) in subscriptions {
            if let product = product(from: resource, kind: .subscription, group: group) {
                storeIDs.insert(product.productID!.value)
                merge(product, into: &project, unmerged: &unmerged)
            }
        }
        // With both lists complete, a product the descriptor lists and App Store Connect does not
        // is not there: the snapshot wins, and the typed entry is reported as out of date.
        if purchases.listKnown, subscriptionsKnown {
            project.products.removeAll { product in
                guard product.store == nil, let id = product.productID, id.source == .descriptor, !storeIDs.contains(id.value) else { return false }
                facts.productsNotInStore.append(id)
                return true
            }
        }
    }

    /// A product's or group's localizations: the per-product list, or, where that is empty or was
    /// not fetched, the latest version's (API 4.4.1 keeps them there), whose state stands for
    /// each localization's. Nil when neither was fetched.
    private func localizations(of resource: Resource, _ relationship: String) -> (resources: [Resource], location: SourceLocation, versionState: Fact<String>?)? {
        let older = snapshot.related(resource, relationship).flatMap { linked in
            resource.relationships[relationship].map { (resources: linked, location: $0.location, versionState: Fact<String>?.none) }
        }
        if let older, !older.resources.isEmpty { return older }
        guard let versions = snapshot.related(resource, "versions"), !versions.isEmpty else { return older }
        var latest = versions[0]
        for version in versions where (version.number("version") ?? -.infinity) >= (latest.number("version") ?? -.infinity) { latest = version }
        guard let linked = snapshot.related(latest, "localizations"), let location = latest.relationships["localizations"]?.location else { return older }
        return (linked, location, latest.string("state"))
    }

    private func localization(_ resource: Resource) -> Localization? {
        guard let locale = resource.string("locale") else { return nil }
        return Localization(locale: locale, displayName: resource.string("name"), description: resource.string("description"))
    }

    private mutating func product(from resource: Resource, kind: StoreRecord.Kind, group: Resource?) -> Product? {
        guard let id = resource.string("productId") else { return nil }
        var product = Product(location: resource.location)
        var record = StoreRecord(kind: kind, resourceID: resource.id, location: resource.location)
        product.productID = id
        product.referenceName = resource.string("name")
        switch kind {
        case .inAppPurchase:
            if let type = resource.string("inAppPurchaseType"), let mapped = ProductType(spelling: type.value) { product.type = type.map { _ in mapped } }
        case .subscription:
            product.type = Fact(.autoRenewable, at: resource.location, source: .appStoreConnect)
            if let period = resource.string("subscriptionPeriod"), let duration = SubscriptionDuration(spelling: period.value) {
                product.subscriptionDuration = period.map { _ in duration }
            }
            let groupResource = group ?? snapshot.related(resource, "group")?.first
            product.subscriptionGroup = groupResource?.string("referenceName")
        }
        record.state = resource.string("state")
        if let state = record.state, let status = ProductStatus(spelling: state.value) { product.status = state.map { _ in status } }
        product.familyShareable = resource.bool("familySharable")
        product.reviewNotes = resource.string("reviewNote")

        let localizationKey = kind == .inAppPurchase ? "inAppPurchaseLocalizations" : "subscriptionLocalizations"
        if let found = localizations(of: resource, localizationKey) {
            product.localizations = Fact(found.resources.compactMap(localization), at: found.location, source: .appStoreConnect)
            record.localizations = found.resources.compactMap { item in
                item.string("locale").map { StoreRecord.Localization(locale: $0, name: item.string("name"), state: item.string("state") ?? found.versionState) }
            }
            record.localizationsLocation = found.location
        }

        if let territories = availableTerritories(resource, kind: kind) {
            record.availableTerritories = territories
            product.availability = territories.map { ids in ids.map { Fact($0, at: territories.location, source: .appStoreConnect) } }
            product.clearedForSale = territories.map { !$0.isEmpty }
        }
        if let priced = pricedTerritories(resource, kind: kind) {
            record.pricedTerritories = priced.territories
            product.price = priced.price
        }
        record.screenshot = screenshot(resource)
        if let delivered = record.screenshot.isDelivered {
            let location: SourceLocation
            switch record.screenshot {
            case .uploaded(_, _, let at), .none(let at): location = at
            case .notFetched: location = resource.location
            }
            product.reviewScreenshot = Fact(.present(delivered), at: location, source: .appStoreConnect)
        }
        record.failedRequests = failures[resource.id] ?? []
        product.store = record
        return product
    }

    /// The territories a product is available in; `nil` when the snapshot does not say.
    private func availableTerritories(_ resource: Resource, kind: StoreRecord.Kind) -> Fact<[String]>? {
        let keys = kind == .inAppPurchase ? ["inAppPurchaseAvailability"] : ["subscriptionAvailability", "planAvailabilities"]
        var known = false
        var ids: [String] = []
        var location = resource.location
        for key in keys {
            guard let availabilities = snapshot.related(resource, key), let at = resource.relationships[key]?.location else { continue }
            location = at
            known = true
            for availability in availabilities {
                guard let territories = availability.linkage("availableTerritories") else {
                    known = false
                    continue
                }
                location = availability.relationships["availableTerritories"]?.location ?? location
                ids += territories.references.map(\.id)
            }
            if availabilities.isEmpty, resource.linkage(key)?.references.isEmpty == false { known = false }
        }
        guard known else { return nil }
        return Fact(Array(Set(ids)).sorted(), at: location, source: .appStoreConnect)
    }

    /// The territories with a price in force, and the price in the base territory (else the
    /// first); `nil` when the snapshot does not say.
    private func pricedTerritories(_ resource: Resource, kind: StoreRecord.Kind) -> (territories: Fact<[String]>, price: Fact<String>?)? {
        var prices: [Resource] = []
        var location: SourceLocation
        var base: String?
        switch kind {
        case .inAppPurchase:
            guard let schedules = snapshot.related(resource, "iapPriceSchedule"), let at = resource.relationships["iapPriceSchedule"]?.location else { return nil }
            location = at
            if let schedule = schedules.first {
                base = schedule.linkage("baseTerritory")?.references.first?.id
                var any = false
                for key in ["manualPrices", "automaticPrices"] where schedule.linkage(key) != nil {
                    // Prices fetched but not all held: the territories they cover are unknown.
                    guard let linked = snapshot.related(schedule, key) else { return nil }
                    any = true
                    prices += linked
                    location = schedule.relationships[key]?.location ?? location
                }
                guard any else { return nil }
            } else if resource.linkage("iapPriceSchedule")?.references.isEmpty == false {
                return nil
            }
        case .subscription:
            guard let linked = snapshot.related(resource, "prices"), let at = resource.relationships["prices"]?.location else { return nil }
            prices = linked
            location = at
        }
        // A price with an end date is being replaced; the one without is in force (or scheduled).
        let current = prices.filter { $0.string("endDate") == nil }
        var territories = Set<String>()
        var amounts: [String: Fact<String>] = [:]
        for price in current {
            guard let territory = price.linkage("territory")?.references.first?.id else { continue }
            territories.insert(territory)
            let pointKey = kind == .inAppPurchase ? "inAppPurchasePricePoint" : "subscriptionPricePoint"
            if let amount = snapshot.related(price, pointKey)?.first?.string("customerPrice") { amounts[territory] = amount }
        }
        let price = base.flatMap { amounts[$0] } ?? amounts["USA"] ?? amounts.keys.sorted().first.flatMap { amounts[$0] }
            ?? (territories.isEmpty ? nil : Fact("set", at: location, source: .appStoreConnect))
        return (Fact(territories.sorted(), at: location, source: .appStoreConnect), price)
    }

    private func screenshot(_ resource: Resource) -> StoreRecord.Screenshot {
        guard let linkage = resource.relationships["appStoreReviewScreenshot"] else { return .notFetched }
        guard let reference = linkage.linkage.references.first else { return .none(linkage.location) }
        guard let shot = snapshot.resource(reference) else { return .uploaded(state: nil, fileName: nil, location: linkage.location) }
        var state: Fact<String>?
        if shot.attribute("assetDeliveryState")?.kind == .object, let value = shot.attribute("assetDeliveryState")?["state"], let text = value.string {
            state = Fact(text, at: value.location, source: .appStoreConnect)
        }
        return .uploaded(state: state, fileName: shot.string("fileName")?.value, location: state?.location ?? shot.location)
    }

    /// The snapshot's product over the descriptor's entry with the same ID, field by field.
    private mutating func merge(_ store: Product, into project: inout Project, unmerged: inout [String: [Int]]) {
        guard let id = store.productID?.value, let index = unmerged[id]?.first else {
            project.products.append(store)
            return
        }
        unmerged[id]?.removeFirst()
        var typed = project.products[index]
        let path = "products[\(index)]"
        let name = store.productID!.value
        typed.productID = typed.productID ?? store.productID
        typed.referenceName = merged(typed.referenceName, store.referenceName, subject: "the reference name of `\(name)`", key: DescriptorKeyPath(ProductKey.referenceName, in: path), item: ChecklistID.productMetadata.rawValue, describe: { $0 })
        typed.type = merged(typed.type, store.type, subject: "the type of `\(name)`", key: DescriptorKeyPath(ProductKey.type, in: path), item: ChecklistID.productMetadata.rawValue, describe: { $0.rawValue })
        typed.status = merged(typed.status, store.status, subject: "the status of `\(name)`", key: DescriptorKeyPath(ProductKey.status, in: path), item: ChecklistID.productStatus.rawValue, describe: { $0.rawValue })
        if store.status == nil, let state = store.store?.state {
            // A state iapdoctor does not know still replaces the typed one: the status is unknown.
            if let stated = typed.status, stated.source == .descriptor {
                facts.disagreements.append(ASCSnapshotFacts.Disagreement(
                    subject: "the status of `\(name)`", checklistItem: ChecklistID.productStatus.rawValue, descriptor: stated.map(\.rawValue), snapshot: state, key: DescriptorKeyPath(ProductKey.status, in: path)))
            }
            typed.status = nil
        }
        typed.clearedForSale = merged(typed.clearedForSale, store.clearedForSale, subject: "whether `\(name)` is cleared for sale", key: DescriptorKeyPath(ProductKey.clearedForSale, in: path), item: ChecklistID.clearedForSale.rawValue, describe: { String($0) })
        typed.availability = merged(typed.availability, store.availability, subject: "the territory list of `\(name)`", key: DescriptorKeyPath(ProductKey.availability, in: path), item: ChecklistID.storefrontAvailability.rawValue,
                                    describe: { "[" + $0.map(\.value).sorted().joined(separator: ", ") + "]" })
        typed.familyShareable = merged(typed.familyShareable, store.familyShareable, subject: "Family Sharing of `\(name)`", key: DescriptorKeyPath(ProductKey.familyShareable, in: path), item: ChecklistID.productMetadata.rawValue, describe: { String($0) })
        typed.subscriptionGroup = merged(typed.subscriptionGroup, store.subscriptionGroup, subject: "the subscription group of `\(name)`", key: DescriptorKeyPath(ProductKey.subscriptionGroup, in: path), item: ChecklistID.subscriptionGroups.rawValue, describe: { $0 })
        typed.subscriptionDuration = merged(typed.subscriptionDuration, store.subscriptionDuration, subject: "the duration of `\(name)`", key: DescriptorKeyPath(ProductKey.subscriptionDuration, in: path), item: ChecklistID.productMetadata.rawValue, describe: { $0.rawValue })
        // No screenshot in the snapshot of a product whose state says its metadata is complete is a
        // short read, not "none": a typed value stands (a failed delivery is still App Store Connect's word).
        var shortScreenshot = false
        if case .none? = store.store?.screenshot, store.store?.metadataComplete != nil { shortScreenshot = typed.reviewScreenshot != nil }
        typed.reviewScreenshot = shortScreenshot ? typed.reviewScreenshot : merged(
            typed.reviewScreenshot, store.reviewScreenshot, subject: "whether `\(name)` has its review screenshot", key: DescriptorKeyPath(ProductKey.reviewScreenshot, in: path), item: ChecklistID.productMetadata.rawValue,
            describe: { $0.isPresent ? "true" : "false" })
        typed.reviewNotes = store.reviewNotes ?? typed.reviewNotes
        if store.localizations != nil { typed.localizations = store.localizations }
        // No price in the snapshot of a product whose state says its metadata is complete is a short
        // price list, not "none": the typed price stands (App Store Connect's state is the authority).
        let shortPriceList = store.price == nil && store.store?.metadataComplete != nil
        if store.store?.pricedTerritories != nil, !shortPriceList {
            // A typed tier is the same price in other words; only "none" versus "some" can disagree.
            if store.price == nil, typed.price != nil || typed.priceTier != nil {
                let stated = typed.price.map { $0.map { "\"\($0)\"" } } ?? typed.priceTier!.map { "tier \($0)" }
                facts.disagreements.append(ASCSnapshotFacts.Disagreement(
                    subject: "the price of `\(name)`", checklistItem: ChecklistID.productMetadata.rawValue, descriptor: stated,
                    snapshot: Fact("none", at: store.store!.pricedTerritories!.location, source: .appStoreConnect), key: DescriptorKeyPath(ProductKey.priceTier, in: path)))
            }
            typed.price = store.price
            typed.priceTier = store.price == nil ? nil : typed.priceTier
        }
        typed.store = store.store
        project.products[index] = typed
    }
}
