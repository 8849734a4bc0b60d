internal import CLibFuzzer
import Glibc

/// Runs libFuzzer on `testOneInput` with this process's command line (corpus directories or
/// files, `-max_total_time=`, `-runs=`, `-artifact_prefix=` …) and exits with its status:
/// 0 when no input crashed. `testOneInput` gets each input's bytes and returns 0; a crash, a
/// failed `precondition` or a sanitizer report in it is a finding, saved under `-artifact_prefix`.
public func runLibFuzzer(_ testOneInput: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> Never {
    var argc = CommandLine.argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
    exit(LLVMFuzzerRunDriver(&argc, &argv, testOneInput))
}
