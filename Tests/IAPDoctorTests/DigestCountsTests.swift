@testable import Reporters
import Testing

/// The GitLab report's fingerprint table (MD5 digests counted in place of strings).
@Suite("Digest counts")
struct DigestCountsTests {
    /// The counting table agrees with a dictionary through its growth, with digests that share a
    /// low half (the probe's start) or a slot, repeated in any order.
    @Test func digestsAreCountedAsADictionaryCountsThem() {
        var table = DigestCounts()
        var expected: [String: Int] = [:]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<5_000 {
            let low = UInt64.random(in: 0..<40, using: &generator) << UInt64.random(in: 0...12, using: &generator)
            let digest = (high: UInt64.random(in: 0..<30, using: &generator), low: low)
            let key = "\(digest.high)/\(digest.low)"
            #expect(table.count(digest) == expected[key, default: 0])
            expected[key, default: 0] += 1
        }
    }
}
