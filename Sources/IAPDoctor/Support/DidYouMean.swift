/// Levenshtein distance with an upper bound: returns `nil` as soon as the distance must exceed
/// `limit`, so comparing against thousands of candidates stays cheap.
public func boundedEditDistance(_ a: String, _ b: String, limit: Int) -> Int? {
    let x = Array(a.unicodeScalars), y = Array(b.unicodeScalars)
    if abs(x.count - y.count) > limit { return nil }
    if x.isEmpty { return y.count <= limit ? y.count : nil }
    if y.isEmpty { return x.count <= limit ? x.count : nil }
    var previous = Array(0...y.count)
    var current = [Int](repeating: 0, count: y.count + 1)
    for i in 1...x.count {
        current[0] = i
        var rowMinimum = current[0]
        for j in 1...y.count {
            let cost = x[i - 1] == y[j - 1] ? 0 : 1
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            rowMinimum = min(rowMinimum, current[j])
        }
        if rowMinimum > limit { return nil }
        swap(&previous, &current)
    }
    return previous[y.count] <= limit ? previous[y.count] : nil
}

/// The closest candidate within a distance that grows with the word's length (1 for short words,
/// up to 3), or `nil`. Ties go to the earliest candidate, so results are deterministic.
public func closestMatch(to word: String, in candidates: [String]) -> String? {
    let limit = max(1, min(3, word.count / 4))
    var best: (String, Int)?
    for candidate in candidates where candidate != word {
        if let distance = boundedEditDistance(word, candidate, limit: best.map { $0.1 - 1 } ?? limit) {
            best = (candidate, distance)
            if distance == 1 { break }
        }
    }
    return best?.0
}
