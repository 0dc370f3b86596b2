/// Which index kinds a store keeps for a property. The dataset format has one switch,
/// `indexed`; what it buys depends on the type, so that a query planner can decide from the
/// schema alone (and a plan cached for a schema stays valid at every version of the data):
///
/// - every indexed property has a hash index (`TableReader.indexLookup`) for `==` and `IN`;
/// - an indexed `int`, `float`, `double`, `decimal128`, `date`, `objectId` or `uuid` property
///   also has a sorted index (`TableReader.indexRange`) for `<`, `<=`, `>`, `>=` and
///   `BETWEEN`. Strings are left out on purpose: sorting a million of them at load time costs
///   about a second, and string ranges are rare in Realm queries; `bool` has two values, where a
///   range is an equality.
///
/// ```swift
/// Property(name: "age", type: .int, isIndexed: true).hasSortedIndex     // true
/// Property(name: "city", type: .string, isIndexed: true).hasSortedIndex // false: hash index only
/// ```
extension Property {
    /// Whether the store keeps a sorted index on this property, answering range lookups.
    public var hasSortedIndex: Bool {
        isIndexed && collection == .single && type.supportsSortedIndex
    }
}

extension PropertyType {
    /// Whether an indexed single property of this type gets a sorted index as well as a hash index.
    public var supportsSortedIndex: Bool {
        switch self {
        case .int, .float, .double, .decimal128, .date, .objectId, .uuid: true
        case .bool, .string, .data, .mixed, .object, .linkingObjects: false
        }
    }
}
