import JSONReader
import Formats
import Model

extension RevenueCatSnapshot {
    /// Reads the snapshot's JSON into its values, each wrong shape an error at its position.
    /// Keys it does not know are skipped, so a newer pull's additions do not break an older reader.
    struct Reader {
        let file: String

        mutating func snapshot(_ root: JSONNode) throws(InputProblem) -> RevenueCatSnapshot {
            guard root.kind == .object else {
                throw malformed("a RevenueCat snapshot is a JSON object with `format`, `apps`, `products` and `offerings`, not \(ASCSnapshot.kind(root))", at: root.location)
            }
            guard let format = root["format"] else {
                throw malformed("this is not a RevenueCat snapshot: it has no `format` (expected `\(RevenueCatSnapshot.format)`)", at: root.location)
            }
            guard format.string == RevenueCatSnapshot.format else {
                throw malformed("the snapshot's `format` is \(shown(format)), and iapdoctor reads `\(RevenueCatSnapshot.format)`", at: format.location,
                                help: "write it in this format (`docs/revenuecat.md`)")
            }
            var snapshot = RevenueCatSnapshot(
                file: file, offeringsLocation: root["offerings"]?.location ?? root.location, appsLocation: root["apps"]?.location ?? root.location)
            snapshot.fetchedAt = try optionalString(root, "fetched_at")
            if let project = root["project"] {
                try expectObject(project, "`project`")
                snapshot.projectID = try optionalString(project, "id")
                snapshot.projectName = try optionalString(project, "name")?.value
            }
            snapshot.apps = try list(root, "apps") { (node) throws(InputProblem) in try app(node) }
            snapshot.products = try list(root, "products") { (node) throws(InputProblem) in try product(node) }
            snapshot.offerings = try list(root, "offerings") { (node) throws(InputProblem) in try offering(node) }
            snapshot.entitlements = try list(root, "entitlements", required: false) { (node) throws(InputProblem) in try entitlement(node) }
            snapshot.unavailable = try list(root, "unavailable", required: false) { (node) throws(InputProblem) in
                Unavailable(path: try string(node, "path").value, status: try optionalInt(node, "status"),
                            message: try optionalString(node, "message")?.value ?? "", location: node.location)
            }
            return snapshot
        }

        func app(_ node: JSONNode) throws(InputProblem) -> App {
            App(id: try string(node, "id"), name: try optionalString(node, "name")?.value, type: try string(node, "type"),
                bundleID: try optionalString(node, "bundle_id"), packageName: try optionalString(node, "package_name")?.value,
                keys: try list(node, "public_api_keys", required: false) { (key) throws(InputProblem) in
                    Key(key: try string(key, "key"), environment: try optionalString(key, "environment")?.value)
                },
                location: node.location)
        }

        func product(_ node: JSONNode) throws(InputProblem) -> Product {
            Product(id: try string(node, "id"), storeIdentifier: try string(node, "store_identifier"), type: try optionalString(node, "type")?.value,
                    appID: try optionalString(node, "app_id"), displayName: try optionalString(node, "display_name")?.value)
        }

        func offering(_ node: JSONNode) throws(InputProblem) -> Offering {
            Offering(id: try string(node, "id").value, lookupKey: try string(node, "lookup_key"),
                     displayName: try optionalString(node, "display_name")?.value, isCurrent: try optionalBool(node, "is_current"),
                     packages: try list(node, "packages") { (package) throws(InputProblem) in try self.package(package) },
                     location: node.location)
        }

        func package(_ node: JSONNode) throws(InputProblem) -> Package {
            Package(id: try string(node, "id").value, lookupKey: try string(node, "lookup_key"),
                    displayName: try optionalString(node, "display_name")?.value, position: try optionalInt(node, "position"),
                    products: try list(node, "products") { (attached) throws(InputProblem) in
                        PackageProduct(productID: try string(attached, "product_id"), storeIdentifier: try optionalString(attached, "store_identifier"),
                                       appID: try optionalString(attached, "app_id"), eligibility: try optionalString(attached, "eligibility_criteria")?.value,
                                       location: attached.location)
                    },
                    location: node.location)
        }

        func entitlement(_ node: JSONNode) throws(InputProblem) -> Entitlement {
            Entitlement(id: try string(node, "id").value, lookupKey: try string(node, "lookup_key"),
                        productIDs: try list(node, "product_ids", required: false) { (id) throws(InputProblem) in
                            guard let fact = id.stringFact(.revenueCat) else { throw malformed("a product ID is a string, not \(ASCSnapshot.kind(id))", at: id.location) }
                            return fact
                        })
        }

        // MARK: Values

        func list<T>(_ object: JSONNode, _ key: String, required: Bool = true, _ each: (JSONNode) throws(InputProblem) -> T) throws(InputProblem) -> [T] {
            guard let value = object[key], !value.isNull else {
                if required { throw malformed("\(what(object)) has no `\(key)` list", at: object.location) }
                return []
            }
            guard value.kind == .array else { throw malformed("`\(key)` is a list, not \(ASCSnapshot.kind(value))", at: value.location) }
            var items: [T] = []
            for element in value.elements {
                if key != "product_ids" { try expectObject(element, "each of `\(key)`") }
                items.append(try each(element))
            }
            return items
        }

        func string(_ object: JSONNode, _ key: String) throws(InputProblem) -> Fact<String> {
            guard let value = try optionalString(object, key) else { throw malformed("\(what(object)) has no `\(key)`", at: object.location) }
            return value
        }

        func optionalString(_ object: JSONNode, _ key: String) throws(InputProblem) -> Fact<String>? {
            guard let value = object[key], !value.isNull else { return nil }
            guard let fact = value.stringFact(.revenueCat) else { throw malformed("`\(key)` is a string, not \(ASCSnapshot.kind(value))", at: value.location) }
            return fact
        }

        func optionalBool(_ object: JSONNode, _ key: String) throws(InputProblem) -> Fact<Bool>? {
            guard let value = object[key], !value.isNull else { return nil }
            guard let bool = value.bool else { throw malformed("`\(key)` is `true` or `false`, not \(ASCSnapshot.kind(value))", at: value.location) }
            return Fact(bool, at: value.location, source: .revenueCat)
        }

        func optionalInt(_ object: JSONNode, _ key: String) throws(InputProblem) -> Int? {
            guard let value = object[key], !value.isNull else { return nil }
            guard let number = value.integer, let int = Int(exactly: number) else {
                throw malformed("`\(key)` is a whole number, not \(ASCSnapshot.kind(value))", at: value.location)
            }
            return int
        }

        func expectObject(_ node: JSONNode, _ what: String) throws(InputProblem) {
            guard node.kind == .object else { throw malformed("\(what) is an object, not \(ASCSnapshot.kind(node))", at: node.location) }
        }

        /// "this app", "this offering": what an object is, by the key it has.
        func what(_ object: JSONNode) -> String {
            if let id = object["id"]?.string { return "`\(id)`" }
            if object["format"] != nil { return "the snapshot" }
            return "this entry"
        }

        func shown(_ value: JSONNode) -> String {
            value.string.map { "`\($0)`" } ?? ASCSnapshot.kind(value)
        }
    }
}
