import Foundation

/// How much memory one image may take on this machine: a quarter of its physical memory, so that
/// a large image leaves room for the rest of the work (a camera rendering an environment map
/// holds a few images of its size). The limits on decoded and rendered sizes are drawn from it,
/// so a file or a size too large for the machine is an error that says so, never an allocation
/// the machine cannot hold.
public enum MemoryBudget {
    /// The bytes one image may take on a machine with `physicalMemory` bytes.
    public static func bytes(physicalMemory: UInt64 = ProcessInfo.processInfo.physicalMemory) -> UInt64 {
        physicalMemory / 4
    }

    /// The most pixels of `bytesPerPixel` bytes each that fit in the budget.
    public static func pixels(bytesPerPixel: Int, physicalMemory: UInt64 = ProcessInfo.processInfo.physicalMemory) -> Int {
        Int(min(bytes(physicalMemory: physicalMemory) / UInt64(bytesPerPixel), UInt64(Int.max)))
    }

    /// "1.2 GB": a byte count as a person reads it.
    public static func describe(bytes: UInt64) -> String {
        let gigabytes = Double(bytes) / 1e9
        return gigabytes >= 1 ? String(format: "%.1f GB", gigabytes) : String(format: "%.0f MB", Double(bytes) / 1e6)
    }
}
