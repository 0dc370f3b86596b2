import RQLBytecode
import RQLCore
import RQLIR

/// Comparisons in a correlated SUBQUERY's program with a side read only from outside that is not
/// one value (`$t.price IN $d.scores`, `ALL $d.scores > $t.price`, `$d.age == pals.age`,
/// `$t.price == $d.toys[0].price`): the outer program computes that side's groups per row with
/// `LoadGroups` and passes them as a parameter (`Generator+SubqueryParameters.swift`); here
/// `LoadParameter` puts them in a value register for every element, the other side gets its
/// `LoadGroups`, and `CompareGroups` decides, in the form the whole comparison has (element by
/// element, membership or quantified), exactly as with both sides loaded here.
extension Generator {
    /// How an outer program loads an operand's groups for a subquery's program.
    struct GroupsLoad {
        /// `.valueRegister(i)` in it stands for `loads[i]` until emitted.
        var operand: GroupOperand
        var loads: [ValueExpression]
        var sequences: Bool
    }

    /// Emits `load` for the rows of `register`; returns the value register of the groups.
    mutating func emitGroups(_ load: GroupsLoad, into register: Int32) -> Int32 {
        var operand = load.operand
        if !load.loads.isEmpty {
            let registers = load.loads.map { Int(emitValue($0, into: register)) }
            operand = operand.replacingRegisters(registers)
        }
        let v = builder.makeValueRegister()
        builder.emit(
            .loadGroups,
            p1: register,
            p3: v,
            p4: builder.constant(.groupOperand(operand, sequences: load.sequences))
        )
        return v
    }

    /// A comparison with groups passed as a parameter on one side or both.
    struct ParameterGroupsCompared {
        /// The comparison's form and its other side; a parameter's side holds a stand-in.
        var compared: GroupCompared
        /// The parameter read on the left (right), if that side is one.
        var lhsParameter: Int?
        var rhsParameter: Int?
    }

    /// Whether a side of `comparison` is groups passed as a parameter (`$x`, `@type` of it).
    static func readsParameterGroups(_ comparison: BoundComparison) -> Bool {
        groupsParameter(comparison.lhs.expression) != nil || groupsParameter(comparison.rhs.expression) != nil
    }

    /// The parameter number when `expression` is a groups placeholder or `@type` of one.
    private static func groupsParameter(_ expression: BoundExpression) -> Int? {
        switch expression {
        case .path(let path), .type(let path): groupsParameterIndex(path)
        default: nil
        }
    }

    /// The register form of a comparison with a groups parameter, or nil (then its SUBQUERY is
    /// not lowered).
    func parameterGroupsCompared(for comparison: BoundComparison) -> ParameterGroupsCompared? {
        // The form is decided as for any comparison, from a copy with stand-ins in place of the
        // parameters: of the same multiplicity and quantifier, `@type` kept, never a list.
        var substituted = comparison
        let lhsParameter = Self.groupsParameter(comparison.lhs.expression)
        let rhsParameter = Self.groupsParameter(comparison.rhs.expression)
        if lhsParameter != nil { substituted.lhs.expression = standIn(for: comparison.lhs.expression) }
        if rhsParameter != nil { substituted.rhs.expression = standIn(for: comparison.rhs.expression) }
        guard let compared = groupCompared(for: substituted) else { return nil }
        return ParameterGroupsCompared(compared: compared, lhsParameter: lhsParameter, rhsParameter: rhsParameter)
    }

    /// What stands for a parameter when the comparison's form is decided: `@type` of the object
    /// for `@type` of a parameter, otherwise a constant.
    private func standIn(for expression: BoundExpression) -> BoundExpression {
        guard case .type = expression else { return .constant(.null) }
        return .type(
            BoundPath(
                root: .object,
                steps: [],
                isMultiValued: false,
                rootClassName: objectSchema.name,
                valueType: .mixed
            )
        )
    }

    mutating func emit(_ parameterized: ParameterGroupsCompared, into register: Int32, comment: String) {
        var compared = parameterized.compared
        if !compared.loads.isEmpty {
            let registers = compared.loads.map { Int(emitValue($0, into: register)) }
            compared.lhs = compared.lhs.replacingRegisters(registers)
            compared.rhs = compared.rhs.replacingRegisters(registers)
        }
        let lhs = emitSide(compared.lhs, parameterized.lhsParameter, compared.sequences, into: register)
        let rhs = emitSide(compared.rhs, parameterized.rhsParameter, compared.sequences, into: register)
        builder.emit(
            .compareGroups,
            p1: register,
            p2: lhs,
            p4: builder.constant(.groupComparison(compared.comparison)),
            p5: UInt16(clamping: rhs),
            comment: comment
        )
    }

    /// One side's groups: the parameter's (`LoadParameter`), or the operand's (`LoadGroups`).
    private mutating func emitSide(
        _ operand: GroupOperand,
        _ parameter: Int?,
        _ sequences: Bool,
        into register: Int32
    ) -> Int32 {
        let v = builder.makeValueRegister()
        if let parameter {
            builder.emit(.loadParameter, p1: register, p2: Int32(parameter), p3: v)
        } else {
            builder.emit(
                .loadGroups,
                p1: register,
                p3: v,
                p4: builder.constant(.groupOperand(operand, sequences: sequences))
            )
        }
        return v
    }
}
