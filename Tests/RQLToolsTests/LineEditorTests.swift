import Foundation
import Testing

@testable import RQLTools

/// The terminal's bytes for keys.
private enum Key {
    static let left: [UInt8] = [0x1B, 0x5B, 0x44]  // ESC [ D
    static let right: [UInt8] = [0x1B, 0x5B, 0x43]
    static let up: [UInt8] = [0x1B, 0x5B, 0x41]
    static let down: [UInt8] = [0x1B, 0x5B, 0x42]
    static let home: [UInt8] = [0x1B, 0x5B, 0x48]
    static let end: [UInt8] = [0x1B, 0x5B, 0x46]
    static let delete: [UInt8] = Array("\u{1B}[3~".utf8)
    static let backspace: [UInt8] = [0x7F]
    static let enter: [UInt8] = [0x0D]
    static func control(_ letter: Character) -> [UInt8] { [letter.asciiValue! & 0x1F] }
}

extension LineEditor {
    /// Feeds every byte, returning the last event.
    @discardableResult
    mutating func type(_ bytes: [UInt8]) -> Event {
        var last = Event.pending
        for byte in bytes { last = feed(byte) }
        return last
    }

    @discardableResult
    mutating func type(_ text: String) -> Event { type(Array(text.utf8)) }
}

@Suite("rqlc shell: the line editor's keys, as bytes")
struct LineEditorTests {
    @Test("typing inserts at the cursor; Left, Right, Home and End move it")
    func movingAndInserting() {
        var editor = LineEditor()
        #expect(editor.type("age 2") == .changed)
        editor.type(Key.left + Key.left)
        #expect(editor.cursor == 3)
        editor.type(">")
        #expect(editor.text == "age> 2" && editor.cursor == 4)
        editor.type(Key.home)
        #expect(editor.cursor == 0)
        editor.type("x")
        #expect(editor.text == "xage> 2" && editor.cursor == 1)
        editor.type(Key.end)
        #expect(editor.cursor == 7)
        editor.type(Key.right)
        #expect(editor.cursor == 7)
        // Every spelling terminals use for Home and End.
        for home in ["\u{1B}[1~", "\u{1B}[7~", "\u{1B}OH", "\u{01}"] {
            editor.type(Key.end)
            editor.type(home)
            #expect(editor.cursor == 0, "\(Array(home.utf8))")
        }
        for end in ["\u{1B}[4~", "\u{1B}[8~", "\u{1B}OF", "\u{05}"] {
            editor.type(Key.home)
            editor.type(end)
            #expect(editor.cursor == 7, "\(Array(end.utf8))")
        }
        editor.type(Key.control("b") + Key.control("b"))
        #expect(editor.cursor == 5)
        editor.type(Key.control("f"))
        #expect(editor.cursor == 6)
    }

    @Test("a key that cannot act (Left at the start, an unknown sequence) is refused")
    func refused() {
        var editor = LineEditor()
        #expect(editor.type(Key.left) == .refused)
        #expect(editor.type(Key.backspace) == .refused)
        #expect(editor.type("\u{1B}[99~") == .refused)
        #expect(editor.type("\u{1B}x") == .refused)
        #expect(editor.type("\t") == .refused)
        // The bytes of a sequence wait for its end.
        #expect(editor.feed(0x1B) == .pending)
        #expect(editor.feed(UInt8(ascii: "[")) == .pending)
        #expect(editor.feed(UInt8(ascii: "1")) == .pending)
        #expect(editor.feed(UInt8(ascii: "~")) == .refused)
        // A sequence longer than any key stops being one, and typing goes on.
        editor.type([0x1B, UInt8(ascii: "[")] + [UInt8](repeating: UInt8(ascii: "1"), count: 40))
        editor.type("ok")
        #expect(editor.text.hasSuffix("ok"))
    }

    @Test("Backspace, Delete, Ctrl-D, Ctrl-U, Ctrl-K and Ctrl-W delete")
    func deleting() {
        var editor = LineEditor()
        editor.type("name == 'Rex'")
        editor.type(Key.backspace)
        #expect(editor.text == "name == 'Rex" && editor.cursor == 12)
        editor.type(Key.home + Key.delete)
        #expect(editor.text == "ame == 'Rex" && editor.cursor == 0)
        #expect(editor.type(Key.control("d")) == .changed)
        #expect(editor.text == "me == 'Rex")
        editor.type(Key.right + Key.right + Key.control("k"))
        #expect(editor.text == "me" && editor.cursor == 2)
        editor.type(" and more")
        editor.type(Key.control("w"))
        #expect(editor.text == "me and ")
        editor.type(Key.left + Key.control("u"))
        #expect(editor.text == " " && editor.cursor == 0)
    }

    @Test("Enter submits the line; Ctrl-C abandons it; Ctrl-D on an empty line ends the input")
    func endingLines() {
        var editor = LineEditor()
        editor.type("age > 2")
        #expect(editor.type(Key.enter) == .submitted("age > 2"))
        #expect(editor.text == "" && editor.cursor == 0)
        editor.type("half a li")
        #expect(editor.type(Key.control("c")) == .interrupted)
        #expect(editor.text == "" && editor.cursor == 0)
        #expect(editor.type(Key.control("d")) == .endOfInput)
        #expect(editor.type([0x0A]) == .submitted(""))
        #expect(editor.history == ["age > 2"])
    }

