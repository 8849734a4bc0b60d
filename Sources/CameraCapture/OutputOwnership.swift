import CameraCore

/// Which session each output belongs to, so one output cannot be added to two sessions (its
/// frames would interleave). Entries hold both weakly: a deallocated session or output frees its
/// outputs without a deinit hook.
enum OutputOwnership {
    private struct Claim {
        weak var output: AnyObject?
        weak var session: CaptureSession?
    }

    private static let claims = Locked<[ObjectIdentifier: Claim]>([:])

    /// Claims `outputs` for `session`, all or none; throws naming the first output that belongs to
    /// another live session.
    static func claim(_ outputs: [any CaptureOutput], for session: CaptureSession) throws(CaptureError) {
        try claims.withLock { claims throws(CaptureError) in
            claims = claims.filter { $0.value.output != nil && $0.value.session != nil }
            for output in outputs {
                let claim = claims[ObjectIdentifier(output)]
                if let owner = claim?.session, owner !== session, claim?.output === output {
                    throw .invalidConfiguration("this \(output.typeName) already belongs to another session — remove it there first, or create a new output")
                }
            }
            for output in outputs {
                claims[ObjectIdentifier(output)] = Claim(output: output, session: session)
            }
        }
    }

    /// Frees `outputs` that `session` had claimed.
    static func release(_ outputs: [any CaptureOutput], from session: CaptureSession) {
        claims.withLock { claims in
            for output in outputs where claims[ObjectIdentifier(output)]?.session === session {
                claims[ObjectIdentifier(output)] = nil
            }
        }
    }
}
