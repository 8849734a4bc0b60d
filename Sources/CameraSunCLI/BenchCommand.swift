import CameraSystem

/// `camerasun bench …`: runs the `camerasun-bench` program beside this one with the same
/// arguments in this process's place. The benchmarks live in a program of their own so that
/// `camerasun` does not link their peers and test doubles (the fake camera, the nginx harness).
enum BenchCommand {
    /// The benchmark program's file name, in the folder of `camerasun`.
    static let program = "camerasun-bench"

    /// Returns only by throwing: when the benchmark program is missing or cannot run.
    static func run(_ arguments: [String]) throws(CLIError) -> Never {
        let path: String
        do {
            path = try ProcessImage.sibling(program)
        } catch {
            throw .runtime("\(error) — cannot find the folder of camerasun, where \(program) is")
        }
        do {
            try ProcessImage.replace(with: path, arguments: [path] + arguments)
        } catch where error.errno == .noSuchFileOrDirectory {
            throw .runtime("\(path) is missing: the benchmarks are a program of their own — build it with `make build`")
        } catch {
            throw .runtime("\(error) — build the benchmarks again with `make build`")
        }
    }
}
