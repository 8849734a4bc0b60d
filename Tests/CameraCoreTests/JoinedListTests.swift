import CameraCore
import Testing

@Suite("Names joined as a list of choices")
struct JoinedListTests {
    @Test("Three names read \"a, b or c\", two \"a or b\", one alone, none empty",
          arguments: [(["a", "b", "c"], "a, b or c"), (["a", "b"], "a or b"), (["a"], "a"), ([], "")])
    func joinsWithTheLastSeparatorBeforeTheLastName(names: [String], expected: String) {
        #expect(names.joined(separator: ", ", last: " or ") == expected)
    }
}
