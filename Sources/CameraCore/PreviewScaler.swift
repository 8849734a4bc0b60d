/// Shrinks frames into small bgra8 images for viewers, so a preview costs a fraction of the full
/// frame's bandwidth and the viewer needs no colour conversion.
///
/// Each destination pixel is the area-weighted mean (box filter) of the source pixels it covers,
/// computed on the encoded samples with 12-bit fixed-point weights. Y'CbCr sources are averaged
/// before the BT.709 conversion, which gives the same result as converting first except where a
/// colour lies outside the RGB gamut, and converts each destination pixel once instead of each
/// source pixel.
public enum PreviewScaler {
    /// The largest size with `source`'s aspect ratio that fits within `bound`, never larger than
    /// `source`, with even dimensions (as video encoders need) of at least 2.
    public static func fittedSize(_ source: PixelSize, within bound: PixelSize) -> PixelSize {
        var width = source.width, height = source.height
        if width > bound.width || height > bound.height {
            if source.width * bound.height >= source.height * bound.width {
                width = bound.width
                height = (source.height * bound.width + source.width / 2) / source.width
            } else {
                height = bound.height
                width = (source.width * bound.height + source.height / 2) / source.height
            }
        }
        return PixelSize(width: max(width & ~1, 2), height: max(height & ~1, 2))
    }

    /// A new bgra8 image of `source` scaled to `fittedSize(_:within:)` of `bound`.
    public static func scaled(_ source: PixelBuffer, within bound: PixelSize) throws(PixelBufferError) -> PixelBuffer {
        let size = fittedSize(PixelSize(width: source.width, height: source.height), within: bound)
        let destination = try PixelBuffer(format: .bgra8, width: size.width, height: size.height)
        scale(source, into: destination)
        return destination
    }

    /// Fills `destination` (bgra8, any size, typically from a `BufferPool` sized by `fittedSize`)
    /// with `source` scaled to its size; alpha is opaque. Every `PixelFormat` is accepted: Y'CbCr
    /// converts with BT.709 as `rgb8()` does, and bayer16 takes each 2×2 cell's red, mean green and
    /// blue scaled linearly to 8 bits, without white balance.
    public static func scale(_ source: PixelBuffer, into destination: PixelBuffer) {
        precondition(destination.format == .bgra8,
                     "the preview scaler writes bgra8, not \(destination.format) — allocate the destination as bgra8")
        let height = destination.height
        switch source.format {
        case .bgra8 where source.width == 2 * destination.width && source.height == 2 * destination.height:
            halve(source, into: destination)
        case .bgra8:
            scaleBGRA(source, into: destination)
        case .gray8:
            let luma = SourceRows<UInt8>(source, plane: 0, destinationHeight: height)
            write(into: destination, rows: [luma], channels: [(0, 0, 1)], colour: GrayColor())
        case .nv12(let range) where source.width == 2 * destination.width && source.height == 2 * destination.height:
            halve(nv12: source, range: range, into: destination)
        case .nv12(let range):
            let luma = SourceRows<UInt8>(source, plane: 0, destinationHeight: height)
            let chroma = SourceRows<UInt8>(source, plane: 1, destinationHeight: height)
            write(into: destination, rows: [luma, chroma], channels: [(0, 0, 1), (1, 0, 2), (1, 1, 2)],
                  colour: YCbCrColor(range: range))
        case .yuyv422:
            let packed = SourceRows<UInt8>(source, plane: 0, destinationHeight: height)
            write(into: destination, rows: [packed], channels: [(0, 0, 2), (0, 1, 4), (0, 3, 4)],
                  colour: YCbCrColor(range: .video))
        case .bayer16(let pattern, let bits):
            // Rows of red and green sites, and rows of green and blue; red and blue diagonal.
            let (red, other) = (pattern.redSite.x, 1 - pattern.redSite.x)
            let rows = [pattern.redSite.y, 1 - pattern.redSite.y].map {
                SourceRows<UInt16>(source, plane: 0, destinationHeight: height, firstRow: $0, step: 2)
            }
            write(into: destination, rows: rows, channels: [(0, red, 2), (0, other, 2), (1, red, 2), (1, other, 2)],
                  colour: BayerColor(maximum: (1 << bits) - 1))
        }
    }

