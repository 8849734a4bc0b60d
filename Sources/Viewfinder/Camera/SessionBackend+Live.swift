import CameraCapture
import CameraMovie
import CameraCore
import CameraRecording
import Foundation
import HTTPServer

extension SessionBackend {
    /// Pushes the main camera live to `url` with the takes' sound; answers the stream's status.
    /// A URL that is not RTMP is a 400; a camera that cannot be streamed, or a stream already
    /// running, a 409. A server that refuses shows as `/state`'s `live.state` "failed" with its error.
    public func startLive(url: String, bitrateKbps: Int?) async throws -> Data {
        guard let live = cameras.live else { throw Self.cannotEncode(device.activeFormat.size) }
        do {
            _ = try LiveStreamURL(url)
        } catch {
            throw HTTPError.badRequest("url: \(error)")
        }
        let size = device.activeFormat.size
        // Probing opens encoders, which blocks: off the pool.
        let encoder = await onOwnThread { H264EncoderChoice.probed(size: size) }
        let settings = LiveStreamOutput.Settings(bitRate: (bitrateKbps ?? Self.defaultLiveBitrate) * 1000, encoder: encoder.name, sound: sound)
        do {
            try live.start(url: url, settings: settings)
        } catch {
            throw HTTPError.conflict("\(error)")
        }
        return try Self.encoder.encode(live.status)
    }

    /// Ends the stream (the queue and the trailer sent); answers its final status. Refused (409)
    /// when no stream runs.
    public func stopLive() async throws -> Data {
        guard let live = cameras.live, live.isStreaming else {
            throw HTTPError.conflict("not live — start a stream with {\"action\":\"start\",\"url\":\"rtmp://HOST/APP/KEY\"}")
        }
        return try Self.encoder.encode(await live.stop())
    }

    /// The live bitrate without `bitrate`, kb/s, as `camerasun stream`'s.
    static let defaultLiveBitrate = 2500

    /// Why a camera of `size` can be neither recorded nor streamed.
    static func cannotEncode(_ size: PixelSize) -> HTTPError {
        .conflict("the camera runs at \(size), and H.264 takes even widths and heights only — choose an even --width and --height "
            + "to record or stream")
    }
}
