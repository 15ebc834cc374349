import Foundation

/// Exit code 3 for internal failures, never a signal. A thrown error that is not a
/// usage, input or configuration error is reported by `IAPDoctorCommand.main` in one line with
/// exit 3. What cannot be caught in Swift (a runtime trap: an arithmetic overflow, an index out of
/// range, a failed allocation, a stack overflow) raises a signal; the handlers installed here turn
/// it into the same one line on stderr and `_exit(3)`. They run on their own stack (a stack
/// overflow leaves none) and call only async-signal-safe functions (`write`, `_exit`).
enum InternalFailure {
    static let message: StaticString =
        "iapdoctor: internal error (the process was stopped by a runtime trap); this is a bug in iapdoctor: please report it with the input that caused it\n"

    static let signals: [Int32] = [SIGILL, SIGTRAP, SIGABRT, SIGSEGV, SIGBUS, SIGFPE]

    static func installHandlers() {
        // Some of our own stack for the handler: a stack overflow leaves none on the thread.
        let size = 64 * 1024
        if let memory = malloc(size) {
            var stack = stack_t()
            stack.ss_sp = memory
            stack.ss_size = size
            stack.ss_flags = 0
            sigaltstack(&stack, nil)
        }
        for signal in signals {
            var action = sigaction()
            #if os(Linux)
            action.__sigaction_handler.sa_handler = { _ in InternalFailure.stop() }
            action.sa_flags = Int32(SA_ONSTACK)
            #else
            action.__sigaction_u.__sa_handler = { _ in InternalFailure.stop() }
            action.sa_flags = SA_ONSTACK
            #endif
            sigemptyset(&action.sa_mask)
            sigaction(signal, &action, nil)
        }
    }

    /// Async-signal-safe: a static string, `write` and `_exit`.
    static func stop() -> Never {
        let text = message
        _ = write(2, text.utf8Start, text.utf8CodeUnitCount)
        _exit(3)
    }

    /// `IAPDOCTOR_TEST_INTERNAL_FAILURE=trap|throw` makes the process fail on purpose, so the tests
    /// can check that an internal failure ends with exit 3 and one line (no input can do it).
    static func simulateIfAsked() throws {
        switch ProcessInfo.processInfo.environment["IAPDOCTOR_TEST_INTERNAL_FAILURE"] {
        case "trap":
            let values = [Int](repeating: 0, count: 1)
            let index = Int(ProcessInfo.processInfo.processIdentifier) + 1
            _ = values[index]
        case "throw":
            throw SimulatedFailure()
        default:
            break
        }
    }

    struct SimulatedFailure: Error, CustomStringConvertible {
        var description: String { "a simulated internal failure (IAPDOCTOR_TEST_INTERNAL_FAILURE=throw)" }
    }
}
