// libFuzzer target `storekit`: the positioned JSON parser and the `.storekit` model built on it.
// StoreKitConfiguration only loads from a path, so input the JSON layer accepts is written to one
// temporary file (reused for the whole run) and loaded from there. Build and run with scripts/fuzz.sh.
import Glibc
import IAPDoctor

nonisolated(unsafe) private var scratchPath: String = {
    let directory = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp"
    return "\(directory)/iapdoctor-fuzz-storekit-\(getpid()).storekit"
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    // Open finding (FUZZING.md, storekit-1): a high surrogate escape followed by a `\u` escape
    // below U+DC00 traps in JSONParser.parseString. Skip such inputs so the run goes on looking
    // for other faults; remove once the parser is fixed.
    if skipKnownFindings, hasUnpairedSurrogateEscape(bytes) { return 0 }
    let root: JSONValue
    do {
        root = try JSONParser.parse(bytes: bytes, file: "fuzz.storekit")
    } catch {
        precondition(error.location.line >= 1, "JSON error without a line: \(error.location)")
        return 0
    }
    _ = root.location
    guard case .object = root else { return 0 }

    let fd = open(scratchPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    precondition(fd >= 0, "cannot write \(scratchPath)")
    var written = 0
    while written < size {
        let n = write(fd, data + written, size - written)
        precondition(n > 0, "cannot write \(scratchPath)")
        written += n
    }
    close(fd)
    do {
        let configuration = try StoreKitConfiguration.load(path: scratchPath)
        _ = configuration.productIDs
        for product in configuration.products {
            _ = product.localizations.count
            if let group = product.group { precondition(configuration.groups.indices.contains(group)) }
        }
    } catch {
        _ = error.finding.message
    }
    return 0
}

/// `IAPDOCTOR_FUZZ_SKIP_KNOWN=0` turns the guards for open findings off (to confirm a fix).
nonisolated(unsafe) let skipKnownFindings: Bool = {
    guard let value = getenv("IAPDOCTOR_FUZZ_SKIP_KNOWN") else { return true }
    return String(cString: value) != "0"
}()

/// `\uD800`–`\uDBFF` directly followed by `\u` and four hex digits below `DC00`.
func hasUnpairedSurrogateEscape(_ bytes: [UInt8]) -> Bool {
    func hex4(at i: Int) -> UInt32? {
        guard i + 6 <= bytes.count, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u") else { return nil }
        var value: UInt32 = 0
        for byte in bytes[(i + 2)..<(i + 6)] {
            guard let digit = UInt32(String(UnicodeScalar(byte)), radix: 16) else { return nil }
            value = value * 16 + digit
        }
        return value
    }
    var i = 0
    while i + 12 <= bytes.count {
        if let high = hex4(at: i), (0xD800...0xDBFF).contains(high), let low = hex4(at: i + 6), low < 0xDC00 { return true }
        i += 1
    }
    return false
}
