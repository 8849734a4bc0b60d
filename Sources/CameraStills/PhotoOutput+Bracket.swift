import CameraCapture
import CameraCore
import CameraISP

extension PhotoOutput {
    /// Takes a bracket at `offsets` through the stream's capture loop: the frame current at the
    /// request (or the first to come) says whether the camera offers brackets.
    func shootBracket(_ offsets: [Double]) async throws(PhotoCaptureError) -> BracketCapture {
        let current = try await nextFrame(after: nil, converged: false, within: frameWait)
        guard current.sourceIsRaw else {
            throw .unsupported("a bracketed photo needs the camera's raw frames, and this stream's format is not raw — "
                + "choose a raw (bayer16) format, or take the photo without a bracket")
        }
        let (bracket, frame) = try await take(BracketRequest(offsets: offsets), within: frameWait * (BracketSequence.framesPerExposure * offsets.count),
                                              failure: PhotoCaptureError.bracketFailed)
        return bracket.capture(frame)
    }

    /// The most EV an automatic bracket's longer frame is exposed over the photo's: 16× longer, a
    /// 1/500 s frame of a sunlit scene becoming 1/30 s, which a steady hand still holds.
    static let shortfallBracketReach = 4.0

    /// The offset of the longer frame a photo of `frame` takes beside it when its subject lies at
    /// least 1 EV under the noise floor at the longest exposure its highlights allow
    /// (`ThreeAStatus.exposureShortfall`): that frame's signal lets the subject be lifted without
    /// the noise. Only on a raw stream, for a photo that asked for quality, not speed; nil otherwise.
    static func shortfallOffset(_ settings: PhotoSettings, frame: CapturedFrame) -> Double? {
        let shortfall = frame.threeA.exposureShortfall
        guard settings.qualityPrioritization != .speed, frame.sourceIsRaw, shortfall >= 1 else { return nil }
        return min(shortfall.rounded(.up), shortfallBracketReach)
    }

    /// The bracket of the photo's exposure and one `offset` EV longer, or nil when the camera
    /// cannot take it (an offset beyond its reach): the photo is then its one frame.
    func shootShortfallBracket(_ offset: Double) async -> BracketCapture? {
        do {
            return try await shootBracket([0, offset])
        } catch {
            return nil
        }
    }

    /// The bracket's frame `raw` as a picture of its own, at its own exposure (`BracketRenderer`).
    static func picture(of raw: Frame, in bracket: BracketCapture) throws(PhotoCaptureError) -> CapturedFrame {
        do {
            return bracket.frame.replacingPicture(try BracketRenderer.render(frame: raw, gain: bracket.renderGain,
                                                                             toneMapping: bracket.toneMapping, format: bracket.frame.buffer.format))
        } catch {
            throw .processingFailed(error.description)
        }
    }

    /// The bracket made into the photo's frame (`BracketRenderer`).
    static func fused(_ bracket: BracketCapture) throws(PhotoCaptureError) -> CapturedFrame {
        do {
            let picture = try BracketRenderer.render(bracket.frames, offsets: bracket.offsets, gain: bracket.renderGain,
                                                     toneMapping: bracket.toneMapping, format: bracket.frame.buffer.format)
            return bracket.frame.replacingPicture(picture)
        } catch {
            throw .processingFailed(error.description)
        }
    }
}
