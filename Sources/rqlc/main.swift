import Foundation
import RQLTools

let environment = CommandEnvironment(standardOutputIsTerminal: isatty(STDOUT_FILENO) != 0)
let result = RQLCommand.run(Array(CommandLine.arguments.dropFirst()), environment: environment)
FileHandle.standardOutput.write(Data(result.standardOutput.utf8))
FileHandle.standardError.write(Data(result.standardError.utf8))
exit(result.exitCode)
