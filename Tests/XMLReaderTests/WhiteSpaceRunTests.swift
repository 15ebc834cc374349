import Testing

@testable import XMLReader

/// `isAllXMLSpace` reads eight bytes at a time: every byte value, at every place of runs shorter
/// and longer than a word, gives the answer of the byte-by-byte test.
@Suite struct WhiteSpaceRunTests {
    @Test func eachByteAtEachPlaceIsJudgedAsAlone() {
        let spaces: [UInt8] = [0x20, 0x0A, 0x09, 0x0D]
        for length in 1...19 {
            for place in 0..<length {
                for value in 0...255 {
                    var run = (0..<length).map { spaces[$0 % 4] }
                    run[place] = UInt8(value)
                    let judged = run.withUnsafeBufferPointer { isAllXMLSpace($0) }
                    #expect(judged == isXMLSpaceByte(UInt8(value)), "length \(length), byte \(value) at \(place)")
                }
            }
        }
        #expect([UInt8]().withUnsafeBufferPointer { isAllXMLSpace($0) })
    }
}
