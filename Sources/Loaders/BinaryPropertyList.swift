import Formats

/// A binary property list (`bplist00`, as a built app's Info.plist is), read by its own reader
/// into ``PlistValue``s that point at the file. Objects may be shared (two references to one
/// array): each value reached is counted as it is expanded, so a few hundred bytes of shared
/// references cannot become gigabytes of values; a reference back up the tree is refused by the
/// depth bound.
struct BinaryPropertyList {
    struct Problem: Error {
        var reason: String
    }

    /// At most this many values are expanded, and collections nest at most this deep.
    static let maxValues = 1_000_000
    static let maxDepth = 64

    private let bytes: [UInt8]
    private let here: SourceLocation
    private let objectRefSize: Int
    private let offsets: [Int]
    private var budget = maxValues

    /// Reads the whole list; `here` is every value's location.
    static func parse(_ bytes: [UInt8], at here: SourceLocation) throws(Problem) -> PlistValue {
        var reader = try BinaryPropertyList(bytes, at: here)
        return try reader.value(ofObject: reader.topObject, depth: 0)
    }

    private var topObject: Int

    private init(_ bytes: [UInt8], at here: SourceLocation) throws(Problem) {
        self.bytes = bytes
        self.here = here
        guard bytes.count >= 8 + 32, bytes.starts(with: Array("bplist0".utf8)) else {
            throw Problem(reason: "it is too short for a binary property list")
        }
        // The trailer: 6 unused bytes, the offset size, the reference size, then three 8-byte
        // numbers (objects, top object, where the offset table starts).
        let trailer = bytes.count - 32
        let offsetSize = Int(bytes[trailer + 6]), refSize = Int(bytes[trailer + 7])
        let count = Self.number(bytes, at: trailer + 8, size: 8)
        let top = Self.number(bytes, at: trailer + 16, size: 8)
        let tableStart = Self.number(bytes, at: trailer + 24, size: 8)
        guard (1...8).contains(offsetSize), (1...8).contains(refSize) else {
            throw Problem(reason: "its trailer gives offsets of \(offsetSize) and references of \(refSize) bytes; each is 1 to 8")
        }
        // Every object takes at least a byte, so there are fewer objects than bytes.
        guard let count, count >= 1, count < bytes.count, let top, top < count, let tableStart, tableStart >= 8,
              tableStart <= trailer, count <= (trailer - tableStart) / offsetSize
        else { throw Problem(reason: "its trailer's object count, top object or offset table does not fit the file") }
        var offsets: [Int] = []
        offsets.reserveCapacity(count)
        for index in 0..<count {
            guard let offset = Self.number(bytes, at: tableStart + index * offsetSize, size: offsetSize), offset >= 8, offset < tableStart else {
                throw Problem(reason: "object \(index)'s offset points outside the objects")
            }
            offsets.append(offset)
        }
        self.offsets = offsets
        objectRefSize = refSize
        topObject = top
    }

    /// A big-endian unsigned number of `size` bytes at `offset`; nil past the end or above `Int.max`.
    private static func number(_ bytes: [UInt8], at offset: Int, size: Int) -> Int? {
        guard offset >= 0, size <= 8, offset <= bytes.count - size else { return nil }
        var value: UInt64 = 0
        for byte in bytes[offset..<offset + size] { value = value << 8 | UInt64(byte) }
        return value <= UInt64(Int.max) ? Int(value) : nil
    }

