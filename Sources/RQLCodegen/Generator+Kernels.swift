import RQLBytecode
import RQLCore
import RQLIR

/// Which comparisons become one typed filter instruction: a column of the scanned class (a
/// single-valued, non-link property read straight off the row) against a constant of the
/// column's own type, or against an IN list of such constants. Anything else keeps the row
/// evaluator's generality.
extension Generator {
    /// One typed filter to emit.
    struct Kernel {
        var opcode: Opcode
        var column: Int32
        var op: ComparisonOperator
        var constant: Constant?
        var p5: UInt16 = 0
        /// The filter keeps no row at all (`x < NULL`).
        var keepsNothing = false
        var comment: String
    }

    mutating func emit(_ kernel: Kernel, into register: Int32) {
        if kernel.keepsNothing {
            builder.emit(.selectClear, p1: register, comment: kernel.comment)
            return
        }
        let p4 = kernel.constant.map { builder.constant($0) } ?? -1
        builder.emit(
            kernel.opcode,
            p1: register,
            p2: kernel.column,
            p3: kernel.opcode == .filterIntIn || kernel.opcode == .filterStringIn ? 0 : kernel.op.code,
            p4: p4,
            p5: kernel.p5,
            comment: kernel.comment
        )
    }

    func kernel(for comparison: BoundComparison) -> Kernel? {
        guard comparison.lhs.quantifier == nil else { return nil }
        if let column = scalarColumn(comparison.lhs), !comparison.rhs.isMultiValued, comparison.rhs.quantifier == nil,
            case .constant(let value) = comparison.rhs.expression
        {
            return kernel(column, comparison.op, value, comparison.options)
        }
        if let column = scalarColumn(comparison.rhs), !comparison.lhs.isMultiValued, comparison.rhs.quantifier == nil,
            case .constant(let value) = comparison.lhs.expression, let flipped = comparison.op.flipped
        {
            return kernel(column, flipped, value, comparison.options)
        }
        if let column = scalarColumn(comparison.lhs), comparison.op == .equal, comparison.options.isEmpty,
            comparison.rhs.quantifier ?? .any == .any, case .constantList(let values) = comparison.rhs.expression
        {
            return membership(column, values)
        }
        return nil
    }

    /// The column an operand reads when it is one scalar property of the scanned object.
    func scalarColumn(_ operand: BoundOperand) -> (index: Int, property: Property)? {
        guard operand.quantifier == nil, !operand.isMultiValued, case .path(let path) = operand.expression,
            path.root == .object, !path.isMultiValued, path.steps.count == 1,
            case .property(let className, let index, _) = path.steps[0], className == objectSchema.name,
            index >= 0, index < objectSchema.properties.count
        else { return nil }
        let property = objectSchema.properties[index]
        guard property.collection == .single, !property.isLink, !property.isBacklink else { return nil }
        switch property.type {
        case .bool, .int, .float, .double, .string, .data, .date, .decimal128, .objectId, .uuid:
            return (index, property)
        case .mixed, .object, .linkingObjects: return nil
        }
    }

    private func kernel(
        _ column: (index: Int, property: Property),
        _ op: ComparisonOperator,
        _ value: Value,
        _ options: StringOptions
    ) -> Kernel? {
        // Spelled only for EXPLAIN (`planRows`): a program that only runs carries no comments.
        var comment = ""
        if planRows {
            var spelling = op.rawValue
            if options.contains(.caseInsensitive) || options.contains(.diacriticInsensitive) {
                spelling +=
                    "[" + (options.contains(.caseInsensitive) ? "c" : "")
                    + (options.contains(.diacriticInsensitive) ? "d" : "") + "]"
            }
            comment = "\(column.property.name) \(spelling) \(value)"
        }
        let index = Int32(column.index)
        if case .null = value {
            guard options.isEmpty else { return nil }
            switch op {
            case .equal, .lessOrEqual, .greaterOrEqual:
                return Kernel(opcode: .filterNull, column: index, op: .equal, comment: comment)
            case .notEqual:
                return Kernel(opcode: .filterNull, column: index, op: .notEqual, comment: comment)
            case .less, .greater:
                return Kernel(opcode: .filterNull, column: index, op: op, keepsNothing: true, comment: comment)
            case .beginsWith, .endsWith, .contains, .like, .in, .text, .matches:
                return nil
            }
        }
        let ordered: Bool =
            switch op {
            case .equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual: true
            case .beginsWith, .endsWith, .contains, .like, .in, .text, .matches: false
            }
        switch (column.property.type, value) {
        case (.int, .int) where ordered && options.isEmpty:
            return Kernel(opcode: .filterInt, column: index, op: op, constant: .value(value), comment: comment)
        case (.double, .double) where ordered && options.isEmpty:
            return Kernel(opcode: .filterDouble, column: index, op: op, constant: .value(value), comment: comment)
        case (.float, .float) where ordered && options.isEmpty:
            return Kernel(opcode: .filterFloat, column: index, op: op, constant: .value(value), comment: comment)
        case (.date, .date) where ordered && options.isEmpty:
            return Kernel(opcode: .filterDate, column: index, op: op, constant: .value(value), comment: comment)
        case (.bool, .bool) where (op == .equal || op == .notEqual) && options.isEmpty:
            return Kernel(opcode: .filterBool, column: index, op: op, constant: .value(value), comment: comment)
        case (.string, .string) where !ordered || op == .equal || op == .notEqual:
            return Kernel(
                opcode: .filterString,
                column: index,
                op: op,
                constant: .value(value),
                p5: UInt16(options.rawValue),
                comment: comment
            )
        default:
            return nil
        }
    }

    private func membership(_ column: (index: Int, property: Property), _ values: [Value]) -> Kernel? {
        let hasNull = values.contains { $0.isNull }
        let comment = planRows ? "\(column.property.name) IN {\(values.count) values}" : ""
        switch column.property.type {
        case .int where values.allSatisfy({ if case .int = $0 { true } else { $0.isNull } }):
            return Kernel(
                opcode: .filterIntIn,
                column: Int32(column.index),
                op: .equal,
                constant: .values(hasNull ? values.filter { !$0.isNull } : values),
                p5: hasNull ? 1 : 0,
                comment: comment
            )
        case .string where values.allSatisfy({ if case .string = $0 { true } else { $0.isNull } }):
            return Kernel(
                opcode: .filterStringIn,
                column: Int32(column.index),
                op: .equal,
                constant: .values(hasNull ? values.filter { !$0.isNull } : values),
                p5: hasNull ? 1 : 0,
                comment: comment
            )
        default:
            return nil
        }
    }
}
