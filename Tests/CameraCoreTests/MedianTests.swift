import CameraCore
import Testing

@Suite struct MedianTests {
    @Test("The median is the middle value, the mean of the two middle ones for an even count, 0 for none")
    func median() {
        #expect(CameraCore.median([3, 1, 2]) == 2)
        #expect(CameraCore.median([4, 1, 3, 2]) == 2.5)
        #expect(CameraCore.median([-1]) == -1)
        #expect(CameraCore.median([]) == 0)
    }
}
