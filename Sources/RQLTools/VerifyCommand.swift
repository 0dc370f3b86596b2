import RQLCore
import RQLStorage

/// `rqlc verify STORE`: exit 0 when the store file is sound, 1 with the problem.
enum VerifyCommand: Command {
    static let name = "verify"
    static let summary = "Check a store file: exit 0 when sound, 1 with the problem."
    static let help = """
        Usage: rqlc verify STORE

        Checks the newest version of the store file STORE: the header slots and their
        checksums, every block (offsets, lengths, checksums, keys ascending) and every index
        node (checksums, order, counts). Prints 'ok' and exits 0 when the file is sound;
        prints the problem and exits 1 otherwise, including when the newest version cannot be
        read although the version before it is intact (a damaged or cut-short last commit: the
        message names both versions and why).

        Options:
          -h, --help          Show this help.

        """
    static let valuedOptions: Set<String> = []
    static let flags: Set<String> = []

    static func run(_ list: ArgumentList, _ context: CommandContext) throws(CommandFailure) {
        guard list.positionals.count == 1 else { throw .usage("give one store file") }
        let path = list.positionals[0].text
        let info: StoreFileInfo
        do {
            info = try BlockStore.verify(path: path)
        } catch {
            throw StoreFileSource.failure(error)
        }
        try context.output.write("ok: version \(info.version)\n")
    }
}
