// libFuzzer target `scripts`: the source scanner on one Dart, TypeScript or C# file (chosen by
// the first byte): each language's lexer and summarizer, the expressions written over for the
// Swift evaluator, and the resolver. As for `resolver`: the work stays within its budget, and
// every request and unresolved call site is positioned in the file.
import CodeScanner

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    let file = ["lib/fuzz.dart", "src/fuzz.tsx", "Fuzz.cs"][Int((bytes.first ?? 0) % 3)]
    let scan = SourceScanner.scan(source: String(decoding: bytes, as: UTF8.self), file: file)
    precondition(scan.resolutionWork <= 2 * SourceScan.maxResolutionWork, "resolver work \(scan.resolutionWork)")
    for request in scan.requests {
        precondition(request.location.file == file && request.location.line >= 1, "request not positioned: \(request.location)")
    }
    for unresolved in scan.unresolved {
        precondition(unresolved.location.file == file && unresolved.location.line >= 1, "call site not positioned: \(unresolved.location)")
    }
    return 0
}
