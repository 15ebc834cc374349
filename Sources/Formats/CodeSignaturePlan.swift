extension CodeSignature {
    /// What to keep of an executable that streams by once (inside an `.ipa`): asked again as the
    /// bytes arrive, it names every range `read` will ask for that the bytes held so far let it
    /// know, each bounded: each image's header, then its load commands (the size the header
    /// states), then its signature's header and index, then each entitlements blob's header,
    /// then its contents; and the string constants `read` reads. A signature is never wanted
    /// whole: only the pieces read.
    public final class ReadPlan {
        /// Each image's layout, by its start, once its load commands were held.
        private var layouts: [Int: Layout] = [:]

        public init() {}

        /// The ranges known so far, from what `source` holds (a range it names may not be held yet).
        public func ranges(_ source: some Source, file: String) -> [Range<Int>] {
            guard let images = try? CodeSignature.images(source, file: file) else { return [] }
            var ranges: [Range<Int>] = []
            // A universal binary's header and architecture table.
            if let magic = source.bytes(at: 0, count: 4), magic == [0xCA, 0xFE, 0xBA, 0xBE] || magic == [0xCA, 0xFE, 0xBA, 0xBF] {
                ranges.append(0..<min(source.count, 8 + images.count * (magic[3] == 0xBF ? 32 : 20)))
            }
            var stringsPlanned = false
            var earlierUnknown = false
            for image in images {
                let base = image.lowerBound
                ranges.append(base..<base + min(image.count, 32))
                guard let layout = layout(source, image, file: file, ranges: &ranges) else {
                    earlierUnknown = true
                    continue
                }
                if let signature = layout.signature { ranges += signatureRanges(source, signature) }
                // `read` reads the first image's strings that has a section: known only once
                // every image before it is.
                if let strings = layout.strings, !stringsPlanned, !earlierUnknown { ranges.append(strings) }
                stringsPlanned = stringsPlanned || layout.strings != nil
            }
            return ranges
        }

        /// The image's layout once its header and load commands are held; until then, the
        /// commands' range (from the header) joins `ranges`.
        private func layout(_ source: some Source, _ image: Range<Int>, file: String, ranges: inout [Range<Int>]) -> Layout? {
            if let known = layouts[image.lowerBound] { return known }
            guard let header = source.bytes(at: image.lowerBound, count: min(image.count, 32)), header.count >= 28 else { return nil }
            let magic = readUInt32(header, 0, bigEndian: false)
            guard [0xFEED_FACF, 0xFEED_FACE, 0xCFFA_EDFE, 0xCEFA_EDFE].contains(magic) else { return nil }
            let is64 = magic == 0xFEED_FACF || magic == 0xCFFA_EDFE
            let bigEndian = magic == 0xCFFA_EDFE || magic == 0xCEFA_EDFE
            let headerSize = is64 ? 32 : 28
            let commandBytes = min(Int(readUInt32(header, 20, bigEndian: bigEndian)), maxLoadCommandBytes, image.count - headerSize)
            if commandBytes > 0 { ranges.append(image.lowerBound + headerSize..<image.lowerBound + headerSize + commandBytes) }
            guard let layout = try? CodeSignature.layout(source, at: image.lowerBound, size: image.count, file: file) else { return nil }
            layouts[image.lowerBound] = layout
            return layout
        }

        /// The pieces of the signature at `range` that `read` reads, as far as they are known.
        private func signatureRanges(_ source: some Source, _ range: Range<Int>) -> [Range<Int>] {
            let start = range.lowerBound
            var ranges = [start..<start + min(range.count, 12 + maxBlobs * 8)]
            guard range.count >= 12, let header = source.bytes(at: start, count: 12), readUInt32(header, 0, bigEndian: true) == 0xFADE_0CC0 else {
                return ranges
            }
            let length = min(Int(readUInt32(header, 4, bigEndian: true)), range.count)
            let count = Int(readUInt32(header, 8, bigEndian: true))
            guard count <= maxBlobs, 12 + count * 8 <= length, let index = source.bytes(at: start + 12, count: count * 8) else { return ranges }
            for entry in 0..<count {
                let type = readUInt32(index, entry * 8, bigEndian: true)
                let offset = Int(readUInt32(index, entry * 8 + 4, bigEndian: true))
                guard type == 5 || type == 7, offset >= 12 + count * 8, offset + 8 <= length else { continue }
                ranges.append(start + offset..<start + offset + 8)
                guard type == 5, let blob = source.bytes(at: start + offset, count: 8) else { continue }
                let blobLength = Int(readUInt32(blob, 4, bigEndian: true))
                guard blobLength >= 8, blobLength <= length - offset, blobLength - 8 <= maxEntitlementsBytes else { continue }
                ranges.append(start + offset + 8..<start + offset + blobLength)
            }
            return ranges
        }
    }
}