    /// bgra8 to half its width and height, the common 1080p → 540p preview: each pixel the rounded
    /// mean of its 2×2 block, as the box filter gives it (its 12-bit weights are exact halves),
    /// without the general filter's taps — rows summed in pairs of 16-bit lanes, then neighbours.
    private static func halve(_ source: PixelBuffer, into destination: PixelBuffer) {
        let width = destination.width, sourceStride = source.planes[0].bytesPerRow, stride = destination.planes[0].bytesPerRow
        let input = UnsafePointer(source.baseAddress(plane: 0).assumingMemoryBound(to: UInt8.self))
        let output = destination.baseAddress(plane: 0).assumingMemoryBound(to: UInt8.self)
        let pairs = UnsafeMutablePointer<UInt16>.allocate(capacity: 8 * width)
        defer { pairs.deallocate() }
        for y in 0..<destination.height {
            let top = input + 2 * y * sourceStride, bottom = top + sourceStride
            for index in 0..<(8 * width) {
                pairs[index] = UInt16(top[index]) &+ UInt16(bottom[index])
            }
            let line = output + y * stride
            for x in 0..<width {
                let left = pairs + 8 * x
                for channel in 0..<3 {
                    line[4 * x + channel] = UInt8(truncatingIfNeeded: (left[channel] &+ left[4 + channel] &+ 2) >> 2)
                }
                line[4 * x + 3] = 255
            }
        }
    }

    /// nv12 to half its width and height, a raw stream's 1080p picture → the 540p preview: each
    /// pixel's Y' the rounded mean of its 2×2 block, as in `halve(_:into:)`, and its Cb Cr the
    /// chroma sample that block already shares — what the general filter gives, without its taps.
    private static func halve(nv12 source: PixelBuffer, range: YCbCrRange, into destination: PixelBuffer) {
        let width = destination.width, stride = destination.planes[0].bytesPerRow
        let (lumaStride, chromaStride) = (source.planes[0].bytesPerRow, source.planes[1].bytesPerRow)
        let luma = UnsafePointer(source.baseAddress(plane: 0).assumingMemoryBound(to: UInt8.self))
        let chroma = UnsafePointer(source.baseAddress(plane: 1).assumingMemoryBound(to: UInt8.self))
        let output = destination.baseAddress(plane: 0).assumingMemoryBound(to: UInt8.self)
        for y in 0..<destination.height {
            let top = luma + 2 * y * lumaStride, bottom = top + lumaStride, samples = chroma + y * chromaStride
            let line = output + y * stride
            for x in 0..<width {
                let sum = UInt16(top[2 * x]) &+ UInt16(top[2 * x + 1]) &+ UInt16(bottom[2 * x]) &+ UInt16(bottom[2 * x + 1])
                let pixel = BT709.decode(y: UInt8(truncatingIfNeeded: (sum &+ 2) >> 2), cb: samples[2 * x], cr: samples[2 * x + 1],
                                         range: range)
                line[4 * x] = pixel.blue
                line[4 * x + 1] = pixel.green
                line[4 * x + 2] = pixel.red
                line[4 * x + 3] = 255
            }
        }
    }

