extension ClosedLoopEvaluation {
    /// Runs each algorithm on each scene in turn; with `peers`, OpenCV's tone mappers on the sun
    /// AE's last frame; with `references`, also the report's reference frame of each scene.
    /// `progress` hears "ae-eval SCENE × ALGORITHM (k/n)" before each run.
    public func evaluate(_ scenes: [EvaluatedScene], algorithms: [EvaluatedAlgorithm], peers: Bool = true, references: Bool,
                         progress: (String) -> Void = { _ in }) async throws -> [AEEvalReport.Section] {
        var sections: [AEEvalReport.Section] = []
        for (index, entry) in scenes.enumerated() {
            var runs: [Result] = []
            for algorithm in algorithms {
                progress("ae-eval \(entry.scene.name) × \(algorithm.rawValue) (\(index * algorithms.count + runs.count + 1)/\(scenes.count * algorithms.count))")
                runs.append(try await run(entry.scene, algorithm: algorithm.make()))
            }
            if peers, let sun = runs.first(where: { $0.algorithm == EvaluatedAlgorithm.sun.rawValue }) {
                progress("ae-eval \(entry.scene.name) × OpenCV's tone mappers")
                runs += try self.peers(of: sun, scene: entry.scene)
            }
            sections.append(AEEvalReport.Section(scene: entry.scene.name, why: entry.why, subject: entry.subject,
                                                 intent: entry.scene.subjectIntent,
                                                 meanOverMedian: entry.scene.subjectMeanOverMedian(viewSize: size),
                                                 reference: references ? try await referenceThumbnail(entry.scene) : nil,
                                                 results: runs))
        }
        return sections
    }
}
