import CameraCore

/// Decodes a processed 8-bit frame (bgra8, nv12, yuyv422, gray8) to linear Rec. 709: each pixel's
/// R'G'B' through `PixelReader` (BT.709 Y'CbCr → R'G'B' for the YCbCr formats), then the sRGB
/// decode by table. The camera has already white-balanced it; its clip level is 1.
enum ProcessedFrameDecoder {
    static func decode(_ buffer: PixelBuffer, into image: inout LinearImage) {
        image.resize(width: buffer.width, height: buffer.height)
        (image.clipLevel, image.headroom) = (1, 1)
        switch buffer.format {
        case .bgra8: decode(BGRAReader(buffer), into: &image)
        case .gray8: decode(GrayReader(buffer), into: &image)
        case .nv12(.video): decode(NV12Reader<VideoRange>(buffer), into: &image)
        case .nv12(.full): decode(NV12Reader<FullRange>(buffer), into: &image)
        case .yuyv422: decode(YUYVReader(buffer), into: &image)
        case .bayer16: preconditionFailure("a Bayer mosaic is developed by BayerDeveloper")
        }
        image.fillPadding()
    }

    /// One specialised loop per reader type.
    private static func decode<Reader: PixelReader>(_ reader: Reader, into image: inout LinearImage) {
        let (width, height) = (image.width, image.height)
        SRGB.linearOf8Bit.withUnsafeBufferPointer { linear in
            image.withMutablePlanes { planes in
                for y in 0..<height {
                    let row = y &* planes.stride
                    for x in 0..<width {
                        let pixel = reader.pixel(x: x, y: y)
                        planes.red[row &+ x] = linear[Int(pixel.red)]
                        planes.green[row &+ x] = linear[Int(pixel.green)]
                        planes.blue[row &+ x] = linear[Int(pixel.blue)]
                    }
                }
            }
        }
    }
}