    private mutating func value(ofObject object: Int, depth: Int) throws(Problem) -> PlistValue {
        budget -= 1
        guard budget >= 0 else { throw Problem(reason: "it holds more than \(Self.maxValues) values once its shared objects are expanded") }
        guard depth < Self.maxDepth else { throw Problem(reason: "it nests deeper than \(Self.maxDepth) levels (or refers back to itself)") }
        guard object >= 0, object < offsets.count else { throw Problem(reason: "a reference points at object \(object), past the last") }
        let start = offsets[object]
        let marker = bytes[start]
        let kind = marker >> 4, low = Int(marker & 0x0F)
        switch kind {
        case 0x0:
            switch marker {
            case 0x08: return .bool(false, here)
            case 0x09: return .bool(true, here)
            case 0x00: return .string("", here)
            default: throw Problem(reason: "object \(object) has the unknown marker 0x\(String(marker, radix: 16))")
            }
        case 0x1:
            // 1, 2 and 4 bytes unsigned, 8 signed, 16 of which the low 8 are kept.
            guard low <= 4 else { throw Problem(reason: "object \(object) is an integer of \(1 << low) bytes") }
            let size = 1 << low
            guard start + 1 + size <= bytes.count else { throw truncated(object) }
            let kept = min(size, 8)
            var raw: UInt64 = 0
            for byte in bytes[(start + 1 + size - kept)..<(start + 1 + size)] { raw = raw << 8 | UInt64(byte) }
            return .integer(size >= 8 ? Int(Int64(bitPattern: raw)) : Int(raw), here)
        case 0x2:
            guard low == 2 || low == 3 else { throw Problem(reason: "object \(object) is a real of \(1 << low) bytes") }
            let double = try real(at: start + 1, size: 1 << low, object: object)
            // As Foundation's numbers read: a whole real is a whole number.
            if double.rounded() == double, abs(double) < 9.0e15 { return .integer(Int(double), here) }
            return .real(double, here)
        case 0x3:
            guard marker == 0x33 else { throw Problem(reason: "object \(object) has the unknown marker 0x\(String(marker, radix: 16))") }
            let seconds = try real(at: start + 1, size: 8, object: object)
            // Seconds since 2001-01-01, the reference date.
            let since1970 = seconds + 978_307_200
            guard since1970.isFinite, abs(since1970) < 1.0e15 else { throw Problem(reason: "object \(object) is a date out of range") }
            return .date(Timestamp(secondsSince1970: Int64(since1970.rounded(.down))), here)
        case 0x4:
            _ = try extent(start: start, low: low, unit: 1, object: object)
            return .data(here)
        case 0x5, 0x6:
            let unit = kind == 0x5 ? 1 : 2
            let (first, end) = try extent(start: start, low: low, unit: unit, object: object)
            let slice = bytes[first..<end]
            if unit == 1 { return .string(String(decoding: slice, as: UTF8.self), here) }
            var units: [UInt16] = []
            units.reserveCapacity(slice.count / 2)
            var index = first
            while index < end {
                units.append(UInt16(bytes[index]) << 8 | UInt16(bytes[index + 1]))
                index += 2
            }
            return .string(String(decoding: units, as: UTF16.self), here)
        case 0x8:
            guard let uid = Self.number(bytes, at: start + 1, size: low + 1) else { throw truncated(object) }
            return .integer(uid, here)
        case 0xA, 0xC:
            let (first, end) = try extent(start: start, low: low, unit: objectRefSize, object: object)
            var values: [PlistValue] = []
            var index = first
            while index < end {
                values.append(try value(ofObject: try reference(at: index), depth: depth + 1))
                index += objectRefSize
            }
            return .array(values, here)
        case 0xD:
            let (first, end) = try extent(start: start, low: low, unit: objectRefSize * 2, object: object)
            let count = (end - first) / (objectRefSize * 2)
            var byKey: [String: PlistValue] = [:]
            for item in 0..<count {
                guard case .string(let key, _) = try value(ofObject: try reference(at: first + item * objectRefSize), depth: depth + 1) else {
                    throw Problem(reason: "a dictionary's key is not a string")
                }
                byKey[key] = try value(ofObject: try reference(at: first + (count + item) * objectRefSize), depth: depth + 1)
            }
            // Keys in order, as Foundation's unordered dictionaries were read.
            return .dictionary(byKey.keys.sorted().map { ($0, here, byKey[$0]!) }, here)
        default:
            throw Problem(reason: "object \(object) has the unknown marker 0x\(String(marker, radix: 16))")
        }
    }

    private func truncated(_ object: Int) -> Problem {
        Problem(reason: "object \(object) runs past the end of the file")
    }

    private func reference(at offset: Int) throws(Problem) -> Int {
        guard let object = Self.number(bytes, at: offset, size: objectRefSize) else { throw Problem(reason: "a reference runs past the end of the file") }
        return object
    }

    private func real(at offset: Int, size: Int, object: Int) throws(Problem) -> Double {
        guard offset <= bytes.count - size else { throw truncated(object) }
        let raw = bytes[offset..<offset + size].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return size == 4 ? Double(Float(bitPattern: UInt32(truncatingIfNeeded: raw))) : Double(bitPattern: raw)
    }

    /// Where the contents of a sized object (data, strings, arrays, dictionaries) start and end:
    /// its count is in the marker's low nibble, or, at 0xF, in the integer object after it.
    private func extent(start: Int, low: Int, unit: Int, object: Int) throws(Problem) -> (Int, Int) {
        var first = start + 1
        var count = low
        if low == 0x0F {
            guard first < bytes.count, bytes[first] >> 4 == 0x1, bytes[first] & 0x0F <= 3 else {
                throw Problem(reason: "object \(object)'s count is not an integer")
            }
            let size = 1 << Int(bytes[first] & 0x0F)
            guard let stated = Self.number(bytes, at: first + 1, size: size) else { throw truncated(object) }
            count = stated
            first += 1 + size
        }
        guard count <= (bytes.count - first) / unit else { throw truncated(object) }
        return (first, first + count * unit)
    }
}
