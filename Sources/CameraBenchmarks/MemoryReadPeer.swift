internal import CBenchPeers
import CameraCore

/// The `memory-read` peer of `bench metering`: the time to read every byte of a frame once and do
/// nothing else (a psadbw byte sum in C, AVX2 when the CPU has it). Any analysis that looks at every
/// pixel pays at least this, so ours ÷ this says how far the analysis is from the memory-bound floor.
public enum MemoryReadPeer {
    /// Median milliseconds to read one frame, taking `frames` in turn (see `MeteringBenchmark`
    /// for why there are many), and the byte sum of the last frame read, which keeps the reads
    /// observable.
    static func measure(_ frames: [PixelBuffer], runs: Int) async -> (milliseconds: Double, lastSum: UInt64) {
        var next = 0
        var lastSum: UInt64 = 0
        let milliseconds = await medianMilliseconds(runs: runs) {
            lastSum = sum(frames[next % frames.count])
            next += 1
        }
        return (milliseconds, lastSum)
    }

    /// The sum of every byte of every plane of `buffer`, padding included.
    static func sum(_ buffer: PixelBuffer) -> UInt64 {
        buffer.planes.indices.reduce(0) { total, index in
            total &+ buffer.withUnsafeBytes(plane: index) { sum($0) }
        }
    }

    /// The sum of `bytes`, for tests of the C kernel.
    static func sum(_ bytes: [UInt8]) -> UInt64 {
        bytes.withUnsafeBytes { sum($0) }
    }

    private static func sum(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        cbp_memory_read_sum(bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count)
    }
}
