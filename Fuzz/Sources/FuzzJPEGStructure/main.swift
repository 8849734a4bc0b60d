import FuzzDriver
import PhotoLibrary

runLibFuzzer(fuzzJPEGStructure)

/// One libFuzzer input: scans arbitrary bytes as `library repair` scans a file it finds without
/// a catalogue row. nil is the expected answer to bad bytes; a structure must come from a file that
/// starts with SOI and ends with EOI, with dimensions a frame header can hold (1…65535).
func fuzzJPEGStructure(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let jpeg = JPEGStructure(bytes) else { return 0 }
    precondition(bytes.starts(with: [0xFF, 0xD8]) && bytes.suffix(2) == [0xFF, 0xD9], "a structure without SOI … EOI")
    precondition((1...65535).contains(jpeg.width) && (1...65535).contains(jpeg.height), "dimensions \(jpeg.width)×\(jpeg.height)")
    return 0
}
