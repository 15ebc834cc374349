// libFuzzer target `storekit`: the JSON reader and the `.storekit` model built on it.
// StoreKitConfiguration only loads from a path, so input the JSON layer accepts is written to one
// temporary file (reused for the whole run) and loaded from there. Build and run with scripts/fuzz.sh.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import IAPDoctor
import JSONReader

nonisolated(unsafe) private var scratchPath: String = {
    let directory = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp"
    return "\(directory)/iapdoctor-fuzz-storekit-\(getpid()).storekit"
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let root: JSONNode
    do {
        root = try JSONNode.parse(bytes: bytes, file: "fuzz.storekit")
    } catch {
        precondition(error.location.line >= 1, "JSON error without a line: \(error.location)")
        return 0
    }
    _ = root.location
    guard root.kind == .object else { return 0 }

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

