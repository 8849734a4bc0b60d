@testable import CameraEvaluation

/// The `EvaluationError` that `body` throws, or nil when it returns normally (or throws something else).
func evaluationError<T>(_ body: () throws -> T) -> EvaluationError? {
    do {
        _ = try body()
        return nil
    } catch {
        return error as? EvaluationError
    }
}
