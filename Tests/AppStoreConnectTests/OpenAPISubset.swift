import AppStoreConnect
import Foundation
import TestSupport

/// The App Store Connect API 4.4.1 subset (`knowledge/asc/asc-openapi-iap-subset.json`, in
/// `../shared` or the repository's minified copy, `SharedFolder.file`): which GET operations exist, their query
/// parameters, and a validator for the JSON Schema keywords its schemas use (`$ref`, `type`,
/// `properties`, `required`, `enum`, `items`, `oneOf` with `discriminator`,
/// `additionalProperties`; `format`, `title` and `deprecated` are annotations). `null` is
/// accepted for any object member, as Apple's own examples send `"reviewNote": null` where the
/// spec says string.
struct OpenAPISubset: Sendable {
    let document: JSONValue

    static let path = SharedFolder.file("knowledge/asc/asc-openapi-iap-subset.json")

    static func load() throws -> OpenAPISubset {
        OpenAPISubset(document: try JSONValue.parse(Data(contentsOf: URL(fileURLWithPath: path))))
    }

    var getPathTemplates: [String] {
        (document["paths"]?.objectValue ?? [:]).filter { $0.value["get"] != nil }.keys.sorted()
    }

    /// The GET operation's path template that `path` matches (`/v1/apps/123/inAppPurchasesV2` →
    /// `/v1/apps/{id}/inAppPurchasesV2`), if any.
    func template(matching path: String) -> String? {
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        return getPathTemplates.first { template in
            let parts = template.split(separator: "/", omittingEmptySubsequences: false)
            return parts.count == segments.count && zip(parts, segments).allSatisfy { part, segment in
                (part.hasPrefix("{") && part.hasSuffix("}") && !segment.isEmpty) || part == segment
            }
        }
    }

    /// The query parameters the operation declares, by name.
    func queryParameters(_ template: String) -> [String: JSONValue] {
        let item = document["paths"]?[template]
        var parameters: [String: JSONValue] = [:]
        for parameter in (item?["parameters"]?.arrayValue ?? []) + (item?["get"]?["parameters"]?.arrayValue ?? []) {
            if parameter["in"]?.stringValue == "query", let name = parameter["name"]?.stringValue { parameters[name] = parameter }
        }
        return parameters
    }

    /// What is wrong with a request's query for the operation: undeclared parameters, values
    /// outside an enum (each of a comma-separated list), integers above `maximum`.
    /// `cursor` is the API's own, from `links.next`.
    func queryProblems(_ template: String, _ query: [(name: String, value: String)]) -> [String] {
        let declared = queryParameters(template)
        var problems: [String] = []
        for (name, value) in query where name != "cursor" {
            guard let parameter = declared[name] else {
                problems.append("\(template): query parameter `\(name)` is not declared")
                continue
            }
            let schema = parameter["schema"] ?? .null
            if schema["type"]?.stringValue == "array", let allowed = schema["items"]?["enum"]?.arrayValue?.compactMap(\.stringValue) {
                for item in value.split(separator: ",") where !allowed.contains(String(item)) {
                    problems.append("\(template): `\(name)` has `\(item)`, not one of its values")
                }
            }
            if schema["type"]?.stringValue == "integer" {
                guard let number = Int64(value) else {
                    problems.append("\(template): `\(name)=\(value)` is not an integer")
                    continue
                }
                if let maximum = schema["maximum"]?.integerValue, number > maximum {
                    problems.append("\(template): `\(name)=\(value)` is above its maximum \(maximum)")
                }
            }
        }
        return problems
    }

    /// The schema of the operation's answer with `status`, as a `$ref` object.
    func responseSchema(_ template: String, status: Int) -> JSONValue? {
        document["paths"]?[template]?["get"]?["responses"]?[String(status)]?["content"]?["application/json"]?["schema"]
    }

    func schema(named name: String) -> JSONValue? {
        document["components"]?["schemas"]?[name]
    }

    /// The problems of `value` against `schema`, each with its JSON pointer; empty when valid.
    func validate(_ value: JSONValue, against schema: JSONValue, at pointer: String = "") -> [String] {
        if let reference = schema["$ref"]?.stringValue {
            guard reference.hasPrefix("#/components/schemas/"), let target = self.schema(named: String(reference.dropFirst("#/components/schemas/".count))) else {
                return ["\(pointer): unresolvable $ref \(reference)"]
            }
            return validate(value, against: target, at: pointer)
        }
        if let options = schema["oneOf"]?.arrayValue {
            if let mapping = schema["discriminator"]?["mapping"]?.objectValue, let property = schema["discriminator"]?["propertyName"]?.stringValue {
                guard let tag = value[property]?.stringValue, let reference = mapping[tag] else {
                    return ["\(pointer): `\(value[property]?.stringValue ?? "?")` is none of the oneOf's \(property) values"]
                }
                return validate(value, against: .object(["$ref": reference]), at: pointer)
            }
            let matches = options.filter { validate(value, against: $0, at: pointer).isEmpty }.count
            return matches == 1 ? [] : ["\(pointer): matches \(matches) of the oneOf's schemas, not exactly one"]
        }
        var problems: [String] = []
        if let type = schema["type"]?.stringValue, !OpenAPISubset.value(value, hasType: type) {
            return ["\(pointer): expected \(type), found \(value.serialized().prefix(60))"]
        }
        if let allowed = schema["enum"]?.arrayValue, !allowed.contains(value) {
            problems.append("\(pointer): `\(value.serialized().prefix(60))` is not one of \(allowed.map { $0.serialized() }.joined(separator: ", "))")
        }
        if case .object(let members) = value {
            let properties = schema["properties"]?.objectValue ?? [:]
            for name in schema["required"]?.arrayValue?.compactMap(\.stringValue) ?? [] where members[name] == nil {
                problems.append("\(pointer): required `\(name)` is missing")
            }
            for (name, member) in members where member != .null {
                if let property = properties[name] {
                    problems += validate(member, against: property, at: pointer + "/" + name)
                } else if let additional = schema["additionalProperties"], case .object = additional {
                    problems += validate(member, against: additional, at: pointer + "/" + name)
                }
            }
        }
        if case .array(let items) = value, let itemSchema = schema["items"] {
            for (index, item) in items.enumerated() {
                problems += validate(item, against: itemSchema, at: pointer + "/\(index)")
            }
        }
        return problems
    }

    static func value(_ value: JSONValue, hasType type: String) -> Bool {
        switch (type, value) {
        case ("object", .object), ("array", .array), ("string", .string), ("boolean", .bool), ("integer", .integer): return true
        case ("number", .integer), ("number", .double): return true
        case ("integer", .double(let number)): return number.rounded() == number
        default: return false
        }
    }

    /// The component schema whose `type` enum is `resourceType` (`inAppPurchases` →
    /// `InAppPurchaseV2`; where several have it, `preferred` picks).
    func resourceSchema(forType resourceType: String, preferred: [String] = ["InAppPurchaseV2", "InAppPurchaseLocalization", "SubscriptionLocalization", "SubscriptionGroupLocalization", "InAppPurchaseAppStoreReviewScreenshot"]) -> String? {
        let schemas = document["components"]?["schemas"]?.objectValue ?? [:]
        let candidates = schemas.filter { $0.value["properties"]?["type"]?["enum"]?.arrayValue == [.string(resourceType)] && $0.value["properties"]?["id"] != nil }.keys.sorted()
        return candidates.first { preferred.contains($0) } ?? candidates.first
    }
}
