/// Reads the `schema` section of a dataset document into a validated `Schema`.
package enum DatasetSchemaReader {
    package static func read(_ section: JSONValue) throws(DatasetError) -> Schema {
        guard case .object(let classMembers) = section else {
            throw .invalidDocument(path: "schema", reason: "expected an object of classes, found \(section.typeName)")
        }
        var classes: [ObjectSchema] = []
        for member in classMembers {
            classes.append(try readClass(member.key, member.value))
        }
        do {
            return try Schema(classes)
        } catch {
            throw .schema(error)
        }
    }

    private static func readClass(_ name: String, _ spec: JSONValue) throws(DatasetError) -> ObjectSchema {
        let path = "schema.\(name)"
        guard case .object(let members) = spec else {
            throw .invalidDocument(path: path, reason: "expected a class object, found \(spec.typeName)")
        }
        var propertiesSpec: [JSONMember]?
        var primaryKey: String?
        var isEmbedded = false
        var indexed: [String] = []
        var fullText: [String] = []
        for member in members {
            switch member.key {
            case "properties":
                guard case .object(let list) = member.value else {
                    throw .invalidDocument(path: path + ".properties", reason: "expected an object of properties")
                }
                propertiesSpec = list
            case "primaryKey":
                guard case .string(let key) = member.value else {
                    throw .invalidDocument(path: path + ".primaryKey", reason: "expected a property name")
                }
                primaryKey = key
            case "embedded":
                guard case .bool(let flag) = member.value else {
                    throw .invalidDocument(path: path + ".embedded", reason: "expected true or false")
                }
                isEmbedded = flag
            case "indexed":
                indexed = try names(member.value, path: path + ".indexed")
            case "fulltext":
                fullText = try names(member.value, path: path + ".fulltext")
            default:
                throw .invalidDocument(path: path + "." + member.key, reason: "unknown class attribute")
            }
        }
        guard let propertiesSpec else {
            throw .invalidDocument(path: path, reason: "missing 'properties'")
        }
        var properties: [Property] = []
        for member in propertiesSpec {
            guard case .string(let typeText) = member.value else {
                throw .invalidDocument(path: path + ".properties." + member.key, reason: "expected a type string")
            }
            do {
                var property = try Property(name: member.key, typeSyntax: typeText, className: name)
                property.isIndexed = indexed.contains(member.key)
                property.isFullText = fullText.contains(member.key)
                properties.append(property)
            } catch {
                throw .schema(error)
            }
        }
        for indexName in indexed + fullText where !properties.contains(where: { $0.name == indexName }) {
            throw .schema(.unknownIndexedProperty(className: name, property: indexName))
        }
        return ObjectSchema(name: name, properties: properties, primaryKey: primaryKey, isEmbedded: isEmbedded)
    }

    private static func names(_ value: JSONValue, path: String) throws(DatasetError) -> [String] {
        guard case .array(let elements) = value else {
            throw .invalidDocument(path: path, reason: "expected an array of property names")
        }
        var result: [String] = []
        for element in elements {
            guard case .string(let name) = element else {
                throw .invalidDocument(path: path, reason: "expected an array of property names")
            }
            result.append(name)
        }
        return result
    }

    /// The `schema` section for `schema`, in the format `read` accepts.
    package static func write(_ schema: Schema) -> JSONValue {
        .object(
            schema.classes.map { objectSchema in
                var members: [JSONMember] = []
                if let key = objectSchema.primaryKey { members.append(JSONMember("primaryKey", .string(key))) }
                if objectSchema.isEmbedded { members.append(JSONMember("embedded", .bool(true))) }
                let indexed = objectSchema.properties.filter(\.isIndexed).map { JSONValue.string($0.name) }
                if !indexed.isEmpty { members.append(JSONMember("indexed", .array(indexed))) }
                let fullText = objectSchema.properties.filter(\.isFullText).map { JSONValue.string($0.name) }
                if !fullText.isEmpty { members.append(JSONMember("fulltext", .array(fullText))) }
                members.append(
                    JSONMember(
                        "properties",
                        .object(objectSchema.properties.map { JSONMember($0.name, .string($0.typeSyntax)) })
                    )
                )
                return JSONMember(objectSchema.name, .object(members))
            }
        )
    }
}
