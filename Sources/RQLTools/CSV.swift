import RQLCore

/// Comma-separated values as RFC 4180 writes them: fields joined by commas, each line ended by
/// CRLF (as the RFC and `sqlite3 -csv` do), and a field that holds a comma, a double quote, CR or
/// LF enclosed in double quotes with each double quote doubled. Other text is written as it is.
///
///     CSV.line(["Rex", "says \"hi\", twice"])   // "Rex,\"says \"\"hi\"\", twice\"\r\n"
enum CSV {
    /// One field, quoted when it must be.
    static func field(_ text: String) -> String {
        let needsQuotes = text.utf8.contains {
            $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 13 || $0 == 10
        }
        guard needsQuotes else { return text }
        return "\"" + text.replacingAll("\"", with: "\"\"") + "\""
    }

    /// One record, with its line break.
    static func line(_ fields: [String]) -> String {
        fields.map(field).joined(separator: ",") + "\r\n"
    }

    /// `rqlc run --format csv` starts with a header of the class's stored properties (backlinks
    /// are computed, never written).
    static func header(of objectSchema: ObjectSchema) -> String {
        line(objectSchema.properties.filter { !$0.isBacklink }.map(\.name))
    }

    /// One object (as `DatasetExporter.object` writes it) as a record: a value as its text (a
    /// string as it is, a number or boolean as JSON writes it), null as an empty field, and a
    /// collection, a link (the target's key: `"Rex"` for a string key) or an embedded object as
    /// its JSON text in the dataset format, in one field.
    static func record(_ object: JSONValue, of objectSchema: ObjectSchema) -> String {
        guard case .object(let members) = object else { return "" }
        let properties = objectSchema.properties.filter { !$0.isBacklink }
        return line(zip(properties, members).map { text(of: $1.value, $0) })
    }

    /// A property's value as one field's text.
    private static func text(of value: JSONValue, _ property: Property) -> String {
        switch value {
        case .null: ""
        case .string(let string) where !property.isLink: string
        default: value.serialized()
        }
    }
}

extension String {
    /// The text with every `target` scalar replaced, by scalars: a quote followed by a combining
    /// mark is one Character but still a quote to a CSV reader.
    fileprivate func replacingAll(_ target: Unicode.Scalar, with replacement: String) -> String {
        var result = ""
        result.reserveCapacity(utf8.count)
        for scalar in unicodeScalars {
            if scalar == target { result += replacement } else { result.unicodeScalars.append(scalar) }
        }
        return result
    }
}