    /// bgra8 at any ratio, the viewfinder's 1280 → 960: filtered down the columns as every format
    /// is, then along the row a pixel's four channels at once (`BoxWeights.filterPixels`).
    private static func scaleBGRA(_ source: PixelBuffer, into destination: PixelBuffer) {
        let rows = SourceRows<UInt8>(source, plane: 0, destinationHeight: destination.height)
        let columns = BoxWeights(source: source.width, destination: destination.width, offset: 0, stride: 4)
        let sums = UnsafeMutablePointer<UInt32>.allocate(capacity: rows.length + columns.padding)
        defer { sums.deallocate() }
        (sums + rows.length).initialize(repeating: 0, count: columns.padding)
        let stride = destination.planes[0].bytesPerRow
        let output = destination.baseAddress(plane: 0).assumingMemoryBound(to: UInt8.self)
        for y in 0..<destination.height {
            rows.filterColumns(row: y, into: sums)
            columns.filterPixels(sums, into: output + y * stride)
        }
    }

    /// Writes each destination row: filters the source rows down the columns, each channel along
    /// the row, then `colour` turns the channels' means into a colour.
    ///
    /// A channel is every `stride`-th sample from `offset` in the rows `rows[index]`.
    private static func write<Sample, Colour: ChannelColor>(
        into destination: PixelBuffer, rows: [SourceRows<Sample>], channels: [(index: Int, offset: Int, stride: Int)],
        colour: Colour
    ) {
        let width = destination.width
        let columnWeights = channels.map { channel in
            BoxWeights(source: rows[channel.index].length / channel.stride, destination: width,
                       offset: channel.offset, stride: channel.stride)
        }
        let padding = columnWeights.map(\.padding).max() ?? 0
        let sums = rows.map { UnsafeMutablePointer<UInt32>.allocate(capacity: $0.length + padding) }
        for (source, sum) in zip(rows, sums) {
            (sum + source.length).initialize(repeating: 0, count: padding)
        }
        // Channel c's mean at column x is means[c × width + x].
        let means = UnsafeMutablePointer<UInt16>.allocate(capacity: channels.count * width)
        defer {
            for pointer in sums { pointer.deallocate() }
            means.deallocate()
        }
        let bytesPerRow = destination.planes[0].bytesPerRow
        let output = destination.baseAddress(plane: 0).assumingMemoryBound(to: UInt8.self)
        for y in 0..<destination.height {
            for (source, sum) in zip(rows, sums) {
                source.filterColumns(row: y, into: sum)
            }
            for (index, channel) in channels.enumerated() {
                columnWeights[index].filterRow(sums[channel.index], into: means + index * width)
            }
            let line = output + y * bytesPerRow
            for x in 0..<width {
                let pixel = colour.colour(means + x, channelStride: width)
                line[4 * x] = pixel.blue
                line[4 * x + 1] = pixel.green
                line[4 * x + 2] = pixel.red
                line[4 * x + 3] = 255
            }
        }
    }
}

/// Turns one destination pixel's channel means into an 8-bit colour.
private protocol ChannelColor {
    /// The colour of the means `pixel[0]`, `pixel[channelStride]`, `pixel[2 × channelStride]`, ….
    func colour(_ pixel: UnsafePointer<UInt16>, channelStride: Int) -> (red: UInt8, green: UInt8, blue: UInt8)
}

/// One luma channel.
private struct GrayColor: ChannelColor {
    func colour(_ pixel: UnsafePointer<UInt16>, channelStride: Int) -> (red: UInt8, green: UInt8, blue: UInt8) {
        let value = UInt8(truncatingIfNeeded: pixel[0])
        return (value, value, value)
    }
}

/// Channels Y', Cb, Cr.
private struct YCbCrColor: ChannelColor {
    let range: YCbCrRange

    func colour(_ pixel: UnsafePointer<UInt16>, channelStride: Int) -> (red: UInt8, green: UInt8, blue: UInt8) {
        BT709.decode(y: UInt8(truncatingIfNeeded: pixel[0]), cb: UInt8(truncatingIfNeeded: pixel[channelStride]),
                     cr: UInt8(truncatingIfNeeded: pixel[2 * channelStride]), range: range)
    }
}

