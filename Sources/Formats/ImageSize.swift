/// Pixel size of a PNG or JPEG, read from its header: enough to check a review screenshot without an
/// image library.
public struct ImageSize: Hashable, Sendable, CustomStringConvertible {
    public var width: Int
    public var height: Int
    public var format: String

    public var description: String { "\(width)×\(height)" }

    public init(width: Int, height: Int, format: String) {
        self.width = width
        self.height = height
        self.format = format
    }

    /// `nil` when the bytes are neither a PNG nor a JPEG with a frame header.
    public init?(bytes: [UInt8]) {
        if bytes.count >= 24, bytes[0..<8].elementsEqual([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]),
            bytes[12..<16].elementsEqual(Array("IHDR".utf8))
        {
            width = Int(bytes[16]) << 24 | Int(bytes[17]) << 16 | Int(bytes[18]) << 8 | Int(bytes[19])
            height = Int(bytes[20]) << 24 | Int(bytes[21]) << 16 | Int(bytes[22]) << 8 | Int(bytes[23])
            format = "PNG"
            return
        }
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        var index = 2
        while index + 9 < bytes.count {
            guard bytes[index] == 0xFF else { return nil }
            let marker = bytes[index + 1]
            if marker == 0xFF { index += 1; continue }
            if marker == 0xD8 || marker == 0x01 || (0xD0...0xD7).contains(marker) { index += 2; continue }
            let length = Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
            // Start-of-frame markers (baseline, progressive, …), not DHT/JPG/DAC.
            if (0xC0...0xCF).contains(marker), marker != 0xC4, marker != 0xC8, marker != 0xCC {
                height = Int(bytes[index + 5]) << 8 | Int(bytes[index + 6])
                width = Int(bytes[index + 7]) << 8 | Int(bytes[index + 8])
                format = "JPEG"
                return
            }
            if marker == 0xD9 || marker == 0xDA || length < 2 { return nil }
            index += 2 + length
        }
        return nil
    }
}
