import Foundation
import Testing

@testable import RQLTools

/// A schema with every kind of property the printer describes.
private let everyKindDataset = """
    {"schema": {
      "Owner": {"primaryKey": "id", "indexed": ["name", "born"], "fulltext": ["bio"], "properties": {
        "id": "int", "name": "string", "born": "date", "bio": "string", "nick": "string?",
        "pets": "list<Pet>", "home": "Place?", "tags": "set<string?>", "scores": "map<double>", "extra": "mixed"}},
      "Pet": {"properties": {"name": "string", "owners": "linkingObjects<Owner.pets>"}},
      "Place": {"embedded": true, "properties": {"city": "string?"}}},
     "objects": {"Pet": [{"name": "Rex"}]}}
    """

@Suite("rqlc schema")
struct SchemaCommandTests {
    private let files = ["kinds.json": everyKindDataset]

    private func schema(_ arguments: [String]) -> CommandResult {
        RQLCommand.run(["schema"] + arguments, environment: CommandEnvironment(files: files))
    }

    @Test("text: each class, each property with its type and what the type leaves unsaid")
    func text() {
        let result = schema(["kinds.json"])
        #expect(result.exitCode == 0, "\(result.standardError)")
        #expect(
            result.standardOutput == """
                Owner
                  id      int           primary key
                  name    string        indexed (hash)
                  born    date          indexed (hash, sorted)
                  bio     string        full-text index
                  nick    string?       optional
                  pets    list<Pet>     links to Pet
                  home    Place?        embeds Place
                  tags    set<string?>  optional elements
                  scores  map<double>
                  extra   mixed         optional

                Pet
                  name    string
                  owners  linkingObjects<Owner.pets>  backlinks from Owner.pets

                Place (embedded)
                  city  string?  optional

                """
        )
    }

    @Test("csv: one property a line, with a header")
    func csv() {
        let result = schema(["--format", "csv", "--data", "kinds.json", "Pet"])
        #expect(result.exitCode == 0, "\(result.standardError)")
        #expect(
            result.standardOutput
                == "class,embedded,property,type,optional,collection,target,primaryKey,indexed,fullText\r\n"
                + "Pet,false,name,string,false,single,,false,none,false\r\n"
                + "Pet,false,owners,linkingObjects<Owner.pets>,false,backlinks,Owner,false,none,false\r\n"
        )
        let owner = schema(["--format", "csv", "kinds.json", "Owner"]).standardOutput
        #expect(owner.contains("Owner,false,born,date,false,single,,false,\"hash, sorted\",false\r\n"))
        #expect(owner.contains("Owner,false,tags,set<string?>,true,set,,false,none,false\r\n"))
    }

    @Test("json: the dataset format's schema section, which --schema reads back")
    func json() throws {
        let result = schema(["--format", "json", "kinds.json"])
        #expect(result.exitCode == 0)
        let again = RQLCommand.run(
            ["schema", "--schema", "again.json"],
            environment: CommandEnvironment(files: ["again.json": result.standardOutput])
        )
        #expect(again.exitCode == 0, "\(again.standardError)")
        #expect(again.standardOutput == schema(["kinds.json"]).standardOutput)
        #expect(schema(["--format", "json", "kinds.json", "Place"]).standardOutput.contains("\"embedded\": true"))
    }

    @Test("the demo database by default; one argument naming a demo class is that class")
    func demo() {
        let all = RQLCommand.run(["schema"])
        #expect(all.exitCode == 0)
        for name in ["DogToy", "Dog", "Person", "DogClub", "Address (embedded)"] {
            #expect(all.standardOutput.contains("\n\(name)\n") || all.standardOutput.hasPrefix("\(name)\n"), "\(name)")
        }
        let dog = RQLCommand.run(["schema", "Dog"])
        #expect(dog.standardOutput.hasPrefix("Dog\n  name "))
        #expect(dog.standardOutput.contains("favoriteToy          DogToy?                      link to DogToy\n"))
        #expect(RQLCommand.run(["schema", "--demo", "Dog"]) == dog)
    }

    @Test("a store file prints the schema its JSON prints")
    func storeFile() throws {
        let directory = try StoreCommandTests.Directory()
        let paths = try StoreCommandTests.importChecked(everyKindDataset, name: "kinds", in: directory)
        for format in ["text", "csv", "json"] {
            let onStore = RQLCommand.run(["schema", "--format", format, paths.store])
            #expect(onStore.exitCode == 0, "\(onStore.standardError)")
            #expect(onStore == RQLCommand.run(["schema", "--format", format, paths.json]), "\(format)")
            #expect(onStore == RQLCommand.run(["schema", "--format", format, "--data", paths.store]), "\(format)")
        }
        #expect(RQLCommand.run(["schema", paths.store, "Pet"]).standardOutput.hasPrefix("Pet\n"))
    }

    @Test("errors: an unknown class exits 1 listing every class; wrong usage exits 2")
    func errors() {
        let unknown = schema(["kinds.json", "Cat"])
        #expect(unknown.exitCode == 1)
        #expect(unknown.standardError == "error: unknown class 'Cat'; the classes are 'Owner', 'Pet', 'Place'\n")
        // One argument that is neither a file nor a class of the demo database says both.
        let neither = schema(["Dgo"])
        #expect(neither.exitCode == 2)
        #expect(
            neither.standardError.hasPrefix("rqlc: cannot read 'Dgo': no such file; nor is 'Dgo' a class of the demo")
        )
        for arguments in [
            ["--format", "xml"], ["kinds.json", "Pet", "Owner"], ["--demo", "Dog", "Person"], ["missing.json"],
        ] {
            #expect(schema(arguments).exitCode == 2, "\(arguments)")
        }
    }
}
