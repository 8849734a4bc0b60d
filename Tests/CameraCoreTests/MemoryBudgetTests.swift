import CameraCore
import Testing

@Suite("Memory budget")
struct MemoryBudgetTests {
    @Test("A quarter of physical memory, in whole pixels of a size", arguments: [(UInt64(24) << 30, 12, 536_870_912), (UInt64(2) << 30, 70, 7_669_584)])
    func quarterOfMemory(memory: UInt64, bytesPerPixel: Int, pixels: Int) {
        #expect(MemoryBudget.bytes(physicalMemory: memory) == memory / 4)
        #expect(MemoryBudget.pixels(bytesPerPixel: bytesPerPixel, physicalMemory: memory) == pixels)
    }

    @Test("Byte counts read as a person reads them", arguments: [(UInt64(18_790_481_920), "18.8 GB"), (UInt64(5_000_000), "5 MB")])
    func described(bytes: UInt64, text: String) {
        #expect(MemoryBudget.describe(bytes: bytes) == text)
    }
}
