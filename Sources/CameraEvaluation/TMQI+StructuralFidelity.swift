import Foundation

/// TMQI's structural fidelity S (Yeganeh and Wang 2013, section II.A): a structural similarity
/// whose contrast term compares whether a local signal is visible in each image rather than how
/// strong it is, so compressing a bright region's contrast costs nothing while it stays visible.
extension TMQI {
    /// The five scales' weights in the geometric mean, finest first (the paper's, from Wang et al.'s
    /// multi-scale SSIM).
    static let scaleWeights = [0.0448, 0.2856, 0.3001, 0.2363, 0.1333]

    /// The stabilising constants of the local similarity: C1 of the visibility term, C2 of the
    /// structure term.
    private static let visibilityConstant = 0.01
    private static let structureConstant = 10.0

    /// S: the product of each scale's mean local similarity to the power of its weight, scales a
    /// factor of 2 apart, the spatial frequency (cycles/degree) each is judged at halving from 16.
    ///
    /// A scale whose mean is negative (a rendering that inverts the scene's structure) counts as 0,
    /// where the reference code's fractional power would turn complex.
    static func structuralFidelity(hdr: LuminancePlane, ldr: LuminancePlane) -> Double {
        var hdr = hdr, ldr = ldr
        var frequency = 16.0
        var fidelity = 1.0
        for weight in scaleWeights {
            fidelity *= pow(max(meanLocalSimilarity(hdr: hdr, ldr: ldr, frequency: frequency), 0), weight)
            frequency /= 2
            hdr = hdr.halved()
            ldr = ldr.halved()
        }
        return fidelity
    }

    /// The local standard deviation (8-bit levels) at which a signal of `frequency` cycles/degree
    /// becomes visible: the threshold the paper takes from Mannos and Sakrison's contrast
    /// sensitivity function, 128 / (1.4 × CSF(f)).
    static func visibilityThreshold(frequency: Double) -> Double {
        let sensitivity = 100 * 2.6 * (0.0192 + 0.114 * frequency) * exp(-pow(0.114 * frequency, 1.1))
        return 128 / (1.4 * sensitivity)
    }

    /// The mean over every 11×11 window of the local similarity
    /// (2σ̃₁σ̃₂ + C1) / (σ̃₁² + σ̃₂² + C1) × (σ₁₂ + C2) / (σ₁σ₂ + C2), where σ̃ is the normal CDF of the
    /// local deviation about `visibilityThreshold(frequency)` with a third of it as spread.
    static func meanLocalSimilarity(hdr: LuminancePlane, ldr: LuminancePlane, frequency: Double) -> Double {
        let threshold = visibilityThreshold(frequency: frequency)
        let spread = threshold / 3
        func visibility(_ deviation: Double) -> Double {
            0.5 * erfc((threshold - deviation) / (spread * 2.0.squareRoot()))
        }
        var sum = 0.0, count = 0
        hdr.forEachWindow(with: ldr) { hdrDeviation, ldrDeviation, covariance in
            let hdrVisibility = visibility(hdrDeviation), ldrVisibility = visibility(ldrDeviation)
            let visibilityTerm = (2 * hdrVisibility * ldrVisibility + visibilityConstant)
                / (hdrVisibility * hdrVisibility + ldrVisibility * ldrVisibility + visibilityConstant)
            let structureTerm = (covariance + structureConstant) / (hdrDeviation * ldrDeviation + structureConstant)
            sum += visibilityTerm * structureTerm
            count += 1
        }
        return sum / Double(count)
    }
}
