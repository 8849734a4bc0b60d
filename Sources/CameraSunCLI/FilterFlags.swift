import CameraFilters

/// The recording filters' flags, `--watermark [TEXT]`, `--lut F.cube` and `--beauty 0…1`, read
/// into a chain (for `record` and `serve`): a missing or malformed `.cube`, a strength
/// outside 0…1 or a missing font is a usage error here, before anything is recorded.
struct FilterFlags {
    let settings: FilterSettings

    init(_ arguments: inout ArgumentList) throws(CLIError) {
        let watermark = arguments.optionalValue("watermark")
        let lutPath = try arguments.option("lut")
        let beauty = try arguments.option("beauty", expected: "a strength from 0 (off) to 1 (strongest)") { text in
            Double(text).flatMap { BeautyFilter.strengths.contains($0) ? $0 : nil }
        }
        settings = FilterSettings(beauty: beauty ?? 0, lutPath: lutPath,
                                  watermark: watermark.map { WatermarkSettings(text: $0.isEmpty ? nil : $0) })
    }

    /// The chain the flags ask for, or nil when they ask for none.
    func chain() throws(CLIError) -> FilterChain? {
        let chain: FilterChain
        do {
            chain = try FilterChain(settings)
        } catch {
            throw .usage("\(error)")
        }
        return chain.isEmpty ? nil : chain
    }
}
