// libFuzzer target `xcconfig`: an `.xcconfig` file's lines (assignments, conditions, includes
// left unread) and the resolution of every setting it assigns, with modifiers, conditions and
// `$(inherited)`, for two configurations and SDKs. Beyond "no crash, no blow-up": every value is
// positioned in the file, and no value exceeds the expansion budget.
import IAPDoctor

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let file = XCConfigFile.parse(text: text, file: "fuzz.xcconfig")
    for (configuration, sdk) in [("Release", nil), ("Debug", "iphonesimulator")] as [(String, String?)] {
        let settings = BuildSettings.resolving(file, configuration: configuration, sdk: sdk)
        for name in settings.names.prefix(64) {
            guard let value = settings.value(name) else { continue }
            precondition(value.location.file == "fuzz.xcconfig", "value not positioned in the file: \(value.location)")
            precondition(value.value.utf8.count <= 4 << 20, "value of \(value.value.utf8.count) bytes")
            _ = settings.undefinedReferences(of: name)
            _ = settings.decidingKey(name)
        }
        _ = settings.expand("$(PRODUCT_BUNDLE_IDENTIFIER:rfc1034identifier).$(TARGET_NAME:lower)")
    }
    return 0
}
