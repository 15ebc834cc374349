/// The source lines a report quotes under its findings, read once, before any report is written:
/// reporters look lines up here and never open a file.
///
/// Only files the run parsed as what they were read for are quoted (``ParsedFiles``): a key that
/// names `.git/config` as an Info.plist must not print its lines. A file over 8 MiB, or a line
/// over 500 bytes, is not quoted.
public struct SourceQuotes: Sendable {
    /// By file: the wanted lines that exist, by number.
    private var lines: [String: [Int: String]] = [:]

    public init() {}

    /// The line `number` (1-based) of `file`, without its line break; `nil` when it was not read.
    public func line(_ number: Int, in file: String) -> String? {
        lines[file]?[number]
    }

    /// Reads the `wanted` line numbers of each file from disk, of the files `parsed` holds.
    public static func read(_ wanted: [String: Set<Int>], of parsed: ParsedFiles) -> SourceQuotes {
        var quotes = SourceQuotes()
        for (file, numbers) in wanted where !numbers.isEmpty && parsed.contains(file) {
            guard let bytes = try? FileSystem.readBytes(file, maxBytes: 8 << 20) else { continue }
            var found: [Int: String] = [:]
            var number = 1
            var start = 0
            let last = numbers.max() ?? 0
            var index = 0
            while number <= last {
                let end = bytes[index...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
                if numbers.contains(number), end - start <= 500 {
                    var line = String(decoding: bytes[start..<end], as: UTF8.self)
                    if line.hasSuffix("\r") { line.removeLast() }
                    found[number] = line
                }
                guard end < bytes.count else { break }
                start = end + 1
                index = start
                number += 1
            }
            quotes.lines[file] = found
        }
        return quotes
    }
}
