/// C#'s conditional compilation, read for the iOS build: `#if UNITY_ANDROID … #elif UNITY_IOS …
/// #else … #endif` keeps only the branch an iOS build compiles. A branch for another platform
/// (every symbol in its condition names one) is skipped, and so is every branch after the iOS
/// one; a condition that names something else (`DEBUG`, `UNITY_EDITOR && X`) keeps its branch,
/// as iapdoctor cannot tell whether it holds.
extension SourceScanner {
    struct SharpBranch {
        /// A branch of this block was taken for iOS: the rest are not compiled.
        var tookIOS = false
        /// The current branch is skipped.
        var skipping = false
        /// The block sits in a skipped branch: all of it is.
        var inSkipped = false
    }

    static let iOSSymbols: Set<String> = ["UNITY_IOS", "UNITY_IPHONE", "IOS", "__IOS__", "IPHONE", "UNITY_VISIONOS"]
    static let otherPlatformSymbols: Set<String> = [
        "UNITY_ANDROID", "ANDROID", "__ANDROID__", "UNITY_STANDALONE", "UNITY_STANDALONE_WIN", "UNITY_STANDALONE_OSX",
        "UNITY_STANDALONE_LINUX", "UNITY_WEBGL", "UNITY_WSA", "UNITY_TVOS", "UNITY_PS4", "UNITY_PS5", "UNITY_XBOXONE",
        "UNITY_SWITCH", "WINDOWS", "WINDOWS_UWP", "__MACOS__", "MACCATALYST", "__MACCATALYST__", "TIZEN", "UNITY_AMAZON",
    ]
}

extension SourceScanner.Lexer {
    /// One preprocessor line from `start` (at `#`): `#if`/`#elif`/`#else`/`#endif` move the branch
    /// state; in a skipped branch, the lines up to the next directive are passed over.
    mutating func cSharpDirective(from start: Int) {
        var end = start
        while end < bytes.count && bytes[end] != 0x0A { end += 1 }
        let text = String(decoding: bytes[(start + 1)..<end], as: UTF8.self)
        let words = text.split { !($0.isLetter || $0.isNumber || $0 == "_") }.map(String.init)
        let negated = text.contains("!")
        let symbols = words.dropFirst()
        let names = { (set: Set<String>) in symbols.contains { set.contains($0) } }
        let isIOS = !negated && names(SourceScanner.iOSSymbols)
        let isOther = !negated && !symbols.isEmpty && symbols.allSatisfy { SourceScanner.otherPlatformSymbols.contains($0) }
        position = end
        switch words.first {
        case "if":
            var branch = SourceScanner.SharpBranch()
            branch.inSkipped = sharpBranches.last.map { $0.skipping || $0.inSkipped } ?? false
            branch.tookIOS = isIOS
            branch.skipping = isOther
            sharpBranches.append(branch)
        case "elif":
            guard var branch = sharpBranches.popLast() else { break }
            branch.skipping = branch.tookIOS || isOther
            if !branch.tookIOS { branch.tookIOS = isIOS }
            sharpBranches.append(branch)
        case "else":
            guard var branch = sharpBranches.popLast() else { break }
            branch.skipping = branch.tookIOS
            sharpBranches.append(branch)
        case "endif":
            _ = sharpBranches.popLast()
        default:
            break
        }
        guard let branch = sharpBranches.last, branch.skipping || branch.inSkipped else { return }
        // Skipped: on to the next line that starts with `#` (counting lines), bounded by the file.
        while position < bytes.count {
            if bytes[position] == 0x0A {
                line += 1
                position += 1
                var k = position
                while k < bytes.count && (bytes[k] == 0x20 || bytes[k] == 0x09) { k += 1 }
                if k < bytes.count && bytes[k] == 0x23 {
                    position = k
                    atLineStart = true
                    return
                }
            } else {
                position += 1
            }
        }
    }
}
