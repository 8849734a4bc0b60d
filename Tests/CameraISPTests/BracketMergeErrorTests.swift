import CameraCore
import CameraISP
import Testing

@Suite("Bracket merge errors")
struct BracketMergeErrorTests {
    /// A bracket that cannot be merged and the error it must raise, naming what is wrong.
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let frames: @Sendable () throws -> [BracketFrame]
        let reference: Int
        let error: BracketMergeError
        /// Words the message must contain.
        let mentions: [String]
        var testDescription: String { name }
    }

    static func flat(_ format: PixelFormat = .bayer16(.rggb, significantBits: 12), width: Int = 16, height: Int = 16,
                     exposure: Double = 0.01) throws -> BracketFrame {
        BracketFrame(buffer: try PixelBuffer(format: format, width: width, height: height),
                     calibration: SyntheticBracket.calibration, exposure: exposure, noise: SyntheticBracket.noise)
    }

    static let cases: [Case] = [
        Case(name: "one frame", frames: { [try flat()] }, reference: 0, error: .tooFewFrames(count: 1), mentions: ["1 frame"]),
        Case(name: "nine frames", frames: { try (0..<9).map { _ in try flat() } }, reference: 0,
             error: .tooManyFrames(count: 9), mentions: ["9 frames", "at most 8"]),
        Case(name: "reference past the end", frames: { [try flat(), try flat(), try flat()] }, reference: 3,
             error: .referenceOutOfRange(index: 3, count: 3), mentions: ["reference frame 3", "0…2"]),
        Case(name: "negative reference", frames: { [try flat(), try flat()] }, reference: -1,
             error: .referenceOutOfRange(index: -1, count: 2), mentions: ["reference frame -1"]),
        Case(name: "a gray8 frame", frames: { [try flat(), try flat(.gray8)] }, reference: 0,
             error: .notBayer(frame: 1, format: .gray8), mentions: ["frame 1", "gray8"]),
        Case(name: "another size", frames: { [try flat(), try flat(width: 32)] }, reference: 0,
             error: .mismatchedFrame(frame: 1, format: .bayer16(.rggb, significantBits: 12), size: PixelSize(width: 32, height: 16),
                                     reference: .bayer16(.rggb, significantBits: 12), referenceSize: PixelSize(width: 16, height: 16)),
             mentions: ["frame 1", "32x16", "16x16"]),
        Case(name: "another bit depth", frames: { [try flat(), try flat(.bayer16(.rggb, significantBits: 10))] }, reference: 0,
             error: .mismatchedFrame(frame: 1, format: .bayer16(.rggb, significantBits: 10), size: PixelSize(width: 16, height: 16),
                                     reference: .bayer16(.rggb, significantBits: 12), referenceSize: PixelSize(width: 16, height: 16)),
             mentions: ["bayer16-rggb10", "bayer16-rggb12"]),
        Case(name: "zero exposure", frames: { [try flat(), try flat(exposure: 0)] }, reference: 0,
             error: .invalidExposure(frame: 1, exposure: 0), mentions: ["frame 1", "exposure 0"]),
    ]

    @Test("a bracket that cannot be merged throws an error naming the frame and value", arguments: cases)
    func rejected(_ example: Case) throws {
        let frames = try example.frames()
        let error = #expect(throws: BracketMergeError.self) { try BracketMerger().merge(frames, reference: example.reference) }
        #expect(error == example.error)
        for word in example.mentions {
            #expect(error?.description.contains(word) == true, "\(error?.description ?? "no error") should mention \(word)")
        }
    }
}
