import CameraSunCLI
import Foundation

exit(await CommandLineTool.run { terminal in try await BenchSuites.run(Array(CommandLine.arguments.dropFirst()), terminal: terminal) })
