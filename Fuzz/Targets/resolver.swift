// libFuzzer target `resolver`: the source scanner on one Swift (or, when the first byte is odd,
// Objective-C) file: lexer, summarizer and the constant resolver. Beyond "no crash, no blow-up":
// the resolver's work stays within its budget, and every request and unresolved call site is
// positioned in the file.
import CodeScanner

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    let file = (bytes.first ?? 0) & 1 == 1 ? "Fuzz.m" : "Fuzz.swift"
    let scan = SourceScanner.scan(source: String(decoding: bytes, as: UTF8.self), file: file)
    // The budget is checked between steps: one list may go past it by its own length.
    precondition(scan.resolutionWork <= 2 * SourceScan.maxResolutionWork, "resolver work \(scan.resolutionWork)")
    for request in scan.requests {
        precondition(request.location.file == file && request.location.line >= 1, "request not positioned: \(request.location)")
    }
    for unresolved in scan.unresolved {
        precondition(unresolved.location.file == file && unresolved.location.line >= 1, "call site not positioned: \(unresolved.location)")
    }
    return 0
}
