import Formats
import Model

extension Diagnosis {
    /// The lines a report may quote under the listed findings, by file: each span's first line,
    /// the line after it and its last line (a span over several lines is drawn by its ends), for
    /// the finding's location and every related span.
    public var linesToQuote: [String: Set<Int>] {
        var wanted: [String: Set<Int>] = [:]
        func add(_ location: SourceLocation) {
            guard !location.file.isEmpty, location.line > 0 else { return }
            wanted[location.file, default: []].insert(location.line)
            if location.hasEnd, location.endLine > location.line {
                wanted[location.file, default: []].formUnion([location.line + 1, location.endLine])
            }
        }
        for finding in findings where !finding.isElided {
            if let location = finding.location { add(location) }
            for span in finding.related { add(span.location) }
        }
        return wanted
    }
}
