import CameraCapture
import CameraCore
import CameraSimulated
import CameraStills
import Testing

/// Flash photos when the camera's buffers run short: the simulated camera has four, as a V4L2
/// device typically does, and a frame nobody holds any more goes back to the pool.
@Suite("Flash photos with the camera's buffers held")
struct FlashBufferTests {
    /// While a flash photo is taken the photo output keeps its newest unlit frame and a frame
    /// output keeps the lit one it was handed last; the app here holds one more (as
    /// `camerasun photo` holds the frame its exposure settled on). The photo output must not pin
    /// the frame current at the request as well: that was the fourth buffer, after which every
    /// frame was dropped, the main flash fired on a frame that never came, and the request hung
    /// until its time limit with "the photo output has no frames".
    @Test("A flash photo while the app holds a frame: the pre-flash and flash frames still find buffers")
    func appHoldsAFrame() async throws {
        try await FlashPhotoTests.withSettledCamera(FlashPhotoTests.candlelitCard, frameWait: .seconds(1)) { _, photos, frames in
            var iterator = frames.frames.makeAsyncIterator()
            let held = try #require(await iterator.next())
            // A later frame, so the frame current at the request is not the one held.
            _ = await iterator.next()
            let photo = try await photos.capture(PhotoSettings(flashMode: .on))
            #expect(photo.flash.fired && photo.metadata.flashPower == photo.flash.power)
            #expect(try #require(photo.sequenceAtRequest) > held.sequenceNumber)
            withExtendedLifetime(held) {}
        }
    }
}
