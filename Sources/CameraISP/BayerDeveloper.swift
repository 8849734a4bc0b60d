import CameraCore

/// Develops a bayer16 mosaic into linear Rec. 709: black subtracted, scaled so that the white
/// level is 1, white balance and digital gain applied, clipped, demosaiced bilinearly, then the
/// colour matrix. Any order is RGGB shifted by its red site (`BayerPattern.redSite`): rows and
/// columns are read as RGGB's at that offset.
///
/// Clipping: every sample is capped at the neutral white `clipLevel` = digital gain × the smallest
/// white-balance gain × the calibration's headroom, the level at which the first channel of a grey
/// clips (above the white level for a merged bracket, which saw past it). A sample at the white
/// level reaches it in every channel, so a blown highlight is (clip, clip, clip) — white, since
/// the matrix rows sum to 1 — rather than the magenta its unequal channel gains would make.
///
/// Bilinear demosaic: each missing colour is the mean of its nearest two or four samples. Rows are
/// normalised once into a ring of three, the image's edges mirrored (a mirror about the first or
/// last pixel keeps the colour of each site), then each output row reads its three source rows
/// eight pixels at a time. Stripes of rows run on the `StripePool`, each with a ring of its own.
struct BayerDeveloper {
    /// Per stripe, three normalised mosaic rows, each `margin` values of mirror on both sides.
    private var rows: [Float] = []
    private var rowLength = 0
    /// Columns of mirror before and after a row: one is read, eight keep the loads aligned.
    private static let margin = 8

    mutating func develop(_ buffer: PixelBuffer, pattern: BayerPattern, significantBits: Int, metadata: FrameMetadata,
                          stripes: StripePool, into image: inout LinearImage) throws(ISPError) {
        guard let calibration = metadata.rawCalibration else { throw .missingRawCalibration(buffer.format) }
        guard calibration.whiteLevel < 1 << significantBits else {
            throw .whiteLevelOutOfRange(whiteLevel: calibration.whiteLevel, significantBits: significantBits)
        }
        image.resize(width: buffer.width, height: buffer.height)
        let gains = metadata.whiteBalanceGains
        let unit = metadata.digitalGain / Double(calibration.whiteLevel - calibration.blackLevel)
        let normalisation = Normalisation(
            black: Float(calibration.blackLevel),
            scale: SIMD3(Float(gains.red * unit), Float(gains.green * unit), Float(gains.blue * unit)),
            clip: Float(metadata.digitalGain * min(gains.red, gains.green, gains.blue) * calibration.headroom),
            red: pattern.redSite)
        (image.clipLevel, image.headroom) = (normalisation.clip, Float(calibration.headroom))
        let matrix = ColorMatrix(calibration.colorMatrix)
        rowLength = image.stride + 2 * BayerDeveloper.margin
        let ringLength = 3 * rowLength, stripeCount = stripes.stripeCount(rows: buffer.height)
        if rows.count != stripeCount * ringLength { rows = [Float](repeating: 0, count: stripeCount * ringLength) }
        let (width, height, stride, rowLength) = (buffer.width, buffer.height, image.stride, rowLength)
        let source = PlaneBytes(buffer, plane: 0)
        rows.withUnsafeMutableBufferPointer { rows in
            image.withMutablePlanes { planes in
                stripes.run(rows: height) { stripe, stripeRows in
                    // Each stripe its own ring, starting with the rows above and at its first.
                    let ring = rows.baseAddress! + stripe * ringLength + BayerDeveloper.margin
                    func slot(_ y: Int) -> UnsafeMutablePointer<Float> { ring + (y % 3) * rowLength }
                    func normalise(_ y: Int) {
                        normalisation.row(source.row(y), y: y, width: width, stride: stride, into: slot(y))
                    }
                    func above(_ y: Int) -> Int { y == 0 ? min(1, height - 1) : y - 1 }
                    func below(_ y: Int) -> Int { y + 1 < height ? y + 1 : max(height - 2, 0) }
                    let first = stripeRows.lowerBound
                    normalise(above(first))
                    if first != above(first) { normalise(first) }
                    for y in stripeRows {
                        let next = below(y)
                        if next != above(y) && next != y { normalise(next) }
                        BayerDeveloper.demosaicRow(above: slot(above(y)), center: slot(y), below: slot(next),
                                                   redRow: (y + pattern.redSite.y).isMultiple(of: 2), redColumns: normalisation.redColumns,
                                                   matrix: matrix, into: planes, at: y * planes.stride, count: planes.stride)
                    }
                }
            }
        }
        image.fillPadding()
    }

