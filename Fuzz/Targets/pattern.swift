// libFuzzer target `pattern`: the linear-time matcher of `pattern` options (`LinearPattern`).
// Input: the first line is the pattern, the rest (newlines included) the value. Beyond "no crash":
// a pattern either compiles or is refused with an offset inside it; matching costs at most
// `maxStates` steps per character (never backtracking), and the byte path for ASCII values
// answers as the character path does.
import IAPDoctor

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    let newline = bytes.firstIndex(of: 0x0A) ?? size
    let source = String(decoding: UnsafeBufferPointer(rebasing: bytes[..<newline]), as: UTF8.self)
    let value = newline < size ? String(decoding: UnsafeBufferPointer(rebasing: bytes[(newline + 1)...]), as: UTF8.self) : ""
    let pattern: LinearPattern
    do throws(LinearPattern.Problem) {
        pattern = try LinearPattern(source)
    } catch {
        precondition(error.offset >= 0 && error.offset <= source.count, "problem offset \(error.offset) outside the pattern")
        precondition(!error.message.isEmpty, "problem without a message")
        return 0
    }
    var steps = 0
    let answer = pattern.wholeMatch(value, steps: &steps)
    precondition(steps <= LinearPattern.maxStates * (value.count + 1), "\(steps) steps for \(value.count) characters")
    var utf8 = Array(value.utf8)
    if utf8.allSatisfy({ $0 < 0x80 && $0 != 0x0D }) {
        let fast = utf8.withUnsafeMutableBufferPointer { pattern.wholeMatch(ascii: UnsafeBufferPointer($0)) }
        precondition(fast == answer, "byte path says \(fast), character path \(answer)")
    }
    return 0
}
