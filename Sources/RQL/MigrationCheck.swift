import RQLCore

/// What differs between a class as a store holds it and as the program declares it, written
/// as realm-core writes it when a migration is required:
///
/// ```swift
/// MigrationCheck.message(stored: dogV1, declared: dogV2, key: key)
/// // Migration is required due to the following errors (realm at /tmp/pets.realm):
/// // - Property 'Dog.age' has been added.
/// ```
///
/// Migrations themselves are not available yet, so every difference is an error, including the
/// index changes that realm-core applies without one.
enum MigrationCheck {
    static func message(stored: RQLCore.ObjectSchema, declared: RQLCore.ObjectSchema, key: StoreKey) -> String {
        "Migration is required due to the following errors (realm at \(key)):\n"
            + differences(stored: stored, declared: declared).map { "- " + $0 }.joined(separator: "\n")
    }

    /// One sentence per difference, in realm-core's words.
    static func differences(stored: RQLCore.ObjectSchema, declared: RQLCore.ObjectSchema) -> [String] {
        let name = declared.name
        var found: [String] = []
        if stored.isEmbedded != declared.isEmbedded {
            let kind = { (embedded: Bool) in embedded ? "embedded" : "top-level" }
            found.append(
                "Class '\(name)' has been changed from \(kind(stored.isEmbedded)) to \(kind(declared.isEmbedded))."
            )
        }
        for property in stored.properties where declared.property(named: property.name) == nil {
            found.append("Property '\(name).\(property.name)' has been removed.")
        }
        for property in declared.properties {
            guard let old = stored.property(named: property.name) else {
                found.append("Property '\(name).\(property.name)' has been added.")
                continue
            }
            let qualified = "'\(name).\(property.name)'"
            if old.type != property.type || old.collection != property.collection {
                found.append(
                    "Property \(qualified) has been changed from '\(old.typeSyntax)' to '\(property.typeSyntax)'."
                )
            } else if old.isOptional != property.isOptional {
                found.append("Property \(qualified) has been made \(property.isOptional ? "optional" : "required").")
            }
            if old.isIndexed != property.isIndexed {
                found.append("Property \(qualified) has been made \(property.isIndexed ? "indexed" : "unindexed").")
            }
            if old.isFullText != property.isFullText {
                found.append(
                    "Property \(qualified) has \(property.isFullText ? "gained" : "lost") its full-text index."
                )
            }
        }
        switch (stored.primaryKey, declared.primaryKey) {
        case (nil, .some):
            found.append("Primary Key for class '\(name)' has been added.")
        case (.some, nil):
            found.append("Primary Key for class '\(name)' has been removed.")
        case (.some(let old), .some(let new)) where old != new:
            found.append("Primary Key for class '\(name)' has changed from '\(old)' to '\(new)'.")
        default:
            break
        }
        return found
    }

    /// Whether the two declarations hold the same properties, only in another order (which
    /// needs no migration: properties are matched by name).
    static func differsOnlyInOrder(stored: RQLCore.ObjectSchema, declared: RQLCore.ObjectSchema) -> Bool {
        stored.name == declared.name && stored.primaryKey == declared.primaryKey
            && stored.isEmbedded == declared.isEmbedded && stored.properties.count == declared.properties.count
            && stored.properties.allSatisfy { declared.property(named: $0.name) == $0 }
    }
}
