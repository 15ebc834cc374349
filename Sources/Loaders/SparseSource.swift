import Formats

extension ExportedApp {
    /// The parts of an executable that stream by which passes have kept: the wanted ranges,
    /// merged, and each byte of them held once however many ranges (or slices) name it.
    final class SparseSource: CodeSignature.Source {
        let count: Int
        /// Ranges to keep, sorted and disjoint: the first 64 KB to start with (headers and
        /// commands), then what the plan and the reader ask for.
        private(set) var wanted: [Range<Int>]
        /// Ranges asked for and not held, since the last reset.
        var missing: [Range<Int>] = []
        /// The bytes held, by start, sorted and disjoint (adjacent runs are joined).
        private var held: [(start: Int, bytes: [UInt8])] = []

        /// The most bytes one read may ask for and have planned for the next pass (the string
        /// constants are at most `CodeSignature.maxStringBytes`).
        static let maxRequestBytes = 32 << 20

        init(count: Int) {
            self.count = count
            wanted = count > 0 ? [0..<min(count, 64 << 10)] : []
        }

        /// The bytes held, all runs together.
        var heldBytes: Int { held.reduce(0) { $0 + $1.bytes.count } }

        /// Adds `ranges` (clamped to the file) to the wanted ones; whether any byte was added.
        func want(_ ranges: [Range<Int>]) -> Bool {
            let before = wanted.reduce(0) { $0 + $1.count }
            let clamped = ranges.compactMap { range -> Range<Int>? in
                let start = max(0, range.lowerBound), end = min(count, range.upperBound)
                return start < end ? start..<end : nil
            }
            wanted = Self.merged(wanted + clamped)
            return wanted.reduce(0) { $0 + $1.count } > before
        }

        /// Whether some wanted range ends inside `span`.
        func completesWanted(_ span: Range<Int>) -> Bool {
            wanted.contains { $0.upperBound > span.lowerBound && $0.upperBound <= span.upperBound }
        }

        /// Keeps the parts of `piece` (inflated from `offset`) that are wanted and not yet held.
        func keep(_ piece: [UInt8], at offset: Int) {
            let end = offset + piece.count
            for range in wanted where range.lowerBound < end && offset < range.upperBound {
                var start = max(range.lowerBound, offset)
                let stop = min(range.upperBound, end)
                // Skip what is held already, then store each gap.
                for run in held where run.start < stop && start < run.start + run.bytes.count {
                    if run.start > start { store(Array(piece[(start - offset)..<(run.start - offset)]), at: start) }
                    start = max(start, run.start + run.bytes.count)
                }
                if start < stop { store(Array(piece[(start - offset)..<(stop - offset)]), at: start) }
            }
        }

        /// Stores bytes that no run holds, joining the runs they touch.
        private func store(_ bytes: [UInt8], at start: Int) {
            guard !bytes.isEmpty else { return }
            let index = held.firstIndex { $0.start > start } ?? held.count
            let end = start + bytes.count
            if index > 0, held[index - 1].start + held[index - 1].bytes.count == start {
                held[index - 1].bytes += bytes
                if index < held.count, held[index].start == end {
                    held[index - 1].bytes += held[index].bytes
                    held.remove(at: index)
                }
            } else if index < held.count, held[index].start == end {
                held[index] = (start, bytes + held[index].bytes)
            } else {
                held.insert((start, bytes), at: index)
            }
        }

        func bytes(at offset: Int, count: Int) -> [UInt8]? {
            guard offset >= 0, count >= 0, offset <= self.count, count <= self.count - offset else { return nil }
            if let run = held.last(where: { $0.start <= offset }), offset + count <= run.start + run.bytes.count {
                return Array(run.bytes[(offset - run.start)..<(offset - run.start + count)])
            }
            // Bounded: the reader asks for a few ranges of at most a few MB.
            guard count <= Self.maxRequestBytes else { return nil }
            missing.append(offset..<offset + max(count, 1))
            return nil
        }

        /// `ranges` sorted, with overlapping and adjacent ones joined.
        static func merged(_ ranges: [Range<Int>]) -> [Range<Int>] {
            var result: [Range<Int>] = []
            for range in ranges.filter({ !$0.isEmpty }).sorted(by: { $0.lowerBound < $1.lowerBound }) {
                if let last = result.last, range.lowerBound <= last.upperBound {
                    result[result.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
                } else {
                    result.append(range)
                }
            }
            return result
        }
    }
}
