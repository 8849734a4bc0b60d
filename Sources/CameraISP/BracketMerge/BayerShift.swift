/// A frame's translation against the reference, in pixels: the frame's sample at (x + `x`, y + `y`)
/// saw what the reference's sample at (x, y) saw. Both are even, so a shift keeps the Bayer phase.
public struct BayerShift: Sendable, Hashable, CustomStringConvertible {
    public var x: Int
    public var y: Int

    public init(x: Int, y: Int) {
        self.x = x
        self.y = y
    }

    public static let zero = BayerShift(x: 0, y: 0)

    public var description: String { "(\(x), \(y))" }
}
