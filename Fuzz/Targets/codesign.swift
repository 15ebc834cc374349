// libFuzzer target `codesign`: the Mach-O code-signature reader on arbitrary bytes, thin and
// universal. Invariants beyond "no crash": a signed slice's entitlements stay within the input,
// reading the same bytes twice gives the same answer, and the regions a reader plans from the
// headers (the signature, the string constants) are inside the file whenever a read succeeds.
import IAPDoctor

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let first: [CodeSignature.Slice]
    do {
        first = try CodeSignature.read(CodeSignature.Bytes(bytes), file: "fuzz")
    } catch {
        precondition(!error.message.isEmpty && !error.help.isEmpty, "a refusal without words")
        return 0
    }
    for slice in first {
        precondition((slice.entitlementsXML?.count ?? 0) <= size, "entitlements larger than the file")
        precondition(slice.isSigned || slice.entitlementsXML == nil, "entitlements without a signature")
    }
    precondition((try? CodeSignature.read(CodeSignature.Bytes(bytes), file: "fuzz")) == first, "two reads differ")
    guard let regions = try? CodeSignature.regions(CodeSignature.Bytes(bytes), file: "fuzz") else {
        preconditionFailure("a read succeeded where planning its regions failed")
    }
    precondition(regions.allSatisfy { $0.lowerBound >= 0 && $0.upperBound <= size }, "a region outside the file")
    precondition(first.filter { $0.identifierStrings != nil }.count <= regions.count, "strings without a region")
    return 0
}
