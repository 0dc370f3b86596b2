import Testing

@testable import RQL

@Suite("Schema discovery")
struct SchemaDiscoveryTests {
    func info(_ type: ObjectBase.Type) throws -> ClassInfo { try ClassInfo.info(for: type) }

    @Test("properties come in declaration order, named without the wrapper's underscore; plain vars are ignored")
    func declarationOrder() throws {
        let dog = try info(Dog.self)
        #expect(dog.className == "Dog")
        #expect(
            dog.objectSchema.properties.map(\.typeSyntax) == [
                "string", "int", "string", "string", "set<string>", "mixed", "DogToy?", "map<string>",
            ]
        )
        #expect(
            dog.properties.map(\.name) == [
                "name", "age", "color", "currentCity", "citiesVisited", "companion", "favoriteToy",
                "favoriteParksByCity",
            ]
        )
    }

    @Test("primary keys, backlinks and embedded classes are read from the declarations")
    func declarations() throws {
        let person = try info(Person.self)
        #expect(person.primaryKey == "id")
        #expect(person.objectSchema.property(named: "clubs")?.typeSyntax == "linkingObjects<DogClub.members>")
        #expect(person.objectSchema.property(named: "address")?.typeSyntax == "Address?")
        let address = try info(Address.self)
        #expect(address.isEmbedded)
        #expect(address.objectSchema.isEmbedded)
    }

    @Test("a schema closes over link targets and validates as one")
    func closure() throws {
        let discovered = try DiscoveredSchema(types: [Person.self], closingOverLinks: true)
        #expect(Set(discovered.schema.classes.map(\.name)) == ["Person", "Dog", "DogToy", "DogClub", "Address"])
    }

    @Test("an explicit list of object types must hold every link target")
    func explicitTypes() throws {
        #expect(
            throws: SchemaDiscoveryError.missingLinkTarget(className: "Dog", property: "favoriteToy", target: "DogToy")
        ) {
            try DiscoveredSchema(types: [Dog.self], closingOverLinks: false)
        }
    }

    @Test("the public schema describes every property type")
    func publicSchema() throws {
        let schema = try Schema(objectTypes: [AllTypesObject.self])
        let object = try #require(schema["AllTypesObject"])
        #expect(object.primaryKeyProperty?.name == "id")
        #expect(object["intCol"]?.type == .int)
        #expect(object["int8Col"]?.type == .int)
        #expect(object["floatCol"]?.type == .float)
        #expect(object["decimalCol"]?.type == .decimal128)
        #expect(object["uuidCol"]?.type == .UUID)
        #expect(object["anyCol"]?.type == .any)
        #expect(object["optStringCol"]?.isOptional == true)
        #expect(object["stringCol"]?.isOptional == false)
        #expect(object["indexedCol"]?.isIndexed == true)
        #expect(object["enumCol"]?.type == .string)
        #expect(object["optEnumCol"]?.isOptional == true)
        #expect(object["intList"]?.isArray == true)
        #expect(object["optIntList"]?.isOptional == true)
        #expect(object["stringSet"]?.isSet == true)
        #expect(object["anyMap"]?.isMap == true)
        #expect(object["objectCol"]?.objectClassName == "DogToy")
        #expect(object["urlCol"]?.type == .string)
        #expect(object["mapped"]?.columnName == "mapped_column")
        #expect(object.properties.count == AllTypesObject.propertyCount)
    }

    struct Invalid: CustomTestStringConvertible, Sendable {
        var type: ObjectBase.Type
        var error: SchemaDiscoveryError
        var testDescription: String { "\(error)" }
    }

    static let invalid: [Invalid] = [
        Invalid(
            type: NonOptionalLink.self,
            error: .linkNotOptional(className: "NonOptionalLink", property: "toy", target: "DogToy")
        ),
        Invalid(
            type: EmbeddedWithPrimaryKey.self,
            error: .primaryKeyOnEmbeddedClass(className: "EmbeddedWithPrimaryKey", property: "id")
        ),
        Invalid(
            type: TwoPrimaryKeys.self,
            error: .duplicatePrimaryKey(className: "TwoPrimaryKeys", first: "a", second: "b")
        ),
        Invalid(
            type: PrimaryKeyTwice.self,
            error: .duplicatePrimaryKey(className: "PrimaryKeyTwice", first: "a", second: "b")
        ),
        Invalid(
            type: ListOfOptionalObjects.self,
            error: .unsupportedType(
                className: "ListOfOptionalObjects",
                property: "toys",
                reason: "a list or set of objects cannot hold nil ('List<DogToy?>')"
            )
        ),
        Invalid(
            type: MapOfObjects.self,
            error: .unsupportedType(
                className: "MapOfObjects",
                property: "toys",
                reason: "a map of objects must hold optional values ('Map<String, DogToy?>')"
            )
        ),
        Invalid(
            type: SetOfEmbedded.self,
            error: .unsupportedType(
                className: "SetOfEmbedded",
                property: "addresses",
                reason: "a set cannot hold embedded objects ('MutableSet<Address>')"
            )
        ),
        Invalid(
            type: ClassNameThatIsMuchTooLongForRealmBecauseItHasMoreThanFiftySevenBytes.self,
            error: .classNameTooLong(
                className: "ClassNameThatIsMuchTooLongForRealmBecauseItHasMoreThanFiftySevenBytes",
                byteCount: 69
            )
        ),
        Invalid(
            type: LongPropertyName.self,
            error: .propertyNameTooLong(
                className: "LongPropertyName",
                property: "aPropertyNameThatIsLongerThanSixtyThreeBytesWhichRealmDoesNotAllow",
                byteCount: 66
            )
        ),
        Invalid(type: NoPersistedProperties.self, error: .noProperties(className: "NoPersistedProperties")),
        Invalid(
            type: BacklinkWithoutOrigin.self,
            error: .missingOriginProperty(className: "BacklinkWithoutOrigin", property: "owners")
        ),
        Invalid(
            type: UnknownPrimaryKey.self,
            error: .unknownProperty(className: "UnknownPrimaryKey", property: "nope", declaredBy: "primaryKey()")
        ),
    ]

    @Test("invalid declarations fail with an error naming the class and property", arguments: invalid)
    func invalidDeclarations(_ c: Invalid) {
        #expect(throws: c.error) { try ClassInfo.info(for: c.type) }
    }

    @Test("a Bool primary key passes discovery but not the schema rules")
    func primaryKeyType() {
        #expect(
            throws: SchemaDiscoveryError.invalidSchema(
                .invalidPrimaryKeyType(className: "BoolPrimaryKey", property: "flag", type: "bool")
            )
        ) {
            try DiscoveredSchema(types: [BoolPrimaryKey.self], closingOverLinks: true)
        }
    }

    @Test("a backlink to a property that is not a link fails schema validation")
    func badBacklink() {
        #expect(
            throws: SchemaDiscoveryError.invalidSchema(
                .backlinkToNonLink(className: "BadBacklink", property: "owners", origin: "Dog.name")
            )
        ) {
            try DiscoveredSchema(types: [BadBacklink.self], closingOverLinks: true)
        }
    }

    @Test("errors read as sentences naming the class and property")
    func messages() {
        #expect(
            SchemaDiscoveryError.linkNotOptional(className: "A", property: "b", target: "C").description
                == "class 'A', property 'b': a to-one link must be optional ('C?')"
        )
    }

    @Test("primaryKey() and indexedProperties() apply to @Persisted properties; propertiesMapping renames columns")
    func classMethods() throws {
        let legacy = try info(LegacyDeclarations.self)
        #expect(legacy.primaryKey == "code")
        #expect(legacy.objectSchema.property(named: "title")?.isIndexed == true)
        #expect(legacy.properties.first { $0.name == "firstName" }?.columnName == "first_name")
        #expect(legacy.objectSchema.property(named: "skipped") == nil)
    }

    @Test("subclasses inherit their superclass's properties first")
    func inheritance() throws {
        let puppy = try info(Puppy.self)
        #expect(puppy.properties.map(\.name) == ["name", "age", "trainer"])
    }
}

