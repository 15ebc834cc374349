// libFuzzer target `bplist`: `PropertyList.parse(bytes:file:what:)` on `bplist00` followed by the
// input (the binary property list reader). Invariants beyond "no crash": a list that reads holds
// at most the value budget once expanded, a refusal says why, and two reads agree.
import IAPDoctor

func count(_ value: PlistValue) -> Int {
    switch value {
    case .array(let values, _): return 1 + values.reduce(0) { $0 + count($1) }
    case .dictionary(let entries, _): return 1 + entries.reduce(0) { $0 + count($1.value) }
    default: return 1
    }
}

func shape(_ value: PlistValue) -> String {
    switch value {
    case .string(let text, _): return "s\(text.debugDescription)"
    case .integer(let number, _): return "i\(number)"
    case .real(let number, _): return "r\(number.bitPattern)"
    case .bool(let flag, _): return "b\(flag)"
    case .date(let date, _): return "d\(date)"
    case .data: return "data"
    case .array(let values, _): return "[" + values.map(shape).joined(separator: ",") + "]"
    case .dictionary(let entries, _): return "{" + entries.map { "\($0.key.debugDescription):\(shape($0.value))" }.joined(separator: ",") + "}"
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array("bplist00".utf8) + Array(UnsafeBufferPointer(start: data, count: size))
    let first: PlistValue
    do {
        first = try PropertyList.parse(bytes: bytes, file: "fuzz.plist", what: "Info.plist")
    } catch {
        precondition(error.finding.message.contains("cannot be read: "), "a refusal without its reason")
        return 0
    }
    precondition(count(first) <= 1_000_000, "more values than the budget")
    precondition((try? PropertyList.parse(bytes: bytes, file: "fuzz.plist", what: "Info.plist")).map(shape) == shape(first), "two reads differ")
    return 0
}
