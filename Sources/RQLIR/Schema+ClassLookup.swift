import RQLCore

extension Schema {
    /// The named class, as `schema[name]` finds it, but by comparing names when the schema has
    /// few classes: hashing the name (SipHash) costs more than comparing it with a handful of
    /// class names, and compiling a query looks its class up at every stage.
    ///
    ///     schema.lookUpClass("Person")?.name   // "Person"
    public func lookUpClass(_ name: String) -> ObjectSchema? {
        guard classes.count <= 8 else { return self[name] }
        // Names are unique (`Schema` rejects repeats), so the first match is the class.
        for index in classes.indices where classes[index].name == name { return classes[index] }
        return nil
    }
}
