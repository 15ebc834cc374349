// libFuzzer target `snapshot`: an App Store Connect snapshot (JSON:API documents) read and its
// facts applied to a project: resources, relationships (repeated links once), failed requests,
// products and groups merged by ID. Beyond "no crash, no blow-up": a refused snapshot names a
// place in the file, and every product the facts add is positioned in it.
import IAPDoctor

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let snapshot: ASCSnapshot
    do {
        snapshot = try ASCSnapshot.load(text: text, file: "fuzz.json")
    } catch {
        precondition(error.finding.location?.file == "fuzz.json", "error not positioned in the file: \(error.finding.message)")
        return 0
    }
    _ = snapshot.repeatedLinks
    var project = Project(descriptorFile: "fuzz.yaml", baseDirectory: ".")
    project.app.bundleID = Fact("com.greenthumb.pocketgarden", at: SourceLocation(file: "fuzz.yaml", line: 1, column: 1))
    ASCFacts.apply(snapshot, namedAt: SourceLocation(file: "--asc"), to: &project)
    for product in project.products {
        if let id = product.productID { precondition(id.location.file == "fuzz.json", "product not positioned: \(id.location)") }
    }
    return 0
}