    /// Bilinear interpolation and the colour matrix for one row, eight pixels at a time: a row of
    /// red and green sites when `redRow`, else of green and blue; `redColumns` marks the lanes in
    /// the red sites' columns.
    private static func demosaicRow(above: UnsafePointer<Float>, center: UnsafePointer<Float>, below: UnsafePointer<Float>,
                                    redRow: Bool, redColumns: SIMD8<Float>, matrix: ColorMatrix,
                                    into planes: LinearImage.MutablePlanes, at offset: Int, count: Int) {
        let even = redColumns, odd = 1 - even
        for x in Swift.stride(from: 0, to: count, by: 8) {
            let own = load(center + x)
            let horizontal = (load(center + x - 1) + load(center + x + 1)) * 0.5
            let vertical = (load(above + x) + load(below + x)) * 0.5
            let cross = (horizontal + vertical) * 0.5
            let diagonal = (load(above + x - 1) + load(above + x + 1) + load(below + x - 1) + load(below + x + 1)) * 0.25
            // Red rows are R G R G …, the others G B G B …; `even` marks the red sites' columns.
            let r, g, b: SIMD8<Float>
            if redRow {
                (r, g, b) = (own * even + horizontal * odd, cross * even + own * odd, diagonal * even + vertical * odd)
            } else {
                (r, g, b) = (vertical * even + diagonal * odd, own * even + cross * odd, horizontal * even + own * odd)
            }
            let rgb = matrix.apply(red: r, green: g, blue: b)
            planes.store(offset + x, red: rgb.red, green: rgb.green, blue: rgb.blue)
        }
    }
}

/// A 3×3 colour matrix with each entry broadcast to eight lanes, built once per frame.
private struct ColorMatrix {
    let m0, m1, m2, m3, m4, m5, m6, m7, m8: SIMD8<Float>

    init(_ matrix: [Double]) {
        func entry(_ i: Int) -> SIMD8<Float> { SIMD8(repeating: Float(matrix[i])) }
        (m0, m1, m2, m3, m4, m5, m6, m7, m8) = (entry(0), entry(1), entry(2), entry(3), entry(4), entry(5), entry(6), entry(7), entry(8))
    }

    /// The matrix times (`red`, `green`, `blue`), negative results (colours outside Rec. 709) set to 0.
    @inline(__always)
    func apply(red r: SIMD8<Float>, green g: SIMD8<Float>, blue b: SIMD8<Float>)
        -> (red: SIMD8<Float>, green: SIMD8<Float>, blue: SIMD8<Float>) {
        (FastMath.nonNegative(m0 * r + m1 * g + m2 * b), FastMath.nonNegative(m3 * r + m4 * g + m5 * b),
         FastMath.nonNegative(m6 * r + m7 * g + m8 * b))
    }
}

/// Raw samples to normalised, white-balanced, clipped values: (raw − black) × `scale` of the
/// sample's colour, within 0…`clip`.
private struct Normalisation {
    let black: Float
    /// Per channel (red, green, blue): white balance × digital gain / (white − black).
    let scale: SIMD3<Float>
    let clip: Float
    /// The mosaic's red site in its 2×2 cell.
    let red: (x: Int, y: Int)

    /// 1 in the lanes of eight pixels from an even column that are in the red sites' columns.
    var redColumns: SIMD8<Float> {
        red.x == 0 ? SIMD8(1, 0, 1, 0, 1, 0, 1, 0) : SIMD8(0, 1, 0, 1, 0, 1, 0, 1)
    }

    /// Normalises mosaic row `y` (`width` samples) into `row`, then mirrors it into the margin
    /// and out to `stride` + 1.
    func row(_ source: UnsafePointer<UInt8>, y: Int, width: Int, stride: Int, into row: UnsafeMutablePointer<Float>) {
        // R G on red rows, G B on the others: `first` is the scale of the red sites' columns.
        let (first, second) = (y + red.y).isMultiple(of: 2) ? (scale.x, scale.y) : (scale.y, scale.z)
        let scales = SIMD8<Float>(repeating: second) + (first - second) * redColumns
        let black = SIMD8<Float>(repeating: black)
        let samples = UnsafeRawPointer(source)
        for x in Swift.stride(from: 0, to: width, by: 8) {
            let raw = FastMath.float(SIMD8<Int32>(truncatingIfNeeded: samples.loadUnaligned(fromByteOffset: x * 2, as: SIMD8<UInt16>.self)))
            let value = (raw - black) * scales
            UnsafeMutableRawPointer(row + x).storeBytes(of: FastMath.minimum(FastMath.nonNegative(value), clip), as: SIMD8<Float>.self)
        }
        for x in width..<(stride + 1) { row[x] = row[max(2 * (width - 1) - x, 0)] }
        row[-1] = row[min(1, width - 1)]
    }
}

@inline(__always)
private func load(_ pointer: UnsafePointer<Float>) -> SIMD8<Float> {
    UnsafeRawPointer(pointer).loadUnaligned(as: SIMD8<Float>.self)
}
