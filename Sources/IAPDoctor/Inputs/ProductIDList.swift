/// A list of product IDs the app ships or downloads: an XML plist array (or a dictionary whose
/// values are IDs) or a JSON array of strings.
public enum ProductIDList {
    public static func load(path: String) throws(InputProblem) -> [Fact<String>] {
        let bytes: [UInt8]
        do {
            bytes = try FileSystem.readBytes(path, maxBytes: 16 << 20)
        } catch {
            throw InputProblem(Finding(
                rule: "input-unreadable", severity: .error, checklist: nil, message: error.message,
                help: "\(error.help); `app.product_id_lists` paths are relative to the descriptor's folder", location: SourceLocation(file: path)))
        }
        let first = bytes.first { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 && $0 != 0xEF && $0 != 0xBB && $0 != 0xBF }
        if first == UInt8(ascii: "[") || first == UInt8(ascii: "{") {
            let json: JSONValue
            do {
                json = try JSONParser.parse(bytes: bytes, file: path)
            } catch {
                throw PropertyList.malformed("the product ID list is not valid JSON: \(error.message)", help: "fix the JSON at this position", at: error.location)
            }
            let items = json.elements.isEmpty ? (json["products"]?.elements ?? json["product_ids"]?.elements ?? []) : json.elements
            var ids: [Fact<String>] = []
            for item in items {
                if let id = item.stringFact(.productList) ?? item["productID"]?.stringFact(.productList) ?? item["id"]?.stringFact(.productList) {
                    ids.append(id)
                }
            }
            return ids
        }
        let plist = try PropertyList.parse(bytes: bytes, file: path, what: "product ID list")
        switch plist {
        case .array(let values, _): return values.compactMap { $0.stringFact(.productList) }
        case .dictionary(let entries, _): return entries.compactMap { $0.value.stringFact(.productList) }
        default:
            throw PropertyList.malformed(
                "the product ID list `\(path)` is a single value; expected an array of product IDs",
                help: "write `<array><string>com.example.pro</string></array>`", at: plist.location)
        }
    }
}
