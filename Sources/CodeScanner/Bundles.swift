import Foundation

// MARK: - What the app's bundle holds

extension SourceScanner.Resolver {
    /// `Bundle.main.object(forInfoDictionaryKey: "IAP IDs")`: the Info.plist's value;
    /// `Bundle.main.path(forResource: "Products", ofType: "plist")` and
    /// `url(forResource:withExtension:)`: the IDs in the property list of that name the scanned
    /// folders hold (a path stands for what is read from it).
    mutating func bundleCall(_ method: String, _ arguments: [(label: String?, tokens: [ExpressionToken])], _ context: Context) -> [Item]? {
        func argument(_ label: String?) -> String? {
            guard let tokens = arguments.first(where: { $0.label == label })?.tokens,
                  let values = evaluate(tokens, context), values.count == 1 else { return nil }
            return literal(values[0])?.value
        }
        switch method {
        case "object":
            guard let key = argument("forInfoDictionaryKey") else { return nil }
            return infoPlistValue(key)
        case "path", "url":
            guard let name = argument("forResource") else { return nil }
            let type = argument(method == "path" ? "ofType" : "withExtension")
            return propertyList(named: name, type: type)
        default:
            return nil
        }
    }

    /// An Info.plist key's strings; a dictionary's as entries.
    mutating func infoPlistValue(_ key: String) -> [Item]? {
        guard let strings = bundle.infoPlist[key] else {
            failSpecifically(bundle.infoPlist.isEmpty
                ? "`\(key)` is read from the app's Info.plist, which iapdoctor did not read (set `app.info_plist`, or `app.target` when the project has several apps)"
                : "the Info.plist iapdoctor read has no string values under `\(key)`")
            return nil
        }
        isList = strings.count != 1 || strings.first?.key != nil
        return items(strings)
    }

    /// Every Info.plist key with a string value, as entries (`Bundle.main.infoDictionary`).
    func infoDictionary() -> [Item] {
        bundle.infoPlist.keys.sorted().flatMap { key -> [Item] in
            let strings = bundle.infoPlist[key]!
            guard strings.count == 1, strings[0].key == nil else { return [] }
            return [.entry(key: .literal(value: key, location: strings[0].location, via: nil), value: items(strings)[0])]
        }
    }

    mutating func propertyList(named name: String, type: String?) -> [Item]? {
        let file = type.map { name.hasSuffix("." + $0) ? name : name + "." + $0 } ?? name
        guard file.hasSuffix(".plist"), let path = propertyLists[file] else {
            failSpecifically("`\(file)` is read at run time, and the scanned folders hold no file of that name")
            return nil
        }
        guard let strings = bundle.readPropertyList(path) else {
            fail("`\(file)` holds no list of IDs iapdoctor can read")
            return nil
        }
        isList = true
        return items(strings)
    }

    func items(_ strings: [BundleString]) -> [Item] {
        strings.map { string in
            let value = Item.literal(value: string.value, location: string.location, via: nil)
            guard let key = string.key else { return value }
            return .entry(key: .literal(value: key, location: string.location, via: nil), value: value)
        }
    }
}
