// libFuzzer target `manifest`: the Tuist manifest reader on one `Project.swift` (the input's
// first half) with one helper file (the rest, after the first `\u{0}`): lexer, declarations and
// the evaluator. Beyond "no crash, no blow-up": every value read is positioned in one of the files.
import CodeScanner

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    let split = bytes.firstIndex(of: 0) ?? bytes.endIndex
    let manifest = String(decoding: bytes[..<split], as: UTF8.self)
    let helper = split < bytes.endIndex ? String(decoding: bytes[bytes.index(after: split)...], as: UTF8.self) : ""
    guard let read = TuistManifest.read(manifest: ("Project.swift", manifest), helpers: [("Helpers.swift", helper)]) else { return 0 }
    for target in read.targets {
        for text in [target.name] + [target.bundleID, target.deploymentTarget].compactMap({ $0 }) {
            precondition(["Project.swift", "Helpers.swift"].contains(text.location.file) && text.location.line >= 1, "not positioned: \(text.location)")
        }
    }
    return 0
}
