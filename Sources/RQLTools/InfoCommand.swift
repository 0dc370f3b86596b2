import RQLCore
import RQLStorage

/// `rqlc info STORE`: format version, version number, classes with their object counts, pages
/// and free space.
enum InfoCommand: Command {
    static let name = "info"
    static let summary = "Describe a store file: versions, classes, pages, free space."
    static let help = """
        Usage: rqlc info STORE

        Prints the store file's format version, its newest version number, each class with
        its number of objects, the file's pages, the space older versions use (free once
        the file is compacted) and the commits its commit log holds after the checkpoint. Reads the header, the root and the table directory only, so it
        is quick on any size of file; 'rqlc verify' checks every block.

        \(StoreFileSource.optionsHelp)

        """
    static let valuedOptions: Set<String> = []
    static let flags: Set<String> = [StoreFileSource.acceptOlderVersion]

    static func run(_ list: ArgumentList, _ context: CommandContext) throws(CommandFailure) {
        guard list.positionals.count == 1 else { throw .usage("give one store file") }
        let path = list.positionals[0].text
        let info: StoreFileInfo
        do {
            info = try BlockStore.info(path: path, acceptingOlderVersion: true)
        } catch {
            throw StoreFileSource.failure(error)
        }
        try StoreFileSource.checkFallback(info.fallback, list, context)
        var text = """
            format version: \(info.formatVersion)
            version: \(info.version)
            size: \(info.fileSize) bytes, \(info.pages) pages of 4096 bytes
            free: \(info.freeBytes) bytes
            commit log: \(info.logRecords) commits after the checkpoint

            """
        text += "classes:\n"
        for (name, objects) in info.classes { text += "  \(TerminalText.escaped(name)): \(objects)\n" }
        try context.output.write(text)
    }
}
