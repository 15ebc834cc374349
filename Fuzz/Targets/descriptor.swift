// libFuzzer target `descriptor`: the YAML project descriptor (Yams compose → YAMLTree → Project).
// Build and run with scripts/fuzz.sh. Beyond "no crash": an unusable descriptor always carries a
// problem, and every problem is positioned in the descriptor file.
import IAPDoctor

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let result = DescriptorLoader.load(bytes: bytes, file: "fuzz.yaml")
    if result.isUnusable {
        precondition(!result.problems.isEmpty, "unusable descriptor without a problem")
    }
    for problem in result.problems {
        precondition(problem.location?.file == "fuzz.yaml", "problem not positioned in the descriptor: \(String(describing: problem.location))")
        _ = problem.message
    }
    _ = result.hasErrors
    return 0
}
