import RQLCore
import RQLDatasets
import RQLEngine
import RQLStorage
import RQLTestSupport
import Testing

@testable import FuzzCommon

@Suite("FuzzCompile's random schema")
struct SchemaExtensionTests {
    @Test("Every seed's extended dataset loads, with and without indexes", arguments: [true, false])
    func everySeedLoads(indexed: Bool) throws {
        for seed in UInt8.min...UInt8.max {
            var input = VMInput(rowCount: 25, isIndexed: indexed, seed: seed, text: "")
            input.extendsSchema = true
            let schema = try DatasetLoader.load(json: input.datasetJSON).schema
            let person = try #require(schema["Person"])
            #expect(person.properties.count == 10 + SchemaExtension.propertyCount)
            #expect(person.properties.contains { $0.isIndexed && $0.name.hasPrefix("x") } == false || indexed)
            #expect(schema["Dog"]?.property(named: "owners")?.isBacklink == true)
        }
    }

    @Test("The seeds reach every element type in every container")
    func seedsCoverTheTypes() {
        var shapes = Set<String>()
        for seed in UInt8.min...UInt8.max {
            for property in SchemaExtension(seed: seed).properties {
                shapes.insert("\(property.element) \(property.container)")
            }
        }
        let expected = SchemaExtension.ElementType.allCases.count * SchemaExtension.Container.allCases.count
        #expect(shapes.count == expected)
    }

    @Test("CompileCheck binds queries on the extended properties")
    func compileCheckSeesTheExtension() throws {
        // Seed 0's x0, whatever its type, is a property: `x0 == nil` binds when it is optional,
        // `x0.@count >= 0` when it is a collection, `x0 != x0` otherwise; one of them binds.
        let property = SchemaExtension(seed: 0).properties[0]
        let text =
            property.container != .single ? "x0.@count >= 0" : property.isOptional ? "x0 == nil" : "x0 == x0"
        var input = VMInput(seed: 0, text: text)
        #expect(CompileCheck().violation(in: input) == nil)
        input.extendsSchema = true
        #expect(throws: Never.self) {
            _ = try QueryEngine().bind(text, className: "Person", schema: input.store().schema)
        }
    }
}
