import Testing

@testable import RQLStorage

/// A block's row keys, read from a file, must ascend strictly from 0 up: the one-pass check
/// finds every way they can fail, including a step that would overflow, and names the row.
@Suite("Store file: the row keys' check")
struct RowKeyCheckTests {
    static let ascending = Array(Int64(0)..<Int64(4_096))

    @Test(
        "keys that ascend from 0 up pass; any other keys are named",
        arguments: [
            (ascending, nil),
            ([5, 9, 1_000_000, Int64.max], nil),
            ([7], nil),
            ([-1], "negative row key"),
            ([-5, -3, 2], "negative row key"),
            (
                ascending.enumerated().map { $0.offset == 4_000 ? 3_999 : $0.element },
                "row keys are not ascending at row 4000"
            ),
            ([1, 2, 2, 3], "row keys are not ascending at row 2"),
            ([3, 2], "row keys are not ascending at row 1"),
            // Int64.min - Int64.max - 1 wraps to 0, a step that looks ascending: the negative key gives it away.
            ([0, Int64.max, Int64.min], "row keys are not ascending at row 2"),
        ] as [([Int64], String?)]
    )
    func keys(_ keys: [Int64], problem: String?) {
        #expect(keys.withUnsafeBufferPointer { BlockCoding.keyProblem($0) } == problem)
    }
}
