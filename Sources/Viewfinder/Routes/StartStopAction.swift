/// The `action` of a command that starts or stops something: a take (`RecordingCommand`), a live
/// stream (`LiveCommand`).
enum StartStopAction: String, CaseIterable {
    case start, stop
}
