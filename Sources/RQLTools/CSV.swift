import RQLCore
import RQLDatasets

/// Comma-separated values as RFC 4180 writes them: fields joined by commas, each line ended by
/// CRLF (as the RFC and `sqlite3 -csv` do), and a field that holds a comma, a double quote, CR or
/// LF enclosed in double quotes with each double quote doubled. Other text is written as it is.
///
///     CSV.line(["Rex", "says \"hi\", twice"])   // "Rex,\"says \"\"hi\"\", twice\"\r\n"
enum CSV {
    /// One field, quoted when it must be.
    static func field(_ text: String) -> String {
        var bytes = Array(text.utf8)
        quote(&bytes, from: 0)
        return String(decoding: bytes, as: UTF8.self)
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

    /// The object at `row` of `block` as a record, after `writer.bytes`: a value as its text (a
    /// string as it is, a number or boolean as JSON writes it), null as an empty field, and a
    /// collection, a link (the target's key: `"Rex"` for a string key) or an embedded object as
    /// its JSON text in the dataset format, in one field.
    static func writeRecord<Store: StoreReader>(
        _ block: TableBlock,
        _ row: Int,
        _ writer: inout DatasetObjectWriter<Store>
    ) {
        for (n, property) in writer.storedProperties.enumerated() {
            if n > 0 { writer.bytes.append(UInt8(ascii: ",")) }
            let start = writer.bytes.count
            let isLink = writer.objectSchema.properties[property].isLink
            _ = writer.writeText(block, row, property: property, rawStrings: !isLink)
            quote(&writer.bytes, from: start)
        }
        writer.bytes.append(contentsOf: "\r\n".utf8)
    }

    /// Encloses the field `bytes[start...]` in double quotes, each double quote doubled, when
    /// it holds a comma, a double quote, CR or LF. Bytes, not characters: a quote followed by a
    /// combining mark is one Character but still a quote to a CSV reader.
    private static func quote(_ bytes: inout [UInt8], from start: Int) {
        let needsQuotes = bytes[start...].contains {
            $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 13 || $0 == 10
        }
        guard needsQuotes else { return }
        let field = Array(bytes[start...])
        bytes.removeSubrange(start...)
        bytes.append(UInt8(ascii: "\""))
        for byte in field {
            bytes.append(byte)
            if byte == UInt8(ascii: "\"") { bytes.append(byte) }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
