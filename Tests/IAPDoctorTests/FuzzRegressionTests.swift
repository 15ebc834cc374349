import Foundation
import IAPDoctor
import JSONReader
import Testing
import XMLReader

/// Inputs found by fuzzing (`scripts/fuzz.sh`, FUZZING.md), minimized and written inline. Each one
/// crashed or hung a reader; each must now end in a positioned error or a result, quickly.
///
/// No test times anything (speed is measured by scripts/bench.py): the inputs are sized so the
/// quadratic and exponential versions run for many minutes, far past the suite's time limit, while
/// the fixed code needs well under a second; the time limit only stops a regressed run.
@Suite("Fuzz regressions", .timeLimit(.minutes(1))) struct FuzzRegressionTests {

    // MARK: storekit-1: an unpaired high surrogate escape traps the JSON parser

    /// The JSON string decoder: `\uD800` followed by `\u0000` is taken for a surrogate pair and
    /// `low - 0xDC00` underflows (UInt32): "arithmetic overflow" in every `.storekit` file and JSON
    /// product ID list that contains it. Found by the `storekit` target after 33,620 executions.
    @Test
    func highSurrogateFollowedByNonLowSurrogateEscape() {
        for text in [#""\ud800\u0000""#, #""\udbff\u0041""#, #"{"products":[{"productID":"\uD83D\uD83D"}]}"#] {
            do {
                let value = try JSONNode.parse(bytes: Array(text.utf8), file: "Products.storekit")
                // Accepting it is fine too, as long as the unpaired surrogate is not a crash.
                #expect(value.string?.unicodeScalars.contains("\u{FFFD}") ?? true)
            } catch {
                #expect(error.location.file == "Products.storekit")
                #expect(error.location.line == 1)
                #expect(error.location.column >= 1)
            }
        }
    }

    /// The same input as a whole `.storekit` file, through the path the CLI takes.
    @Test
    func storeKitFileWithUnpairedSurrogate() throws {
        let path = NSTemporaryDirectory() + "fuzz-storekit-1-\(getpid()).storekit"
        try Data(#"{"products":[{"productID":"com.example.\ud800\u0000","type":"Consumable"}]}"#.utf8)
            .write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        do {
            let configuration = try StoreKitConfiguration.load(path: path)
            #expect(configuration.products.count == 1)
        } catch {
            #expect(error.finding.location?.file == path)
            #expect(error.finding.location?.line == 1)
        }
    }

    /// What the fix must keep: a real pair decodes, a lone low surrogate becomes U+FFFD.
    @Test func surrogatePairsStillDecode() throws {
        let pair = try JSONNode.parse(bytes: Array(#""\ud83d\ude00""#.utf8), file: "a.json")
        #expect(pair.string == "😀")
        let lone = try JSONNode.parse(bytes: Array(#""\udc00x""#.utf8), file: "a.json")
        #expect(lone.string == "\u{FFFD}x")
    }

    // MARK: storekit-2: a JSON document on one line costs quadratic time

    /// The JSON reader counted the column from the start of the line for every value, so a
    /// minified `.storekit` file or JSON product ID list (one line; 64 MiB and 16 MiB are allowed)
    /// costs O(n²): a 64 KB line took 95 s in the fuzz build, a 450 KB minified `.storekit` with
    /// 3,000 products did not finish `iapdoctor check` in 5 minutes (pretty-printed: 25 s).
    @Test
    func longSingleLineIsLinear() throws {
        let text = "[" + Array(repeating: "0", count: 200_000).joined(separator: ",") + "]"
        let value = try JSONNode.parse(bytes: Array(text.utf8), file: "ids.json")
        #expect(value.elements.count == 200_000)
        #expect(value.elements.last?.location.column == text.utf8.count - 1)
    }

    // MARK: xml-2: the dictionary view is quadratic in distinct names

    /// `XMLDictionary.append` finds an existing key with a linear search, so an element with n
    /// distinct child or attribute names costs O(n²): 9,000 children (70 KB) took 12 s in the fuzz
    /// build; 90,000 (1 MB) took 56 s in a release build, against 0.7 s for the tree itself.
    @Test
    func manyDistinctChildrenAreLinear() throws {
        let text = "<r>" + (0..<60_000).map { "<a\($0)/>" }.joined() + "</r>"
        let root = try XMLReader.parse(string: text)
        let value = root.dictionaryValue()
        #expect(value["r"]?.dictionaryValue?.count == 60_000)
    }

    // MARK: pbxproj-1: build-setting expansion is exponential in nesting

    /// `VariableExpander` (XcodeProject.swift) re-expands a setting at every reference: ten levels
    /// of settings that each name the next eight times resolve 8^10 ≈ 10^9 references. Its output
    /// budget never runs out because the last setting is empty, so `bundleIdentifier` (and every
    /// rule that reads `PRODUCT_BUNDLE_IDENTIFIER`) never returns for this 1 KB project file.
    /// Found by hand while writing the `pbxproj` target (libFuzzer then reports it as a timeout).
    @Test
    func nestedSettingReferencesDoNotExplode() throws {
        let text = """
            // !$*UTF8*$!
            { objects = {
             P = {isa = PBXProject; buildConfigurationList = L; targets = (T); mainGroup = G;};
             G = {isa = PBXGroup; children = ();};
             T = {isa = PBXNativeTarget; name = App; productType = "com.apple.product-type.application"; buildConfigurationList = L2;};
             L = {isa = XCConfigurationList; buildConfigurations = (C);};
             L2 = {isa = XCConfigurationList; buildConfigurations = (C2);};
             C = {isa = XCBuildConfiguration; name = Release; buildSettings = {};};
             C2 = {isa = XCBuildConfiguration; name = Release; buildSettings = {
              V0 = "$(V1)$(V1)$(V1)$(V1)$(V1)$(V1)$(V1)$(V1)";
              V1 = "$(V2)$(V2)$(V2)$(V2)$(V2)$(V2)$(V2)$(V2)";
              V2 = "$(V3)$(V3)$(V3)$(V3)$(V3)$(V3)$(V3)$(V3)";
              V3 = "$(V4)$(V4)$(V4)$(V4)$(V4)$(V4)$(V4)$(V4)";
              V4 = "$(V5)$(V5)$(V5)$(V5)$(V5)$(V5)$(V5)$(V5)";
              V5 = "$(V6)$(V6)$(V6)$(V6)$(V6)$(V6)$(V6)$(V6)";
              V6 = "$(V7)$(V7)$(V7)$(V7)$(V7)$(V7)$(V7)$(V7)";
              V7 = "$(V8)$(V8)$(V8)$(V8)$(V8)$(V8)$(V8)$(V8)";
              V8 = "$(V9)$(V9)$(V9)$(V9)$(V9)$(V9)$(V9)$(V9)";
              V9 = "$(E)$(E)$(E)$(E)$(E)$(E)$(E)$(E)";
              E = "";
              PRODUCT_BUNDLE_IDENTIFIER = "com.example.$(V0)";
             };};
            }; rootObject = P; }
            """
        let project = try XcodeProject.parse(text: text, file: "Bomb.xcodeproj/project.pbxproj")
        let target = try #require(project.targets.first)
        let identifier = project.bundleIdentifier(target: target, configuration: "Release")
        #expect(identifier?.location.file == "Bomb.xcodeproj/project.pbxproj")
        #expect(identifier?.value.hasPrefix("com.example.") == true)
    }

    /// The same amplification through a setting that names itself (each level is the same setting).
    @Test
    func selfReferenceDoesNotExplode() {
        let settings = ["A": "$(A)$(A)$(A)$(A)$(A)$(A)$(A)$(A)", "B": "x$(A)"]
        let value = XcodeProject.expandVariables("$(B)", with: settings)
        #expect(value.hasPrefix("x"))
    }

    /// What the fix must keep: ordinary nesting, modifiers and defaults still expand.
    @Test func ordinaryNestingStillExpands() {
        let settings = [
            "BASE": "com.example", "NAME": "Run Monster", "PRODUCT_NAME": "$(NAME)",
            "PRODUCT_BUNDLE_IDENTIFIER": "$(BASE).$(PRODUCT_NAME:rfc1034identifier:lower).$(SUFFIX:default=app)",
        ]
        let value = XcodeProject.expandVariables("$(PRODUCT_BUNDLE_IDENTIFIER)", with: settings)
        #expect(value == "com.example.run-monster.app")
    }
}
