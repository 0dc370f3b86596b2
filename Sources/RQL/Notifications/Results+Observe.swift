import Foundation
import RQLCore
import RQLStorage

// What observations need of `Results`: a copy at another version, and keys computed
// elsewhere recorded as its evaluation.

extension Results {
    /// The same results read through `context` (a frozen copy at another version).
    func rebound(to context: RealmContext) -> Results {
        Results(context: context, source: source.rebound(to: context), plan: plan, make: make)
    }

    /// Records `keys` as the results at `version` (an observation computed them), so that
    /// reading the results there runs nothing. Plain values are not primed (their keys index
    /// elements read with them).
    func prime(version: StoreVersion, keys: [RowKey]) {
        guard context.current === version, case .table = source else { return }
        state.version = version
        state.keys = keys
        state.classIndex = version.classIndex(named: classInfo.className) ?? 0
    }
}
