#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs the item handler of a scan on a thread of its own, so that libxml2's parse of the next
/// items and the handler's work on the finished ones overlap, and a catalog check uses two cores
/// instead of one.
///
/// The parse fills an arena per item and hands it over when the item ends; the worker handles
/// the arenas in the order they were handed over (document order) and gives them back. Arenas are
/// handed over in batches, so the two threads meet under the lock about once per `batchSize`
/// items, and at most `maxArenas` are in flight: a parse that gets ahead waits for the handler, and
/// memory stays bounded. Everything the handler touches is the worker's until ``finish()`` has
/// joined it. When no thread can be made, the handler runs on the parse's thread, item by item.
final class ItemPipeline {
    private static let batchSize = 32
    private static let maxArenas = 128

    private let parse: XMLParseIdentity
    private let handler: (XMLElementView) -> Void
    /// Runs the worker's loop (to give it what the caller's thread had, such as task-locals).
    private let around: (() -> Void) -> Void

    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    /// Signalled when arenas are queued or the parse has ended (the worker waits on it)...
    private let queuedOrEnded: UnsafeMutablePointer<pthread_cond_t>
    /// ...and when arenas are given back (the parse waits on it when none is free).
    private let freed: UnsafeMutablePointer<pthread_cond_t>

    // Under `mutex`.
    @exclusivity(unchecked) private var queued: [XMLItemArena] = []
    @exclusivity(unchecked) private var returned: [XMLItemArena] = []
    @exclusivity(unchecked) private var ended = false
    @exclusivity(unchecked) private var workerWaits = false
    @exclusivity(unchecked) private var parseWaits = false

    // The parse's own.
    @exclusivity(unchecked) private var batch: [XMLItemArena] = []
    @exclusivity(unchecked) private var spare: [XMLItemArena] = []
    @exclusivity(unchecked) private var made = 1
    #if canImport(Darwin)
    @exclusivity(unchecked) private var thread: pthread_t?
    #else
    @exclusivity(unchecked) private var thread = pthread_t()
    #endif
    @exclusivity(unchecked) private var running = false
    /// The size of the caller's alternate signal stack, if it has one.
    @exclusivity(unchecked) private var alternateStackSize = 0

    init(parse: XMLParseIdentity, handler: @escaping (XMLElementView) -> Void, around: @escaping (() -> Void) -> Void) {
        self.parse = parse
        self.handler = handler
        self.around = around
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        queuedOrEnded = .allocate(capacity: 1)
        pthread_cond_init(queuedOrEnded, nil)
        freed = .allocate(capacity: 1)
        pthread_cond_init(freed, nil)
        batch.reserveCapacity(Self.batchSize)
        start()
    }

    deinit {
        finish()
        pthread_cond_destroy(freed)
        freed.deallocate()
        pthread_cond_destroy(queuedOrEnded)
        queuedOrEnded.deallocate()
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    private func start() {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        // The handler runs rules that may recurse: the main thread's usual 8 MB, not a secondary
        // thread's default (512 KB on macOS).
        pthread_attr_setstacksize(&attributes, 8 << 20)
        // An alternate signal stack like the caller's (it is per thread): a program that handles
        // stack overflows on one (the CLI turns runtime traps into exit 3) needs it here too.
        var callerStack = stack_t()
        if sigaltstack(nil, &callerStack) == 0, callerStack.ss_flags & Int32(SS_DISABLE) == 0, callerStack.ss_size > 0 {
            alternateStackSize = callerStack.ss_size
        }
        let context = Unmanaged.passRetained(self).toOpaque()
        if pthread_create(&thread, &attributes, itemPipelineMain, context) == 0 {
            running = true
        } else {
            Unmanaged<ItemPipeline>.fromOpaque(context).release()
        }
    }

    /// Takes a finished item's arena; returns the arena to fill next.
    func handOff(_ arena: XMLItemArena) -> XMLItemArena {
        guard running else {
            handler(XMLElementView(arena: arena, index: 0))
            return arena
        }
        batch.append(arena)
        if batch.count >= Self.batchSize { exchange() }
        if let next = spare.popLast() { return next }
        if made < Self.maxArenas {
            made += 1
            return XMLItemArena(parse: parse)
        }
        pthread_mutex_lock(mutex)
        while returned.isEmpty {
            // Nothing comes back before the worker has the arenas still in this batch.
            if !batch.isEmpty { publishLocked() }
            parseWaits = true
            pthread_cond_wait(freed, mutex)
            parseWaits = false
        }
        swap(&spare, &returned)
        pthread_mutex_unlock(mutex)
        return spare.popLast()!
    }

    /// Queues the batch and takes the arenas given back since (reusing them before making more
    /// keeps the few in use warm in the cache).
    private func exchange() {
        pthread_mutex_lock(mutex)
        publishLocked()
        if spare.isEmpty { swap(&spare, &returned) }
        pthread_mutex_unlock(mutex)
    }

    private func publishLocked() {
        queued += batch
        batch.removeAll(keepingCapacity: true)
        if workerWaits { pthread_cond_signal(queuedOrEnded) }
    }

    /// Hands over what is left and waits until the worker has handled every item. Idempotent.
    func finish() {
        guard running else { return }
        running = false
        pthread_mutex_lock(mutex)
        publishLocked()
        ended = true
        pthread_cond_signal(queuedOrEnded)
        pthread_mutex_unlock(mutex)
        #if canImport(Darwin)
        if let thread { pthread_join(thread, nil) }
        #else
        pthread_join(thread, nil)
        #endif
    }

    /// The worker: handles queued arenas in order until the parse has ended and none is left.
    fileprivate func work() {
        var signalStack: UnsafeMutableRawPointer?
        if alternateStackSize > 0, let memory = malloc(alternateStackSize) {
            var stack = stack_t()
            stack.ss_sp = memory
            stack.ss_size = alternateStackSize
            stack.ss_flags = 0
            if sigaltstack(&stack, nil) == 0 { signalStack = memory } else { free(memory) }
        }
        defer {
            if let signalStack {
                var disabled = stack_t()
                disabled.ss_flags = Int32(SS_DISABLE)
                sigaltstack(&disabled, nil)
                free(signalStack)
            }
        }
        around {
            var taken: [XMLItemArena] = []
            while true {
                pthread_mutex_lock(mutex)
                while queued.isEmpty, !ended {
                    workerWaits = true
                    pthread_cond_wait(queuedOrEnded, mutex)
                    workerWaits = false
                }
                if queued.isEmpty {
                    pthread_mutex_unlock(mutex)
                    return
                }
                swap(&taken, &queued)
                pthread_mutex_unlock(mutex)
                for arena in taken {
                    handler(XMLElementView(arena: arena, index: 0))
                    arena.shrinkIfLarge()
                }
                pthread_mutex_lock(mutex)
                returned += taken
                if parseWaits { pthread_cond_signal(freed) }
                pthread_mutex_unlock(mutex)
                taken.removeAll(keepingCapacity: true)
            }
        }
    }
}

#if canImport(Darwin)
private func itemPipelineMain(_ context: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer? {
    Unmanaged<ItemPipeline>.fromOpaque(context).takeRetainedValue().work()
    return nil
}
#else
private func itemPipelineMain(_ context: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    guard let context else { return nil }
    Unmanaged<ItemPipeline>.fromOpaque(context).takeRetainedValue().work()
    return nil
}
#endif
