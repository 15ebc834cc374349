import Testing

@testable import AppStoreConnect
@testable import IAPDoctorCLI

/// What `asc pull` prints on standard error quotes the server (error codes, details): the
/// server cannot color the terminal, move the cursor or start a CI command line through it.
@Suite struct PullSummaryTests {
    @Test func theServersWordsAreEscaped() {
        let hostile = "RATE\u{1B}[2J\u{7}\n::error file=x::pwned"
        let stop = StopReason(code: hostile, title: "Not sent", detail: "detail\r\n::add-mask::y")
        let result = PullResult(
            contents: .empty(bundleID: "com.acme.coins"), unavailable: [UnavailableRequest(request: "GET /v1/apps", notSentBecause: stop)],
            stoppedBy: stop, statistics: PullStatistics(), resourceCount: 0, notSentCount: 1, appFound: true)
        let text = ASCPull.summary(result, seconds: 1, bundleID: "com.acme.coins", headline: "wrote x.json")
        #expect(!text.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{7}" || $0 == "\r" }, "\(text)")
        #expect(!text.split(separator: "\n").contains { $0.hasPrefix("::") }, "\(text)")
        #expect(text.contains("RATE\\u{1B}[2J\\u{7}"), "\(text)")
    }
}
