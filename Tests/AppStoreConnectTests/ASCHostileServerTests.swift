import AppStoreConnect
import Foundation
import Testing
import TestSupport

/// A pull against a server that drips its answers, or whose `links.next` never ends: each ends
/// with a snapshot that says what is incomplete (a stall, not the request's timeout; a repeat, not
/// a hundred pages).
@Suite("App Store Connect pull against a hostile server")
struct ASCHostileServerTests {
    /// One GET whose answer arrives a byte every half second: a stall, not a wait for the 60 s timeout.
    @Test func aDrippedAnswerIsAStall() async throws {
        let server = try LoopbackHTTPServer { _ in
            LoopbackHTTPServer.Response(status: 200, headers: [("Content-Type", "application/json")], body: Data(#"{"data": []}"#.utf8), drip: 0.5)
        }
        defer { server.stop() }
        let transport = PlatformHTTPTransport(timeout: 60, stall: StallPolicy(seconds: 2, bytes: 32))
        defer { transport.close() }
        let error = try await #require(throws: TransportError.self) { _ = try await transport.get(URL(string: server.baseURL + "/v1/apps")!, headers: [:]) }
        #expect(error.stalled, "\(error.message)")
        #expect(error.message.contains("stalled: fewer than 32 bytes arrived in 2 seconds"))

        // The same answer at full speed is read.
        let fast = try LoopbackHTTPServer { _ in LoopbackHTTPServer.Response(status: 200, body: Data(#"{"data": []}"#.utf8)) }
        defer { fast.stop() }
        let answer = try await transport.get(URL(string: fast.baseURL + "/v1/apps")!, headers: [:])
        #expect(answer.status == 200)
    }

    @Test func aPullWhoseAnswersStallStopsWithWhatItHas() async throws {
        var scenario = SyntheticAppStoreConnect.Scenario()
        scenario.dripsPathPrefix = "/v1/apps/\(SyntheticASCWorld.appID)/"
        let pull = try await SyntheticPull.run(scenario, key: try TestAPIKey(), subset: try requireSubset(), stall: StallPolicy(seconds: 2, bytes: 32))
        let result = try pull.result
        #expect(result.stoppedBy?.code == "IAPDOCTOR.STALLED", "\(String(describing: result.stoppedBy))")
        #expect(result.notSentCount > 0)
        #expect(result.text.contains("IAPDOCTOR.STALLED"))
    }

    @Test func pagesThatRepeatEndTheList() async throws {
        var scenario = SyntheticAppStoreConnect.Scenario()
        scenario.pagesRepeat = true
        scenario.validatesAnswers = false
        let pull = try await SyntheticPull.run(scenario, key: try TestAPIKey(), subset: try requireSubset())
        let result = try pull.result
        #expect(result.text.contains("IAPDOCTOR.PAGING_LOOP"))
        #expect(result.text.contains("leads to pages that repeat what came before"))
        // The app list asked for its first page and one repeat, not a hundred.
        let listPages = pull.api.requests.filter { $0.path == "/v1/apps" }
        #expect(listPages.count == 2, "\(listPages.count)")
    }
}
