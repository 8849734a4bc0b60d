import CStbReference
import CameraCodecs
import Foundation
import FuzzDriver

runLibFuzzer(fuzzRadianceHDR)

/// One libFuzzer input: decodes arbitrary bytes as a Radiance `.hdr` file. A `CodecError` is the
/// expected answer to bad bytes. A crash, a sanitizer report, an image whose samples do not match
/// its size or escape the sanitised range [0, 1e9], or pixels other than stb_image reads from the
/// same file is a finding.
func fuzzRadianceHDR(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Data(UnsafeBufferPointer(start: data, count: size))
    guard let image = try? RadianceHDRDecoder().decode(bytes) else { return 0 }
    precondition(image.width > 0 && image.height > 0, "decoded an empty \(image.width)×\(image.height) image")
    precondition(image.samples.count == image.width * image.height * 3,
                 "\(image.samples.count) samples for \(image.width)×\(image.height) pixels")
    precondition(image.samples.allSatisfy { $0 >= 0 && $0 <= 1e9 }, "a sample escaped the sanitised range")
    if let stb = stbReading(of: bytes) {
        precondition(stb.width == image.width && stb.height == image.height,
                     "stb_image reads \(stb.width)×\(stb.height), the decoder \(image.width)×\(image.height)")
        for index in image.samples.indices where image.samples[index] != min(stb.samples[index], 1e9) {
            preconditionFailure("sample \(index): stb_image reads \(stb.samples[index]), the decoder \(image.samples[index])")
        }
    }
    return 0
}

/// stb_image's reading of `bytes`, when it reads them and its reading is comparable. stb ends header
/// lines at "\n" only, so a header with "\r" in it (which the decoder accepts) is left out; stb also
/// reads files the decoder refuses (it pads truncated ones), so only a shared reading is compared.
private func stbReading(of bytes: Data) -> (width: Int, height: Int, samples: [Float])? {
    let headerEnd = bytes.firstRange(of: [0x0A, 0x0A])?.lowerBound ?? bytes.endIndex
    guard !bytes[..<headerEnd].contains(0x0D) else { return nil }
    var width: CInt = 0
    var height: CInt = 0
    let pixels = bytes.withUnsafeBytes { stb_reference_load_hdr($0.baseAddress, CInt($0.count), &width, &height) }
    guard let pixels else { return nil }
    defer { stb_reference_free(pixels) }
    return (Int(width), Int(height), Array(UnsafeBufferPointer(start: pixels, count: Int(width) * Int(height) * 3)))
}
