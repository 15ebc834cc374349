import XMLReader

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a report streams its bytes: an open file descriptor, written as the report goes, so a
/// report of 250,000 findings (hundreds of megabytes of JSON) is never one string in memory.
/// The first write error is kept and later writes are dropped; whoever opened the descriptor
/// reports it (``OutputFile/writeAtomically(to:in:_:)``).
public final class ReportOutput {
    let descriptor: Int32
    private(set) var error: Int32?
    /// How many bytes were written.
    public private(set) var count = 0

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    public func write(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard error == nil, var next = bytes.baseAddress else { return }
        var left = bytes.count
        while left > 0 {
            let written = systemWrite(descriptor, next, left)
            if written < 0 {
                if SystemError.current == EINTR { continue }
                error = SystemError.current
                return
            }
            next += written
            left -= written
            count += written
        }
    }

    public func write(_ text: String) {
        var text = text
        text.withUTF8 { write($0) }
    }
}

/// `write(2)`, named apart from ``ReportOutput/write(_:)``.
@inline(__always)
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}
