import Foundation
import RQLTestSupport
import Testing

@testable import RQLStorage

#if canImport(Glibc)
import Glibc
#endif

/// A store file is mapped one page past a huge page boundary (`FileMapping`): where address and
/// file offset agree modulo the huge page size, the kernel maps a huge folio of the page cache
/// whole and counts all of it resident for one part read in it.
@Suite("Store file: mapping")
struct FileMappingTests {
    static let page = Int(sysconf(Int32(_SC_PAGESIZE)))

    @Test(
        "the mapping starts one page past a huge page boundary and reads the file",
        arguments: [
            1, 4096, 4097, 2 << 20, (3 << 20) + 1,
        ]
    )
    func misalignedMapping(size: Int) throws {
        let directory = try TemporaryDirectory("mapping")
        let path = directory.path("file")
        let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 12) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        #expect(descriptor >= 0)
        defer { close(descriptor) }
        for keepsCopies in [false, true] {
            let mapping = try FileMapping(descriptor: descriptor, size: size, path: path, keepsCopies: keepsCopies)
            let base = try #require(mapping.base)
            #expect(Int(bitPattern: base) % FileMapping.hugePageSize == Self.page)
            #expect(Array(mapping.bytes) == bytes)
            // The address space reserved to place the mapping is given back on both sides.
            let end = Int(bitPattern: base) + (size + Self.page - 1) / Self.page * Self.page
            let reserved = try Self.inaccessibleRegions()
            #expect(!reserved.contains { $0.end == Int(bitPattern: base) }, "the reservation before the mapping stays")
            #expect(!reserved.contains { $0.start == end }, "the reservation after the mapping stays")
        }
    }

    /// This process's mappings without access (`---p` in `/proc/self/maps`).
    static func inaccessibleRegions() throws -> [(start: Int, end: Int)] {
        let maps = try String(contentsOfFile: "/proc/self/maps", encoding: .utf8)
        return maps.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ")
            guard fields.count >= 2, fields[1] == "---p" else { return nil }
            let range = fields[0].split(separator: "-")
            guard range.count == 2, let start = Int(range[0], radix: 16), let end = Int(range[1], radix: 16) else {
                return nil
            }
            return (start, end)
        }
    }
}
