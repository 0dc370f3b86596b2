import RQLCore

/// Views of a wide block: a class may have thousands of properties, and opening each column's
/// view nests one call per column (its buffers are valid only inside that call), which would
/// overflow the stack. Past `nestedViewLimit` columns the block's rows are copied into
/// block-store segments, whose arrays stay put while the segments are held, and viewed there.
extension ColumnTable {
    /// The most columns opened by nesting; a block with more is copied (one pass over its values,
    /// which a reader of that many columns makes anyway).
    static let nestedViewLimit = 64

    /// Calls `body` with views of rows `rows` of the selected columns below `end` (unopened ones
    /// hold `TableBlock.unopened`), copied into segments that live until `body` returns.
    func withCopiedViews<R>(
        upTo end: Int,
        _ selection: ColumnSelection,
        rows: Range<Int>,
        _ body: ([ColumnView]) throws -> R
    ) rethrows -> R {
        var segments: [Segment] = []
        var views: [ColumnView] = []
        views.reserveCapacity(end)
        for property in 0..<end {
            guard selection.contains(property) else {
                views.append(TableBlock.unopened)
                continue
            }
            let values = rows.map { columns[property].value(at: $0) }
            let segment = Segment.build(Self.copyShape(objectSchema.properties[property]), values)
            views.append(segment.view(count: rows.count))
            segments.append(segment)
        }
        return try withExtendedLifetime(segments) { try body(views) }
    }

    /// The segment shape of a property's values here: a `linkingObjects` column holds a list of
    /// links in this store (a block store computes it instead).
    private static func copyShape(_ property: Property) -> SegmentShape {
        if case .linkingObjects(let originClass, _) = property.type {
            return .collection(.list, element: .fixed(.link(originClass), optional: false))
        }
        return SegmentShape(property)
    }
}
