/// The beauty filter's two passes over one frame, in its pixel format (`BGRASkin`, `NV12Skin`):
/// each block's mean luma and whether its colour may be skin, then the skin pixels moved towards
/// the guided filter's fits.
protocol SkinPasses {
    /// Fills `planes`' block luma (0…1) and skin flags from the blocks' mean colours.
    func fillBlocks(_ planes: GuidedFilterPlanes)

    /// Moves the luma of each skin pixel of row `y` within `columns` towards `fits` by `amount`
    /// times its skin weight; other pixels are left exactly as they are.
    func smooth(row y: Int, columns: Range<Int>, fits: GuidedFilterPlanes.Fits, amount: Float)
}
