// Times the XML reader on one file, for scripts/bench-reader.sh. Not part of the tool.
// usage: xmlreader-bench FILE [tree|stream] [ITEM_DEPTH]
import XMLReader

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
    Bench.fail("usage: xmlreader-bench FILE [tree|stream] [ITEM_DEPTH]")
}
let path = arguments[1]
let mode = arguments.count > 2 ? arguments[2] : "tree"
let itemDepth = arguments.count > 3 ? Int(arguments[3]) ?? 5 : 5

enum Bench {
    static func fail(_ message: String) -> Never {
        print(message)
        exit(2)
    }
}

do {
    var elements = 0
    if mode == "stream" {
        var items = 0
        _ = try XMLReader.stream(contentsOfFile: path, itemDepth: itemDepth) { item, _ in
            items += 1
            item.forEachDescendant { _ in elements += 1 }
        }
        print("items: \(items), elements in items: \(elements)")
    } else {
        let root = try XMLReader.parse(contentsOfFile: path)
        root.forEachDescendant { _ in elements += 1 }
        print("elements: \(elements)")
    }
} catch {
    Bench.fail("\(error)")
}
