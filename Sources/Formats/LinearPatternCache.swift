import Foundation

extension LinearPattern {
    /// The compiled pattern for `pattern`, compiled once per process: the rule set checks each
    /// `pattern` option where it reads it and again with the whole catalog, and every scan compiles
    /// it for its checks, and a compile (the automaton and its byte tables) is not cheap. A
    /// pattern is immutable once compiled, so threads share it.
    public static func shared(_ pattern: String) throws(Problem) -> LinearPattern {
        try compiledPatterns.compiled(pattern)
    }

    private static let compiledPatterns = CompiledPatterns()
}

/// Compiled patterns (or their problem) by source, for ``LinearPattern/shared(_:)``. Bounded: past
/// `limit` distinct patterns (a library user's own, say) new ones are compiled and not kept.
private final class CompiledPatterns: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [String: Result<LinearPattern, LinearPattern.Problem>] = [:]
    private let limit = 512

    func compiled(_ pattern: String) throws(LinearPattern.Problem) -> LinearPattern {
        lock.lock()
        let known = entries[pattern]
        lock.unlock()
        if let known { return try known.get() }
        // Compiled outside the lock: two threads may both compile a new pattern; either result is
        // the same.
        let result: Result<LinearPattern, LinearPattern.Problem>
        do throws(LinearPattern.Problem) {
            result = .success(try LinearPattern(pattern))
        } catch {
            result = .failure(error)
        }
        lock.lock()
        if entries.count < limit, entries[pattern] == nil { entries[pattern] = result }
        lock.unlock()
        return try result.get()
    }
}
