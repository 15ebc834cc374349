// libFuzzer target `json`: the JSON reader alone (`.storekit` files, product ID lists, App Store
// Connect snapshots and API answers all go through it). Checks what every document must satisfy:
// errors have a position; every value's span lies inside its parent's and after its elder
// sibling's; lookup by key finds the first member of that name; and writing the document back
// out and reading it again gives the same document; and a parse that folds containers at some
// depth, each folded part then read on its own, gives the same values at the same positions and
// the same errors as the whole parse. Build and run with scripts/fuzz.sh.
import JSONReader

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let foldingDepth = size % 4 + 1
    let folded: Result<JSONDocument, JSONSyntaxError>
    do {
        folded = .success(try JSONDocument.parse(bytes: bytes, file: "fuzz.json", maxValues: JSONDocument.maxValues, foldingDepth: foldingDepth))
    } catch {
        folded = .failure(error)
    }
    let document: JSONDocument
    do {
        document = try JSONDocument.parse(bytes: bytes, file: "fuzz.json")
    } catch {
        precondition(error.line >= 1 && error.column >= 1 && error.offset <= size, "error without a position: \(error)")
        guard case .failure(let other) = folded, other.message == error.message, other.line == error.line, other.column == error.column else {
            preconditionFailure("the folding parse does not fail as the whole parse does: \(error)")
        }
        return 0
    }
    guard case .success(let parts) = folded else { preconditionFailure("the folding parse fails where the whole parse does not") }
    var whole: [String] = [], unfolded: [String] = []
    outline(document.root, into: &whole)
    outline(parts.root, into: &unfolded)
    precondition(whole == unfolded, "the folded parts read on their own differ from the whole document")
    var written = ""
    write(document.root, into: &written, within: 0..<size)
    let again: JSONDocument
    do {
        again = try JSONDocument.parse(bytes: Array(written.utf8), file: "again.json")
    } catch {
        preconditionFailure("the document written back is not JSON: \(error)")
    }
    var rewritten = ""
    write(again.root, into: &rewritten, within: 0..<written.utf8.count)
    precondition(rewritten == written, "reading the written document again changed it")
    return 0
}

/// Each value's kind, span and scalar, depth first; folded containers are read on their own.
func outline(_ node: JSONNode, into lines: inout [String]) {
    let node = node.isFolded ? try! node.standalone() : node
    lines.append("\(node.kind) \(node.span) \(node.string ?? "") \(node.number.map { "\($0)" } ?? "") \(node.bool.map { "\($0)" } ?? "")")
    for member in node.members {
        lines.append("key \(member.key) \(member.keyNode.span)")
        outline(member.value, into: &lines)
    }
    for element in node.elements { outline(element, into: &lines) }
}

/// Writes `node` canonically (members in document order, strings escaped the one way), checking
/// spans and lookups on the way.
func write(_ node: JSONNode, into output: inout String, within parent: Range<Int>) {
    let offsets = node.offsets
    precondition(parent.lowerBound <= offsets.lowerBound && offsets.upperBound <= parent.upperBound, "a value outside its parent")
    let span = node.span
    precondition(span.line >= 1 && span.column >= 1 && (span.endLine, span.endColumn) > (span.line, span.column), "an empty or inverted span")
    switch node.kind {
    case .null: output += "null"
    case .bool: output += node.bool! ? "true" : "false"
    case .number:
        let number = node.number!
        output += number.isFinite ? "\(number)" : "0.0"
    case .string: writeString(node.string!, into: &output)
    case .array:
        output += "["
        var previous = offsets.lowerBound
        for (index, element) in node.elements.enumerated() {
            precondition(element.offsets.lowerBound > previous, "elements out of order")
            previous = element.offsets.upperBound - 1
            if index > 0 { output += "," }
            write(element, into: &output, within: offsets)
        }
        output += "]"
    case .object:
        output += "{"
        var seen: Set<String> = []
        for (index, member) in node.members.enumerated() {
            precondition(member.keyNode.offsets.upperBound <= member.value.offsets.lowerBound, "a value before its key")
            if seen.insert(member.key).inserted {
                precondition(node[member.key]?.offsets == member.value.offsets, "lookup did not find the first member named so")
            }
            if index > 0 { output += "," }
            writeString(member.key, into: &output)
            output += ":"
            write(member.value, into: &output, within: offsets)
        }
        output += "}"
    }
}

func writeString(_ text: String, into output: inout String) {
    output += "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": output += "\\\""
        case "\\": output += "\\\\"
        case _ where scalar.value < 0x20: output += "\\u00" + String(scalar.value >> 4, radix: 16) + String(scalar.value & 15, radix: 16)
        default: output.unicodeScalars.append(scalar)
        }
    }
    output += "\""
}
