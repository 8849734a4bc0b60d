import CameraCodecs
import Foundation
import FuzzDriver

runLibFuzzer(fuzzRadianceHDR)

/// One libFuzzer input: decodes arbitrary bytes as a Radiance `.hdr` file. A `CodecError` is
/// the expected answer to bad bytes; a crash, a sanitizer report, or an image whose samples do not
/// match its size or escape the sanitised range [0, 1e9] is a finding.
func fuzzRadianceHDR(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Data(UnsafeBufferPointer(start: data, count: size))
    guard let image = try? RadianceHDRDecoder().decode(bytes) else { return 0 }
    precondition(image.width > 0 && image.height > 0, "decoded an empty \(image.width)×\(image.height) image")
    precondition(image.samples.count == image.width * image.height * 3,
                 "\(image.samples.count) samples for \(image.width)×\(image.height) pixels")
    precondition(image.samples.allSatisfy { $0 >= 0 && $0 <= 1e9 }, "a sample escaped the sanitised range")
    return 0
}