    @Test("Up and Down walk the history and come back to the line being typed")
    func history() {
        var editor = LineEditor(history: ["one"])
        editor.type("two")
        editor.type(Key.enter)
        editor.type("two")
        editor.type(Key.enter)
        editor.type("  ")
        editor.type(Key.enter)
        #expect(editor.history == ["one", "two"])  // no repeats, no blank lines
        editor.type("dra")
        editor.type(Key.up)
        #expect(editor.text == "two" && editor.cursor == 3)
        editor.type(Key.control("p"))
        #expect(editor.text == "one")
        #expect(editor.type(Key.up) == .refused)
        editor.type(Key.down)
        #expect(editor.text == "two")
        editor.type(Key.control("n"))
        #expect(editor.text == "dra")
        #expect(editor.type(Key.down) == .refused)
        // An edited history line is submitted as edited; the history keeps the original too.
        editor.type(Key.up + Key.backspace + Key.enter)
        #expect(editor.history == ["one", "two", "tw"])
    }

    @Test("the history keeps the newest lines up to its limit")
    func historyLimit() {
        var editor = LineEditor(history: (0..<5).map(String.init), historyLimit: 3)
        #expect(editor.history == ["2", "3", "4"])
        editor.type("5")
        editor.type(Key.enter)
        #expect(editor.history == ["3", "4", "5"])
    }

    @Test("UTF-8 characters insert whole; a wide one moves the cursor two columns; invalid bytes are refused")
    func unicode() {
        var editor = LineEditor()
        #expect(editor.feed(0xC3) == .pending)
        #expect(editor.feed(0xA9) == .changed)
        editor.type("名")
        #expect(editor.text == "é名" && editor.cursor == 2)
        #expect(editor.rendered(prompt: "> ", columns: 80) == "\r> é名\u{1B}[0K\r\u{1B}[5C")
        // A combining mark is passed over with the character it marks.
        editor.type("e\u{301}")
        editor.type(Key.left)
        #expect(editor.cursor == 2)
        #expect(editor.feed(0xFF) == .refused)
        #expect(editor.type([0xE2, 0x41]) == .refused)
        #expect(editor.type([0xC0, 0x80]) == .refused)
        // A C1 control is not inserted (it would act on the terminal).
        #expect(editor.type([0xC2, 0x9B]) == .refused)
        #expect(editor.text == "é名e\u{301}")
    }

    @Test("a line cannot grow past the bound")
    func bound() {
        var editor = LineEditor(maximumLength: 4)
        editor.type("abcd")
        #expect(editor.type("e") == .refused)
        #expect(editor.text == "abcd")
    }

    @Test("the line is drawn from column 0, erased to the end, the cursor put back; a long line scrolls")
    func rendering() {
        var editor = LineEditor()
        #expect(editor.rendered(prompt: "Dog> ", columns: 80) == "\rDog> \u{1B}[0K\r\u{1B}[5C")
        editor.type("age > 2")
        #expect(editor.rendered(prompt: "Dog> ", columns: 80) == "\rDog> age > 2\u{1B}[0K\r\u{1B}[12C")
        editor.type(Key.home)
        #expect(editor.rendered(prompt: "", columns: 80) == "\rage > 2\u{1B}[0K\r")
        // 10 columns, prompt 2: 7 columns of text and one for the cursor; the window follows it.
        editor = LineEditor()
        editor.type("0123456789abc")
        #expect(editor.rendered(prompt: "> ", columns: 10) == "\r> 6789abc\u{1B}[0K\r\u{1B}[9C")
        editor.type(Key.home)
        #expect(editor.rendered(prompt: "> ", columns: 10) == "\r> 0123456\u{1B}[0K\r\u{1B}[2C")
        // A control character from the history file is drawn escaped, never sent raw.
        editor = LineEditor(history: ["a\u{1B}[2Jb"])
        editor.type(Key.up)
        #expect(editor.rendered(prompt: "", columns: 80) == "\ra\\u{1B}[2Jb\u{1B}[0K\r\u{1B}[11C")
    }
}

@Suite("rqlc shell: the history file")
struct ShellHistoryTests {
    private func temporaryPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("rqlc-history-\(UUID().uuidString)").path
    }

    @Test("lines saved are loaded back, oldest first; a missing file is an empty history")
    func roundTrip() {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let history = ShellHistory(path: path)
        #expect(history.load().lines == [] && history.load().warning == nil)
        #expect(history.save("age > 2") == nil)
        #expect(history.save(".class Dog") == nil)
        #expect(history.save(String(repeating: "x", count: 5000)) == nil)  // too long to keep: skipped
        #expect(history.save("   ") == nil)  // blank: skipped
        #expect(history.load().lines == ["age > 2", ".class Dog"])
    }

    @Test("a file longer than the limit is cut back to its newest lines")
    func limit() throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try (0..<10).map { "line \($0)\n" }.joined().write(toFile: path, atomically: false, encoding: .utf8)
        var history = ShellHistory(path: path)
        history.limit = 4
        #expect(history.load().lines == ["line 6", "line 7", "line 8", "line 9"])
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "line 6\nline 7\nline 8\nline 9\n")
    }

    @Test("lines with control characters or bytes that are not UTF-8 are not loaded")
    func foreignLines() throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let bytes = Array("ok\nbad\u{1B}[31m\n".utf8) + [0xFF, 0x0A] + Array("fine\n".utf8)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        #expect(ShellHistory(path: path).load().lines == ["ok", "fine"])
    }

    @Test("a history file that cannot be read or written is a warning")
    func unreadable() throws {
        let path = temporaryPath()
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let history = ShellHistory(path: path)
        let loaded = history.load()
        #expect(loaded.lines == [])
        #expect(loaded.warning?.hasPrefix("warning: cannot read the history file \(path): is a directory") == true)
        #expect(history.save("age > 2")?.hasPrefix("warning: cannot write the history file") == true)
        #expect(ShellHistory(path: nil).load().lines == [])
    }
}
