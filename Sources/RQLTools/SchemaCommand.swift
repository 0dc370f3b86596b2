import RQLCore
import RQLDatasets

/// `rqlc schema [FILE] [CLASS]`: the schema of a dataset or store file (the demo by default),
/// one class after another: each property with its type, optionality, collection and link
/// target, the primary key, indexes and embedded classes.
enum SchemaCommand: Command {
    static let name = "schema"
    static let summary = "Print the classes and properties of a dataset or store file."
    static let help = """
        Usage: rqlc schema [--format text|csv|json] [FILE] [CLASS]
                           [--data FILE | --schema FILE | --demo] [CLASS]

        Prints the schema of FILE (a JSON dataset or a store file; the built-in demo database
        when none is given), or only CLASS: each class with its properties, their types
        (`int?` is optional, `list<Dog>` a list of links), the primary key, indexes (hash, and
        sorted for ranges), full-text indexes, link targets, backlinks and embedded classes.
        With one argument and no --data, a class of the demo database by that name is that
        class, anything else a file.

        Options:
          --format F          text (default), csv (one property a line: class, embedded,
                              property, type, optional, collection, target, primaryKey,
                              indexed, fullText), or json (the dataset format's "schema"
                              section, which --schema reads back).
        \(DataSource.help)

        """
    static let valuedOptions = DataSource.options.union(["--format"])
    static let flags = DataSource.flags

    static func run(_ list: ArgumentList, _ context: CommandContext) throws(CommandFailure) {
        let format = try list.value("--format") ?? "text"
        guard ["text", "csv", "json"].contains(format) else {
            throw .usage("unknown format '\(format)'; use text, csv or json")
        }
        var list = list
        var positionals = list.positionals
        var lone: CommandArgument?
        let sources = [try list.argument("--data") != nil, try list.argument("--schema") != nil, list.has("--demo")]
        if !sources.contains(true), let first = positionals.first,
            positionals.count == 2 || (try? DatasetLoader.loadSchema(json: DemoDataset.json))?[first.text] == nil
        {
            list = list.adding("--data", first)
            positionals.removeFirst()
            lone = positionals.isEmpty ? first : nil
        }
        guard positionals.count <= 1 else { throw .usage("give at most one FILE and one CLASS") }
        let schema: Schema
        do {
            schema = try DataSource.load(list, need: .schema, context).reader.schema
        } catch {
            // `rqlc schema Cta`: a misspelt class of the demo database reads as a missing file.
            guard case .io(let problem) = error, let lone else { throw error }
            throw .io(problem + "; nor is '\(lone.text)' a class of the demo database")
        }
        let classes: [ObjectSchema]
        if let name = positionals.first?.text {
            guard let objectSchema = schema[name] else {
                let names = schema.classes.map { "'\($0.name)'" }.joined(separator: ", ")
                let known = schema.classes.isEmpty ? "the schema has no classes" : "the classes are " + names
                throw .invalidInput("error: unknown class '\(name)'; \(known)\n".escapedForTerminal)
            }
            classes = [objectSchema]
        } else {
            classes = schema.classes
        }
        switch format {
        case "csv": try context.output.write(SchemaText.csv(classes))
        case "json": try context.output.write(SchemaText.json(classes, of: schema))
        default: try context.output.write(SchemaText.text(classes, of: schema))
        }
    }
}

/// A schema as `rqlc schema` and the shell's `.schema` print it. It reads only a `Schema`, so it
/// is the same for a JSON dataset, a store file and the demo database.
enum SchemaText {
    /// One block per class: its name (and whether it is embedded), then one property a line: name,
    /// type in the dataset format's syntax, and what the type does not say at a glance.
    ///
    ///     Dog
    ///       name         string   primary key
    ///       favoriteToy  DogToy?  link to DogToy
    static func text(_ classes: [ObjectSchema], of schema: Schema) -> String {
        classes.map { objectSchema in
            var text = TerminalText.escaped(objectSchema.name) + (objectSchema.isEmbedded ? " (embedded)" : "") + "\n"
            let rows = objectSchema.properties.map { property in
                (
                    name: TerminalText.escaped(property.name),
                    type: TerminalText.escaped(property.typeSyntax),
                    notes: notes(property, in: objectSchema, of: schema).joined(separator: ", ")
                )
            }
            guard !rows.isEmpty else { return text + "  (no properties)\n" }
            let nameWidth = rows.map { DisplayWidth.of($0.name) }.max() ?? 0
            let typeWidth = rows.map { DisplayWidth.of($0.type) }.max() ?? 0
            for row in rows {
                var line = "  " + padded(row.name, to: nameWidth) + "  " + padded(row.type, to: typeWidth)
                line += "  " + TerminalText.escaped(row.notes)
                while line.last == " " { line.removeLast() }
                text += line + "\n"
            }
            return text
        }.joined(separator: "\n")
    }

    /// One property a line, with a header; booleans as `true`/`false`, so a spreadsheet or
    /// `sqlite3 .import` reads the columns as they are.
    static func csv(_ classes: [ObjectSchema]) -> String {
        var text = CSV.line([
            "class", "embedded", "property", "type", "optional", "collection", "target", "primaryKey", "indexed",
            "fullText",
        ])
        for objectSchema in classes {
            for property in objectSchema.properties {
                let collection: String =
                    switch property.collection {
                    case .single: "single"
                    case .list: property.isBacklink ? "backlinks" : "list"
                    case .set: "set"
                    case .map: "map"
                    }
                text += CSV.line([
                    objectSchema.name, String(objectSchema.isEmbedded), property.name, property.typeSyntax,
                    String(property.isOptional), collection, property.type.targetClassName ?? "",
                    String(objectSchema.primaryKey == property.name), indexes(property) ?? "none",
                    String(property.isFullText),
                ])
            }
        }
        return text
    }

    /// The dataset format's `schema` section for `classes`, as `--schema FILE` reads it.
    static func json(_ classes: [ObjectSchema], of schema: Schema) -> String {
        guard case .object(let members) = DatasetExporter.schema(schema) else { return "" }
        let names = Set(classes.map(\.name))
        let section = JSONValue.object(members.filter { names.contains($0.key) })
        return JSONValue.object([JSONMember("schema", section)]).serialized(pretty: true) + "\n"
    }

    /// What a property's type leaves unsaid: the key, optionality, the link and its kind, indexes.
    private static func notes(_ property: Property, in objectSchema: ObjectSchema, of schema: Schema) -> [String] {
        var notes: [String] = []
        if objectSchema.primaryKey == property.name { notes.append("primary key") }
        switch property.type {
        case .object(let target):
            let many = property.collection != .single
            if schema[target]?.isEmbedded == true {
                notes.append("embeds " + target + (many ? " objects" : ""))
            } else {
                notes.append((many ? "links to " : "link to ") + target)
            }
        case .linkingObjects(let origin, let link):
            notes.append("backlinks from \(origin).\(link)")
        default:
            if property.isOptional { notes.append(property.collection == .single ? "optional" : "optional elements") }
        }
        if let indexes = indexes(property) { notes.append("indexed (\(indexes))") }
        if property.isFullText { notes.append("full-text index") }
        return notes
    }

    /// The index kinds a store keeps for the property (`Property.hasSortedIndex`), if any.
    private static func indexes(_ property: Property) -> String? {
        guard property.isIndexed else { return nil }
        return property.hasSortedIndex ? "hash, sorted" : "hash"
    }

    private static func padded(_ text: String, to width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - DisplayWidth.of(text)))
    }
}
