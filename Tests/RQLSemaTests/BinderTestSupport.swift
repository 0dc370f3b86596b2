import RQLCore
import RQLIR
import RQLSema
import RQLSyntax

/// A small schema that has every kind of property the binder distinguishes.
enum TestSchema {
    static let schema: Schema = {
        func property(_ name: String, _ type: String, _ className: String) -> Property {
            // The type strings below are all valid; a failure here is a broken test fixture.
            (try? Property(name: name, typeSyntax: type, className: className))
                ?? Property(name: name, type: .string)
        }
        var description = property("description", "string", "Dog")
        description.isFullText = true
        let dog = ObjectSchema(
            name: "Dog",
            properties: [
                property("name", "string", "Dog"),
                property("age", "int", "Dog"),
                property("weight", "float?", "Dog"),
                property("height", "double", "Dog"),
                property("price", "decimal128?", "Dog"),
                property("tags", "list<string>", "Dog"),
                property("scores", "list<int>", "Dog"),
                property("toys", "list<Toy>", "Dog"),
                property("owner", "Person?", "Dog"),
                property("meta", "map<int>", "Dog"),
                property("extra", "mixed", "Dog"),
                property("data", "data", "Dog"),
                property("born", "date", "Dog"),
                property("location", "Position?", "Dog"),
                description,
                property("owners", "linkingObjects<Person.dogs>", "Dog"),
                property("friends", "map<Dog?>", "Dog"),
                property("flags", "set<int>", "Dog"),
            ]
        )
        let person = ObjectSchema(
            name: "Person",
            properties: [
                property("id", "int", "Person"),
                property("name", "string", "Person"),
                property("dogs", "list<Dog>", "Person"),
                property("best", "Dog?", "Person"),
            ],
            primaryKey: "id"
        )
        let toy = ObjectSchema(
            name: "Toy",
            properties: [property("name", "string", "Toy"), property("price", "double", "Toy")],
            primaryKey: "name"
        )
        let position = ObjectSchema(
            name: "Position",
            properties: [property("type", "string", "Position"), property("coordinates", "list<double>", "Position")],
            isEmbedded: true
        )
        return (try? Schema([dog, person, toy, position])) ?? (try! Schema([]))
    }()

    static let binder = Binder(schema: schema)

    static func bind(
        _ text: String,
        on className: String = "Dog",
        _ arguments: [QueryArgument] = [],
        dialect: Dialect = .rql,
        variables: [String: QueryArgument] = [:]
    ) throws -> BoundQuery {
        try binder.bind(
            try Parser.parse(text, dialect: dialect),
            className: className,
            arguments: arguments,
            variables: variables
        )
    }

    /// The error binding `text` throws, or nil when it binds.
    static func bindError(
        _ text: String,
        on className: String = "Dog",
        _ arguments: [QueryArgument] = [],
        dialect: Dialect = .rql
    ) throws -> BindError? {
        let syntax = try Parser.parse(text, dialect: dialect)
        do {
            _ = try binder.bind(syntax, className: className, arguments: arguments)
            return nil
        } catch {
            return error
        }
    }

    /// The one comparison of a bound predicate.
    static func comparison(
        _ text: String,
        on className: String = "Dog",
        _ arguments: [QueryArgument] = []
    ) throws
        -> BoundComparison?
    {
        if case .comparison(let comparison) = try bind(text, on: className, arguments).predicate { return comparison }
        return nil
    }

    static func index(_ name: String, of className: String) -> Int {
        schema[className]?.propertyIndex(named: name) ?? -1
    }

    /// `.property` step of `className.name`.
    static func step(_ className: String, _ name: String) -> PathStep {
        .property(className: className, index: index(name, of: className), name: name)
    }

    /// The source text a span covers.
    static func text(_ source: String, _ span: SourceSpan) -> String {
        String(decoding: Array(source.utf8)[span.offset..<min(span.end, source.utf8.count)], as: UTF8.self)
    }
}
