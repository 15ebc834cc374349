#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import IAPDoctor

/// Decodes the built-in rule set on a second thread while the main thread parses the
/// arguments: the two are most of a tiny check's start-up, and independent.
/// `RuleSet.builtin` is a lazily made global, so a command that reaches
/// for it before the thread is done waits for that one decoding instead of doing its own; a
/// command that never needs it (`--version`) exits without waiting.
enum StartupWarmUp {
    static func begin() {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        pthread_attr_setstacksize(&attributes, 8 << 20)
        #if canImport(Darwin)
        var thread: pthread_t?
        #else
        var thread = pthread_t()
        #endif
        // If no thread can be made, the catalog is decoded when first needed, as before.
        _ = pthread_create(&thread, &attributes, warmUpMain, nil)
    }
}

#if canImport(Darwin)
private func warmUpMain(_: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer? {
    _ = RuleSet.builtin
    return nil
}
#else
private func warmUpMain(_: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    _ = RuleSet.builtin
    return nil
}
#endif
