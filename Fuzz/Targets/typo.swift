// libFuzzer target `typo`: the product ID typo search (`ProductIndex.match`, the banded trie walk
// for ASCII IDs and the banded scalar distance for the rest) and `closestMatch`. Input: the first
// line is the request, every further line a known product ID. Beyond "no crash, no blow-up" (a
// 64 KB input must stay far under libFuzzer's time and memory limits whatever the IDs' lengths):
// a typo answer names a known ID within 3 edits of the trimmed request, agreeing with
// `boundedEditDistance`, which is symmetric.
import IAPDoctor

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    guard !lines.isEmpty else { return 0 }
    let request = lines.removeFirst()
    let index = ProductIndex(ids: lines)
    let match = index.match(request, bundleIDs: lines.prefix(1).map { $0 + ".app" })
    if case .typo(let id, let distance) = match {
        precondition(lines.contains(id), "typo answer is not a known ID")
        precondition((1...3).contains(distance), "typo distance \(distance) out of 1...3")
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        let trimmed = String(request.drop(while: isSpace).reversed().drop(while: isSpace).reversed())
        precondition(trimmed.count <= ProductIndex.maxTypoSearchLength, "typo search on a request over the limit")
        let checked = boundedEditDistance(trimmed, id, limit: 3)
        precondition(checked == distance, "trie distance \(distance) but banded distance \(String(describing: checked))")
    }
    if let first = lines.first {
        let there = boundedEditDistance(request, first, limit: 2)
        let back = boundedEditDistance(first, request, limit: 2)
        precondition(there == back, "edit distance is not symmetric")
    }
    _ = closestMatch(to: request, in: Array(lines.prefix(64)))
    return 0
}
