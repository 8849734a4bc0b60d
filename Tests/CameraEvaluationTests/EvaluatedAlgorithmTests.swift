@testable import CameraEvaluation
import Testing

/// `ae-eval --algorithms`: one list of the algorithms, their names and their report colours.
@Suite struct EvaluatedAlgorithmTests {
    @Test("Every algorithm is made under its own --algorithms name, in the table's order")
    func names() {
        #expect(EvaluatedAlgorithm.allCases.map(\.rawValue) == ["naive", "centre", "libcamera", "sun"])
        for algorithm in EvaluatedAlgorithm.allCases {
            #expect(algorithm.make().name == algorithm.rawValue)
        }
    }

    @Test("A list keeps its order and skips empty names")
    func list() throws {
        #expect(try EvaluatedAlgorithm.list("sun,,naive") == [.sun, .naive])
    }

    @Test("An unknown name is an invalid input naming it and listing every algorithm")
    func unknownName() {
        let error = evaluationError { try EvaluatedAlgorithm.list("sun,auto") }
        #expect(error == .invalidInput("unknown algorithm 'auto' — choose from naive, centre, libcamera, sun"))
    }

    @Test("Each algorithm has its own colour in the report")
    func colours() {
        let colours = EvaluatedAlgorithm.allCases.map(AEEvalReport.colour)
        #expect(Set(colours).count == EvaluatedAlgorithm.allCases.count)
    }
}
