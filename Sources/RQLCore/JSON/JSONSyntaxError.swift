/// Why text is not a JSON document: the problem, where reading stopped (1-based line and column,
/// and the byte offset, which is what locates a bad byte in a file that is not UTF-8), and, for
/// a repeated key, the path of the object that repeats it.
///
///     do { _ = try JSONValue.parse(#"{"a": {"b": 1, "b": 2}}"#) }
///     catch { print(error) }
///     // JSON error at line 1, column 16 (byte offset 15): duplicate key 'b' in 'a'
public struct JSONSyntaxError: Error, Hashable, Sendable, CustomStringConvertible {
    public let message: String
    public let line: Int
    /// Counts characters (Unicode scalars) from the start of the line, from 1.
    public let column: Int
    /// Bytes from the start of the document, from 0.
    public let offset: Int
    /// The members and elements from the document's root to the value where the error is, for
    /// errors that are about a value rather than a byte (a repeated key).
    public var path: [JSONPathComponent] = []
    /// Whether the path is part of the message (set for errors about values, not bytes).
    var namesPath = false

    public init(message: String, line: Int, column: Int, offset: Int) {
        self.message = message
        self.line = line
        self.column = column
        self.offset = offset
    }

    public var description: String {
        var text = "JSON error at line \(line), column \(column) (byte offset \(offset)): \(message)"
        if namesPath { text += " in " + (path.isEmpty ? "the top-level object" : "'\(JSONPathComponent.text(path))'") }
        return text
    }

    /// The error with `component` in front of its path: how a container adds itself on the way out.
    func inside(_ component: JSONPathComponent) -> JSONSyntaxError {
        var error = self
        error.path.insert(component, at: 0)
        return error
    }

    /// The error with `components` in front of its path.
    public func inside(_ components: [JSONPathComponent]) -> JSONSyntaxError {
        var error = self
        error.path.insert(contentsOf: components, at: 0)
        return error
    }
}

/// One step of a path into a JSON document: an object's member or an array's element.
public enum JSONPathComponent: Hashable, Sendable {
    /// The member with this key.
    case key(String)
    /// The element at this zero-based position.
    case index(Int)

    /// The path as the dataset format's errors write it: `objects.Dog[3].companion`, with keys
    /// that are not plain names in brackets (`map["a.b"]`).
    public static func text(_ path: [JSONPathComponent]) -> String {
        var out = ""
        for component in path {
            switch component {
            case .index(let index): out += "[\(index)]"
            case .key(let key):
                let plain =
                    !key.isEmpty
                    && key.unicodeScalars.allSatisfy {
                        $0 != "." && $0 != "[" && $0 != "]" && $0 != "\"" && $0 != " " && TerminalText.escape($0) == nil
                    }
                if plain {
                    out += out.isEmpty ? key : "." + key
                } else {
                    out += "[" + JSONValue.string(key).serialized() + "]"
                }
            }
        }
        return out
    }
}
