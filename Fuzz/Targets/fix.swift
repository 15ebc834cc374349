// libFuzzer target `fix`: `Fixer.plan` on a file made of the input and one fix read from its first
// line (`LINE COLUMN WIDTH ORIGINAL REPLACEMENT`, tab-separated), then `Fixer.diff`. Invariants:
// planning never writes; a planned edit changes exactly one run of bytes, into the replacement,
// which is a product ID; no line is added or removed; the diff names the file.
import Foundation
import IAPDoctor

let folder: String = {
    let path = (FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()) + "/iapdoctor-fuzz-fix-\(getpid())"
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    guard let newline = input.firstIndex(of: 0x0A) else { return 0 }
    let fields = String(decoding: input[..<newline], as: UTF8.self).split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
    guard fields.count == 5, let line = Int(fields[0]), let column = Int(fields[1]), let width = Int(fields[2]),
          (1...10_000).contains(line), (1...10_000).contains(column), (0...1_000).contains(width) else { return 0 }
    let contents = Array(input[(newline + 1)...])
    let names = ["Store.swift", "store.dart", "store.ts", "Store.m", "project.yaml", "Store.cs"]
    let file = folder + "/" + names[Int(input.first ?? 0) % names.count]
    FileManager.default.createFile(atPath: file, contents: Data(contents))
    let location = SourceLocation(file: file, line: line, column: column, endLine: line, endColumn: column + width)
    var finding = Finding(rule: "short-product-id", severity: .error, checklist: nil, message: "m", location: location)
    finding.fix = Fix(location: location, original: fields[3], replacement: fields[4])
    let plan = Fixer.plan([finding], root: folder)
    precondition(FileManager.default.contents(atPath: file).map([UInt8].init) == contents, "planning wrote the file")
    precondition(plan.fixCount + plan.refused.count == 1, "a fix neither planned nor refused")
    guard let edit = plan.files.first else { return 0 }
    precondition(Fix.isSafeReplacement(fields[4]), "an edit to a replacement that is not a product ID")
    let before = edit.before, after = edit.after
    var prefix = 0
    while prefix < min(before.count, after.count), before[prefix] == after[prefix] { prefix += 1 }
    var suffix = 0
    while suffix < min(before.count, after.count) - prefix, before[before.count - 1 - suffix] == after[after.count - 1 - suffix] { suffix += 1 }
    let inserted = after[prefix..<(after.count - suffix)]
    let replacement = Array(fields[4].utf8)
    // The changed run is the replacement, give or take bytes it shares with what it replaced.
    precondition(inserted.allSatisfy(replacement.contains), "bytes outside the replacement changed")
    precondition(before.filter { $0 == 0x0A }.count == after.filter { $0 == 0x0A }.count, "lines added or removed")
    precondition(!Fixer.diff(plan).isEmpty, "an edit without a diff")
    return 0
}