// MARK: Fixtures

enum Flavor: String, PersistableEnum {
    case vanilla, chocolate
}

extension URL: FailableCustomPersistable {
    public typealias PersistedType = String
    public init?(persistedValue: String) { self.init(string: persistedValue) }
    public var persistableValue: String { absoluteString }
}

final class AllTypesObject: Object {
    static let propertyCount = 27
    @Persisted(primaryKey: true) var id: ObjectId
    @Persisted var boolCol = false
    @Persisted var intCol = 0
    @Persisted var int8Col: Int8 = 0
    @Persisted var int16Col: Int16 = 0
    @Persisted var int32Col: Int32 = 0
    @Persisted var int64Col: Int64 = 0
    @Persisted var floatCol: Float = 0
    @Persisted var doubleCol = 0.0
    @Persisted var stringCol = ""
    @Persisted var dataCol = Data()
    @Persisted var dateCol = Date(timeIntervalSince1970: 0)
    @Persisted var decimalCol = Decimal128()
    @Persisted var uuidCol: UUID
    @Persisted var anyCol: AnyRealmValue
    @Persisted var optStringCol: String?
    @Persisted var optIntCol: Int?
    @Persisted(indexed: true) var indexedCol = ""
    @Persisted var enumCol = Flavor.vanilla
    @Persisted var optEnumCol: Flavor?
    @Persisted var intList: List<Int>
    @Persisted var optIntList: List<Int?>
    @Persisted var stringSet: MutableSet<String>
    @Persisted var anyMap: Map<String, AnyRealmValue>
    @Persisted var objectCol: DogToy?
    @Persisted var urlCol: URL?
    @Persisted var mapped = ""

