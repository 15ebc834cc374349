/// Levenshtein distance (over Unicode scalars) with an upper bound: returns `nil` as soon as the
/// distance must exceed `limit`. An alignment within `limit` edits never strays more than `limit`
/// cells from the diagonal, so only that band is computed: O((2·limit + 1) · length) time and
/// O(length) memory, whatever the two strings are (the full table of two long IDs would take time
/// and memory quadratic in their length).
public func boundedEditDistance(_ a: String, _ b: String, limit: Int) -> Int? {
    boundedEditDistance(Array(a.unicodeScalars), Array(b.unicodeScalars), limit: limit, work: nil)
}

/// The banded table on scalars. `work`, when given, counts the cells computed (tests use it to
/// show the cost is linear without timing anything).
package func boundedEditDistance(
    _ x: [Unicode.Scalar], _ y: [Unicode.Scalar], limit: Int, work: UnsafeMutablePointer<Int>?
) -> Int? {
    guard limit >= 0 else { return nil }
    if abs(x.count - y.count) > limit { return nil }
    if x.isEmpty { return y.count <= limit ? y.count : nil }
    if y.isEmpty { return x.count <= limit ? x.count : nil }
    let unreachable = limit + 1
    // Cells outside the band hold `unreachable`; rows are indexed 0...y.count.
    var previous = [Int](repeating: unreachable, count: y.count + 1)
    var current = [Int](repeating: unreachable, count: y.count + 1)
    for j in 0...min(y.count, limit) { previous[j] = j }
    var cells = 0
    for i in 1...x.count {
        let low = max(1, i - limit), high = min(y.count, i + limit)
        current[0] = i <= limit ? i : unreachable
        // The cell left of the band (read as `current[j - 1]` at `j == low`).
        if low > 1 { current[low - 1] = unreachable }
        var rowMinimum = current[0]
        if low <= high {
            for j in low...high {
                let cost = x[i - 1] == y[j - 1] ? 0 : 1
                let value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost, unreachable)
                current[j] = value
                rowMinimum = min(rowMinimum, value)
            }
            cells += high - low + 1
        }
        // The cell right of the band (read as `previous[j]` by the next row's last cell).
        if high < y.count { current[high + 1] = unreachable }
        if rowMinimum > limit {
            work?.pointee += cells
            return nil
        }
        swap(&previous, &current)
    }
    work?.pointee += cells
    return previous[y.count] <= limit ? previous[y.count] : nil
}

/// The closest candidate within a distance that grows with the word's length (1 for short words,
/// up to 3), or `nil`. Ties go to the earliest candidate, so results are deterministic.
public func closestMatch(to word: String, in candidates: [String]) -> String? {
    let scalars = Array(word.unicodeScalars)
    let limit = max(1, min(3, word.count / 4))
    var best: (String, Int)?
    for candidate in candidates where candidate != word {
        let bound = best.map { $0.1 - 1 } ?? limit
        // Lengths further apart than the bound cannot match: skip them without copying.
        let count = candidate.unicodeScalars.count
        guard abs(count - scalars.count) <= bound else { continue }
        if let distance = boundedEditDistance(scalars, Array(candidate.unicodeScalars), limit: bound, work: nil) {
            best = (candidate, distance)
            if distance == 1 { break }
        }
    }
    return best?.0
}

/// The one candidate nearest `word` (as ``closestMatch(to:in:)`` finds it), or nil when another is
/// as near: a suggestion certain enough to apply without asking.
public func uniqueClosestMatch(to word: String, in candidates: [String]) -> String? {
    guard let best = closestMatch(to: word, in: candidates) else { return nil }
    let scalars = Array(word.unicodeScalars)
    let limit = max(1, min(3, word.count / 4))
    guard let distance = boundedEditDistance(scalars, Array(best.unicodeScalars), limit: limit, work: nil) else { return nil }
    let rivals = candidates.filter { candidate in
        candidate != best && candidate != word
            && boundedEditDistance(scalars, Array(candidate.unicodeScalars), limit: distance, work: nil) != nil
    }
    return rivals.isEmpty ? best : nil
}
