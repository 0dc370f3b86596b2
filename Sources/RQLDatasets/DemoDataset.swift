import RQLCore
import RQLStorage

/// The built-in demo dataset: the Dog / DogToy / Person / DogClub / Address model of the Realm
/// documentation, with enough variety that the documentation's example queries have
/// non-trivial answers (`age > 2`, `name BEGINSWITH 'B'`, `ANY dogs.color == 'brown'`,
/// `favoriteToy.name == 'Tennis ball'`, `address.city == 'Los Angeles'`,
/// `citiesVisited CONTAINS 'Chicago'`, `@links.@count > 1`, `dogs.@count >= 2`), plus mixed
/// values of many types (nested lists and maps included), non-Latin names for `[c]`/`[d]`,
/// and a few nulls.
///
/// ```swift
/// let store = try DemoDataset.load()
/// store.table(named: "Dog")?.rowCount  // 20
/// ```
public enum DemoDataset {
    /// Loads `json` into a fresh store.
    public static func load() throws(DatasetError) -> BlockSnapshot {
        try DatasetLoader.load(json: json)
    }

    /// The dataset as JSON text in the dataset format.
    public static let json = #"""
        {
          "schema": {
            "DogToy": {
              "primaryKey": "id",
              "properties": { "id": "objectId", "name": "string", "price": "decimal128?" }
            },
            "Dog": {
              "indexed": ["name"],
              "properties": {
                "name": "string",
                "age": "int",
                "color": "string",
                "currentCity": "string",
                "citiesVisited": "set<string>",
                "favoriteParksByCity": "map<string>",
                "companion": "mixed",
                "favoriteToy": "DogToy?",
                "weight": "double?",
                "birthday": "date?",
                "owners": "linkingObjects<Person.dogs>"
              }
            },
            "Person": {
              "primaryKey": "id",
              "indexed": ["name"],
              "properties": {
                "id": "int",
                "name": "string",
                "age": "int?",
                "dogs": "list<Dog>",
                "address": "Address?",
                "clubs": "linkingObjects<DogClub.members>"
              }
            },
            "DogClub": {
              "fulltext": ["description"],
              "properties": {
                "name": "string",
                "description": "string",
                "founded": "date",
                "members": "list<Person>",
                "regionalOfficeAddresses": "list<Address>"
              }
            },
            "Address": {
              "embedded": true,
              "properties": { "street": "string?", "city": "string?", "country": "string?", "postalCode": "string?" }
            }
          },
          "objects": {
            "DogToy": [
              { "id": "11223344556677889900aabb", "name": "Tennis ball", "price": "4.99" },
              { "id": "11223344556677889900aab1", "name": "Rope", "price": "7.50" },
              { "id": "11223344556677889900aab2", "name": "Squeaky duck", "price": "3.25" },
              { "id": "11223344556677889900aab3", "name": "Frisbee", "price": "12" },
              { "id": "11223344556677889900aab4", "name": "Chew bone" },
              { "id": "11223344556677889900aab5", "name": "tennis Ball XL", "price": "6.00" }
            ],
            "Dog": [
              { "name": "Rex", "age": 10, "color": "tan", "currentCity": "Chicago",
                "citiesVisited": ["Chicago", "Boston"], "favoriteParksByCity": { "Chicago": "Millennium Park" },
                "companion": "Fluffy the Cat", "favoriteToy": "11223344556677889900aabb",
                "weight": 31.5, "birthday": "2014-03-02T08:00:00Z" },
              { "name": "Buddy", "age": 3, "color": "brown", "currentCity": "Los Angeles",
                "citiesVisited": ["Los Angeles", "Chicago", "Seattle"],
                "favoriteParksByCity": { "Los Angeles": "Griffith Park", "Chicago": "Grant Park" },
                "companion": 3, "favoriteToy": "11223344556677889900aab1", "weight": 22.0,
                "birthday": "2021-06-15T00:00:00Z" },
              { "name": "Bella", "age": 1, "color": "golden", "currentCity": "New York",
                "citiesVisited": ["New York"], "favoriteParksByCity": { "New York": "Central Park" },
                "companion": 2.5, "favoriteToy": "11223344556677889900aabb", "weight": 12.25,
                "birthday": "2023-01-20T10:30:00.5Z" },
              { "name": "Max", "age": 5, "color": "black", "currentCity": "Chicago",
                "citiesVisited": [], "companion": true, "favoriteToy": null, "weight": null },
              { "name": "Bailey", "age": 7, "color": "brown", "currentCity": "Seattle",
                "citiesVisited": ["Seattle", "Portland", "Chicago"],
                "favoriteParksByCity": { "Seattle": "Discovery Park", "Portland": "Forest Park" },
                "companion": null, "favoriteToy": "11223344556677889900aab2", "weight": 28.0,
                "birthday": { "$date": [1430000000, 250000000] } },
              { "name": "Luna", "age": 2, "color": "white", "currentCity": "Boston",
                "citiesVisited": ["Boston"], "favoriteParksByCity": {},
                "companion": { "$date": "2020-05-01T12:00:00Z" }, "favoriteToy": "11223344556677889900aab3",
                "weight": 9.75 },
              { "name": "Charlie", "age": 4, "color": "spotted", "currentCity": "Los Angeles",
                "citiesVisited": ["Los Angeles", "San Diego"],
                "favoriteParksByCity": { "San Diego": "Balboa Park" },
                "companion": ["ball", 2, { "nested": true }], "favoriteToy": "11223344556677889900aabb",
                "weight": 18.5 },
              { "name": "Daisy", "age": 0, "color": "tan", "currentCity": "Miami",
                "citiesVisited": ["Miami"], "companion": { "name": "Whiskers", "lives": 9 },
                "weight": 4.4 },
              { "name": "Biscuit", "age": 6, "color": "golden", "currentCity": "Chicago",
                "citiesVisited": ["Chicago", "Detroit", "Chicago"],
                "favoriteParksByCity": { "Chicago": "Lincoln Park", "Detroit": "Belle Isle" },
                "companion": { "$decimal": "9.99" }, "favoriteToy": "11223344556677889900aab4", "weight": 25.0 },
              { "name": "Rocky", "age": 9, "color": "black", "currentCity": "Denver",
                "citiesVisited": ["Denver", "Boulder"], "companion": { "$oid": "5f1b2c3d4e5f60718293a4b5" },
                "favoriteToy": "11223344556677889900aab3", "weight": 35.2 },
              { "name": "Molly", "age": 2, "color": "white", "currentCity": "New York",
                "citiesVisited": ["New York", "Boston"], "favoriteParksByCity": { "New York": "Prospect Park" },
                "companion": { "$link": { "class": "DogToy", "key": "11223344556677889900aab2" } },
                "favoriteToy": "11223344556677889900aab5", "weight": 8.0 },
              { "name": "Bruno", "age": 8, "color": "brown", "currentCity": "Chicago",
                "citiesVisited": ["Chicago"], "favoriteParksByCity": { "Chicago": "Millennium Park" },
                "companion": { "$uuid": "3b241101-e2bb-4255-8caf-4136c566a962" }, "weight": 40.0 },
              { "name": "Шарик", "age": 4, "color": "brown", "currentCity": "Moscow",
                "citiesVisited": ["Moscow", "Kazan"], "companion": "Кот Матроскин",
                "favoriteToy": "11223344556677889900aab1", "weight": 20.0 },
              { "name": "Άρης", "age": 3, "color": "black", "currentCity": "Athens",
                "citiesVisited": ["Athens"], "companion": { "$float": 1.5 }, "weight": 15.5 },
              { "name": "Chloé", "age": 5, "color": "white", "currentCity": "Paris",
                "citiesVisited": ["Paris", "Lyon", "Chicago"],
                "favoriteParksByCity": { "Paris": "Jardin du Luxembourg" },
                "companion": { "$binary": "aGVsbG8=" }, "favoriteToy": "11223344556677889900aabb", "weight": 7.3 },
              { "name": "Sadie", "age": 11, "color": "tan", "currentCity": "Austin",
                "citiesVisited": ["Austin", "Dallas"], "companion": [[1, 2], { "deep": [3, { "deeper": "yes" }] }],
                "weight": 27.0, "birthday": "2013-09-09" },
              { "name": "Cooper", "age": 1, "color": "golden", "currentCity": "Los Angeles",
                "citiesVisited": ["Los Angeles"], "companion": -7, "favoriteToy": "11223344556677889900aab2",
                "weight": 11.0 },
              { "name": "Zoe", "age": 12, "color": "spotted", "currentCity": "Boston",
                "citiesVisited": ["Boston", "Chicago"], "companion": "3", "weight": null },
              { "name": "Toby", "age": 3, "color": "brown", "currentCity": "Denver",
                "citiesVisited": ["Denver"], "companion": { "$double": "NaN" },
                "favoriteToy": "11223344556677889900aab4",
                "weight": 19.9 },
              { "name": "Lola", "age": 2, "color": "tan", "currentCity": "Miami",
                "citiesVisited": ["Miami", "Chicago"], "favoriteParksByCity": { "Miami": "Bayfront Park" },
                "companion": 3.0, "favoriteToy": "11223344556677889900aabb", "weight": 6.6 }
            ],
            "Person": [
              { "id": 12345, "name": "Ann", "age": 31, "dogs": [0, 2],
                "address": { "street": "1 Main St", "city": "Los Angeles", "country": "USA", "postalCode": "90001" } },
              { "id": 12346, "name": "Ben", "age": 45, "dogs": [1, 4, 11],
                "address": { "street": "22 Lake Shore Dr", "city": "Chicago", "country": "USA" } },
              { "id": 12347, "name": "Carla", "age": 27, "dogs": [3],
                "address": { "city": "New York", "country": "USA" } },
              { "id": 12348, "name": "Dmitri", "age": 52, "dogs": [12, 16],
                "address": { "street": "Тверская ул. 7", "city": "Moscow", "country": "Russia" } },
              { "id": 12349, "name": "Eleni", "age": 38, "dogs": [13],
                "address": { "city": "Athens", "country": "Greece" } },
              { "id": 12350, "name": "François", "age": null, "dogs": [14, 5],
                "address": { "street": "5 Rue de Rivoli", "city": "Paris", "country": "France" } },
              { "id": 12351, "name": "Grace", "age": 24, "dogs": [6, 7, 8, 9],
                "address": { "street": "9 Sunset Blvd", "city": "Los Angeles", "country": "USA" } },
              { "id": 12352, "name": "Hiro", "age": 33, "dogs": [],
                "address": null },
              { "id": 12353, "name": "Ivy", "age": 19, "dogs": [10, 15, 17, 18],
                "address": { "city": "Boston" } },
              { "id": 12354, "name": "Jack", "dogs": [19, 1] }
            ],
            "DogClub": [
              { "name": "Pooch Pals", "description": "A friendly club for dogs of all sizes in Los Angeles.",
                "founded": "1998-04-01T00:00:00Z", "members": [12345, 12351, 12346],
                "regionalOfficeAddresses": [ { "city": "Los Angeles", "country": "USA" },
                                             { "city": "San Diego", "country": "USA" } ] },
              { "name": "Windy City Woofers", "description": "Chicago's oldest dog-walking society; weekly park walks.",
                "founded": "1975-10-12T00:00:00Z", "members": [12346, 12352] },
              { "name": "Les Toutous", "description": "Club canin parisien : promenades et café.",
                "founded": "2010-06-21T00:00:00Z", "members": [12350],
                "regionalOfficeAddresses": [ { "street": "12 Quai d'Orsay", "city": "Paris", "country": "France" } ] },
              { "name": "American Kennel Club", "description": "Dogs, shows and walks across the country.",
                "founded": "1884-09-17T00:00:00Z", "members": [12345, 12347, 12351, 12353, 12354, 12346] }
            ]
          }
        }
        """#
}