/// Channels red, green, green, blue of raw samples up to `maximum`, scaled linearly to 8 bits.
private struct BayerColor: ChannelColor {
    let maximum: UInt32
    /// 255 / maximum in 16.16 fixed point.
    let factor: UInt32

    init(maximum: Int) {
        self.maximum = UInt32(maximum)
        factor = UInt32((255 << 16 + maximum / 2) / maximum)
    }

    func colour(_ pixel: UnsafePointer<UInt16>, channelStride: Int) -> (red: UInt8, green: UInt8, blue: UInt8) {
        func scaled(_ sample: UInt32) -> UInt8 {
            UInt8(truncatingIfNeeded: (min(sample, maximum) &* factor &+ 1 << 15) >> 16)
        }
        let green = (UInt32(pixel[channelStride]) &+ UInt32(pixel[2 * channelStride]) &+ 1) >> 1
        return (scaled(UInt32(pixel[0])), scaled(green), scaled(UInt32(pixel[3 * channelStride])))
    }
}

/// Rows of samples of one plane (every `step`-th row from `firstRow`), filtered down the columns.
private struct SourceRows<Sample: FixedWidthInteger & UnsignedInteger> {
    let base: UnsafePointer<Sample>
    /// Samples from one row to the next.
    let rowStride: Int
    /// Samples in a row.
    let length: Int
    let weights: BoxWeights

    init(_ buffer: PixelBuffer, plane index: Int, destinationHeight: Int, firstRow: Int = 0, step: Int = 1) {
        precondition(Sample.bitWidth <= 16, "the 32-bit column sums hold 16-bit samples at most")
        let plane = buffer.planes[index]
        let rowSamples = plane.bytesPerRow / MemoryLayout<Sample>.size
        // Rows are 64-byte aligned, so any row starts aligned for Sample.
        base = UnsafePointer(buffer.baseAddress(plane: index).assumingMemoryBound(to: Sample.self)) + firstRow * rowSamples
        rowStride = rowSamples * step
        length = plane.rowLength / MemoryLayout<Sample>.size
        weights = BoxWeights(source: plane.height / step, destination: destinationHeight, offset: 0, stride: 1)
    }

    /// Writes the weighted sums of the rows destination row `y` covers into `sum` (`length` values,
    /// each a sample times `BoxWeights.one`, at most 2^28).
    func filterColumns(row y: Int, into sum: UnsafeMutablePointer<UInt32>) {
        sum.update(repeating: 0, count: length)
        weights.forEachTap(of: y) { row, weight in
            let line = base + row * rowStride
            for x in 0..<length {
                sum[x] &+= UInt32(truncatingIfNeeded: Sample(littleEndian: line[x])) &* weight
            }
        }
    }
}

/// For each destination pixel along one axis, the source samples it covers and the fraction of its
/// area each contributes, in units of 1/`one`; each pixel's weights sum to exactly `one`, so a
/// uniform image stays uniform.
///
/// Every pixel has `tapsPerPixel` taps, the unused ones weighing 0, so the inner loop is uniform;
/// its samples are `stride` apart from `firstIndex[i]` and may run `padding` samples past the
/// source's end.
private struct BoxWeights {
    static let bits = 12
    static let one = UInt32(1 << bits)

    let count: Int
    let tapsPerPixel: Int
    let stride: Int
    private let firstIndex: [Int]
    /// Destination pixel `i`'s weights are `weights[i × tapsPerPixel ..< (i + 1) × tapsPerPixel]`.
    private let weights: [UInt32]

    /// Samples a row needs past its end, read with weight 0.
    var padding: Int { tapsPerPixel * stride }

