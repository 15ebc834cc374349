import StoreKit
enum Prefix {
    #if os(macOS)
    static let value = "com.acme.mac"
    #else
    static let value = "com.acme.ios"
    #endif
}
#if canImport(AppKit)
let tipsID = "com.acme.mac.tips"
#elseif canImport(UIKit)
let tipsID = "com.acme.ios.tips"
#endif
func load() async throws {
    _ = try await Product.products(for: ["\(Prefix.value).pro", tipsID])
}