    override class func propertiesMapping() -> [String: String] { ["mapped": "mapped_column"] }
}

final class NonOptionalLink: Object {
    @Persisted var toy: DogToy
}

final class EmbeddedWithPrimaryKey: EmbeddedObject {
    @Persisted(primaryKey: true) var id = 0
}

final class TwoPrimaryKeys: Object {
    @Persisted(primaryKey: true) var a = 0
    @Persisted(primaryKey: true) var b = 0
}

final class PrimaryKeyTwice: Object {
    @Persisted(primaryKey: true) var a = 0
    @Persisted var b = 0
    override class func primaryKey() -> String? { "b" }
}

final class ListOfOptionalObjects: Object {
    @Persisted var toys: List<DogToy?>
}

final class MapOfObjects: Object {
    @Persisted var toys: Map<String, DogToy>
}

final class SetOfEmbedded: Object {
    @Persisted var addresses: MutableSet<Address>
}

final class ClassNameThatIsMuchTooLongForRealmBecauseItHasMoreThanFiftySevenBytes: Object {
    @Persisted var a = 0
}

final class LongPropertyName: Object {
    @Persisted var aPropertyNameThatIsLongerThanSixtyThreeBytesWhichRealmDoesNotAllow = 0
}

final class NoPersistedProperties: Object {
    var a = 0
}

final class BacklinkWithoutOrigin: Object {
    @Persisted var owners: LinkingObjects<Person>
}

final class UnknownPrimaryKey: Object {
    @Persisted var a = 0
    override class func primaryKey() -> String? { "nope" }
}

final class BoolPrimaryKey: Object {
    @Persisted(primaryKey: true) var flag = false
}

final class BadBacklink: Object {
    @Persisted(originProperty: "name") var owners: LinkingObjects<Dog>
}

final class LegacyDeclarations: Object {
    @Persisted var code = ""
    @Persisted var title = ""
    @Persisted var firstName = ""
    @Persisted var skipped = 0

    override class func primaryKey() -> String? { "code" }
    override class func indexedProperties() -> [String] { ["title"] }
    override class func propertiesMapping() -> [String: String] { ["firstName": "first_name"] }
    override class func ignoredProperties() -> [String] { ["skipped"] }
}

class Pet: Object {
    @Persisted var name = ""
    @Persisted var age = 0
}

final class Puppy: Pet {
    @Persisted var trainer = ""
}
