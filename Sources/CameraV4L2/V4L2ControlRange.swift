/// What VIDIOC_QUERYCTRL says of a control the node has (`struct v4l2_queryctrl`): its range,
/// step and default, and for a menu the entries VIDIOC_QUERYMENU lists. A control the node lacks
/// answers EINVAL instead.
public struct V4L2ControlRange: Sendable, Hashable, CustomStringConvertible {
    public var id: V4L2ControlID
    public var minimum: Int32
    public var maximum: Int32
    public var step: Int32
    public var defaultValue: Int32
    /// The driver reports it but it cannot be used. The corresponding C constant is `V4L2_CTRL_FLAG_DISABLED`.
    public var isDisabled: Bool
    /// The entries a menu control offers (`V4L2_CTRL_TYPE_MENU`), or nil for another type.
    public var menu: [Int32]?

    public init(id: V4L2ControlID, minimum: Int32, maximum: Int32, step: Int32 = 1, defaultValue: Int32, isDisabled: Bool = false,
                menu: [Int32]? = nil) {
        self.id = id
        self.minimum = minimum
        self.maximum = maximum
        self.step = max(step, 1)
        self.defaultValue = defaultValue
        self.isDisabled = isDisabled
        self.menu = menu
    }

    /// Whether the control takes `value`: an entry its menu lists, or a value in its range.
    public func offers(_ value: Int32) -> Bool {
        menu?.contains(value) ?? (minimum...maximum).contains(value)
    }

    /// The allowed value nearest `value`: within the range, on a step from the minimum.
    public func nearest(_ value: Double) -> Int32 {
        let clamped = min(max(value, Double(minimum)), Double(maximum))
        let steps = ((clamped - Double(minimum)) / Double(step)).rounded()
        return Int32(min(Double(minimum) + steps * Double(step), Double(maximum)))
    }

    /// The allowed value nearest `value`, or `current` while `value` lies within a step of it:
    /// an asked value that wavers about the midpoint of two steps (as an auto-exposure's does
    /// between the frames each step makes) leaves the control where it is instead of flipping it
    /// every frame.
    public func nearest(_ value: Double, holding current: Int32?) -> Int32 {
        if let current, abs(value - Double(current)) < Double(step) { return current }
        return nearest(value)
    }

    /// e.g. "exposure_time_absolute 3…2047 step 1 (default 250)", "auto_exposure menu 1, 3 (default 3)".
    public var description: String {
        let values = menu.map { "menu " + $0.map(String.init).joined(separator: ", ") } ?? "\(minimum)…\(maximum) step \(step)"
        return "\(id) \(values) (default \(defaultValue))"
    }
}
