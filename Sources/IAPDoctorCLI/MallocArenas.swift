#if canImport(Glibc)
import Glibc

/// glibc gives each thread that allocates a malloc arena of its own. The catalog scan's second
/// thread (`XMLReader.scanInParallel`) allocates the findings and the main thread the report, and
/// with two arenas neither reuses what the other freed, which raises a large check's peak
/// memory. One arena for the process: its two threads
/// rarely allocate at the same moment.
enum MallocArenas {
    static func useOne() {
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        // `mallopt` is in malloc.h, which the Glibc module does not import; nil is RTLD_DEFAULT.
        guard let symbol = dlsym(nil, "mallopt") else { return }
        let mArenaMax: Int32 = -8
        _ = unsafeBitCast(symbol, to: Mallopt.self)(mArenaMax, 1)
    }
}
#else
/// Apple's malloc has no per-thread arenas to limit.
enum MallocArenas {
    static func useOne() {}
}
#endif
