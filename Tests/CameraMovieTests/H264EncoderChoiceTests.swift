import CameraMovie
import Foundation
import Testing

/// The encoder decision with a scripted probe: this machine has no hardware encoder to try it on.
@Suite("H.264 encoder choice")
struct H264EncoderChoiceTests {
    @Test("No hardware encoder opens: libx264, with why each was passed over, in order")
    func fallsBackToLibx264() {
        var tried: [String] = []
        let choice = H264EncoderChoice.choose { name in
            tried.append(name)
            return name == "h264_vaapi" ? "no VA-API device" : "not in this FFmpeg build"
        }
        #expect(tried == ["h264_vaapi", "h264_v4l2m2m"])
        #expect(choice == H264EncoderChoice(name: "libx264", passedOver: ["h264_vaapi: no VA-API device", "h264_v4l2m2m: not in this FFmpeg build"]))
        #expect(choice.summary == "libx264 (h264_vaapi: no VA-API device; h264_v4l2m2m: not in this FFmpeg build)")
    }

    @Test("The first hardware encoder that opens is used, and the later ones are not tried")
    func usesTheFirstThatOpens() {
        var tried: [String] = []
        let choice = H264EncoderChoice.choose { name in
            tried.append(name)
            return name == "h264_vaapi" ? "no VA-API device" : nil
        }
        #expect(tried == ["h264_vaapi", "h264_v4l2m2m"])
        #expect(choice.name == "h264_v4l2m2m")
        #expect(choice.summary == "h264_v4l2m2m (h264_vaapi: no VA-API device)")
        #expect(H264EncoderChoice.choose { _ in nil }.summary == "h264_vaapi")
    }
}

/// The real probe, on this machine, which has neither VA-API nor a V4L2 encoder node.
@Suite("H.264 encoder probe on this machine")
struct H264EncoderProbeTests {
    @Test("Without a GPU or an encoder node, libx264 runs, and each hardware encoder's reason names what is missing")
    func probesEachHardwareEncoder() throws {
        try #require(!FileManager.default.fileExists(atPath: "/dev/dri"), "this machine has a GPU: the fallback is not what runs")
        let choice = H264EncoderChoice.probed()
        #expect(choice.name == "libx264")
        #expect(choice.passedOver.count == 2)
        #expect(choice.passedOver.first?.hasPrefix("h264_vaapi: no VA-API device") == true, "\(choice.passedOver)")
        #expect(choice.passedOver.last?.hasPrefix("h264_v4l2m2m: ") == true, "\(choice.passedOver)")
    }
}
