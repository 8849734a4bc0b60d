/// What `repair` needs to know of a file it finds without a catalogue row: whether it is a whole
/// JPEG (starts with SOI, ends with EOI) and its dimensions from the frame header (SOF marker).
/// It walks the marker segments up to the scan; it does not decode the image. Public so that the
/// fuzz harness (Fuzz/) can feed it arbitrary bytes.
public struct JPEGStructure: Equatable, Sendable {
    public let width: Int
    public let height: Int

    /// The structure of `bytes`, or nil when they are not a complete JPEG with a frame header.
    public init?(_ bytes: [UInt8]) {
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8,
              bytes[bytes.count - 2] == 0xFF, bytes[bytes.count - 1] == 0xD9 else { return nil }
        var offset = 2
        while offset + 4 <= bytes.count {
            guard bytes[offset] == 0xFF else { return nil }
            let marker = bytes[offset + 1]
            if marker == 0xFF { offset += 1; continue }          // fill byte before a marker
            if (0xD0...0xD7).contains(marker) || marker == 0x01 { offset += 2; continue }  // no length
            if marker == 0xDA || marker == 0xD9 { return nil }   // scan or end before any frame header
            let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            guard length >= 2, offset + 2 + length <= bytes.count else { return nil }
            if Self.isFrameHeader(marker) {
                guard length >= 8 else { return nil }
                let height = Int(bytes[offset + 5]) << 8 | Int(bytes[offset + 6])
                let width = Int(bytes[offset + 7]) << 8 | Int(bytes[offset + 8])
                guard width > 0, height > 0 else { return nil }
                self.width = width
                self.height = height
                return
            }
            offset += 2 + length
        }
        return nil
    }

    /// SOF0…SOF15, less DHT (C4), JPG (C8) and DAC (CC), which share that range.
    private static func isFrameHeader(_ marker: UInt8) -> Bool {
        (0xC0...0xCF).contains(marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC
    }
}