    /// Weights from `source` pixels to `destination` pixels, the pixels' samples lying `stride`
    /// apart from `offset`.
    init(source: Int, destination: Int, offset: Int, stride: Int) {
        count = destination
        self.stride = stride
        // In units of 1/(source × destination) of the axis: source pixel j spans
        // [j·destination, (j+1)·destination), destination pixel i spans [i·source, (i+1)·source).
        let spans = (0..<destination).map { i in
            let start = i * source, end = start + source
            return (first: start / destination, last: (end - 1) / destination, start: start, end: end)
        }
        tapsPerPixel = spans.map { $0.last - $0.first + 1 }.max() ?? 0
        firstIndex = spans.map { offset + $0.first * stride }
        var weights = [UInt32](repeating: 0, count: destination * tapsPerPixel)
        for (i, span) in spans.enumerated() {
            let pixel = i * tapsPerPixel
            for j in span.first...span.last {
                let overlap = min(span.end, (j + 1) * destination) - max(span.start, j * destination)
                weights[pixel + j - span.first] = UInt32(overlap << Self.bits / source)
            }
            // Rounding down lost less than one unit per tap: the largest tap takes the remainder.
            let taps = pixel..<(pixel + tapsPerPixel)
            let largest = taps.max { weights[$0] < weights[$1] }!
            weights[largest] += Self.one - weights[taps].reduce(0, +)
        }
        self.weights = weights
    }

    /// Calls `body` with each sample index and weight of destination pixel `i`.
    func forEachTap(of i: Int, _ body: (_ index: Int, _ weight: UInt32) -> Void) {
        for tap in 0..<tapsPerPixel where weights[i * tapsPerPixel + tap] > 0 {
            body(firstIndex[i] + tap * stride, weights[i * tapsPerPixel + tap])
        }
    }

    /// Writes each destination pixel of 8-bit samples four to a pixel (bgra8) — the rounded means
    /// of `sums`, column sums from `SourceRows` — into `line`, alpha opaque. The four channels of a
    /// tap are one SIMD4: a sum of 8-bit samples weighed twice by `one` stays under 2^32.
    func filterPixels(_ sums: UnsafePointer<UInt32>, into line: UnsafeMutablePointer<UInt8>) {
        precondition(stride == 4, "filterPixels takes four samples to a pixel, not \(stride)")
        let shift = UInt32(2 * Self.bits), half = SIMD4<UInt32>(repeating: 1 << (shift - 1))
        let taps = tapsPerPixel
        firstIndex.withUnsafeBufferPointer { firstIndex in
            weights.withUnsafeBufferPointer { weights in
                for i in 0..<count {
                    var sum = half
                    for tap in 0..<taps {
                        let samples = UnsafeRawPointer(sums + firstIndex[i] + 4 * tap).loadUnaligned(as: SIMD4<UInt32>.self)
                        sum &+= samples &* weights[i * taps + tap]
                    }
                    let mean = sum &>> shift
                    let pixel = line + 4 * i
                    (pixel[0], pixel[1], pixel[2], pixel[3]) = (UInt8(truncatingIfNeeded: mean[0]), UInt8(truncatingIfNeeded: mean[1]),
                                                                UInt8(truncatingIfNeeded: mean[2]), 255)
                }
            }
        }
    }

    /// Writes the rounded mean of `sums` (column sums from `SourceRows`, in units of 1/`one`) for
    /// every destination pixel into `means`.
    func filterRow(_ sums: UnsafePointer<UInt32>, into means: UnsafeMutablePointer<UInt16>) {
        let shift = UInt64(2 * Self.bits), half = UInt64(1) << (shift - 1)
        let taps = tapsPerPixel, stride = stride
        firstIndex.withUnsafeBufferPointer { firstIndex in
            weights.withUnsafeBufferPointer { weights in
                for i in 0..<count {
                    var sample = sums + firstIndex[i]
                    var sum: UInt64 = 0
                    for weight in weights[(i * taps)..<((i + 1) * taps)] {
                        sum &+= UInt64(sample.pointee) &* UInt64(weight)
                        sample += stride
                    }
                    means[i] = UInt16(truncatingIfNeeded: (sum &+ half) >> shift)
                }
            }
        }
    }
}
