import RQLCore
import Testing

@Suite("Column selection")
struct ColumnSelectionTests {
    @Test("a selection contains exactly the properties it names")
    func containsNamed() {
        let selection = ColumnSelection([4, 1, 4, -3])
        #expect((0..<70).filter { selection.contains($0) } == [1, 4])
        #expect(selection.properties(below: 7) == [1, 4])
        #expect(selection.properties(below: 3) == [1])
        #expect(!selection.isAll)
    }

    @Test(
        "how many entries a block's column array needs",
        arguments: [
            ([Int](), 7, 0), ([0], 7, 1), ([1, 4], 7, 5), ([6], 7, 7), ([6], 5, 0), ([2, 6], 5, 3), ([63], 64, 64),
        ]
    )
    func columnCount(properties: [Int], tableColumns: Int, expected: Int) {
        #expect(ColumnSelection(properties).columnCount(below: tableColumns) == expected)
    }

    @Test("all and none")
    func allAndNone() {
        #expect(ColumnSelection.all.contains(0) && ColumnSelection.all.contains(200))
        #expect(!ColumnSelection.all.contains(-1))
        #expect(ColumnSelection.all.columnCount(below: 9) == 9)
        #expect(ColumnSelection.all.properties(below: 3) == [0, 1, 2])
        #expect(!(0..<64).contains { ColumnSelection.none.contains($0) })
        #expect(ColumnSelection.none.columnCount(below: 9) == 0)
        #expect(ColumnSelection.none == ColumnSelection([]))
    }

    @Test("adding a property, and a property past 63, which selects every column")
    func adding() {
        let selection = ColumnSelection.none.adding(3).adding(0).adding(3)
        #expect(selection == ColumnSelection([0, 3]))
        #expect(selection.adding(-1) == selection)
        #expect(selection.adding(64).isAll)
        #expect(ColumnSelection([2, 64]).isAll)
        #expect(ColumnSelection.all.adding(5).isAll)
    }
}
