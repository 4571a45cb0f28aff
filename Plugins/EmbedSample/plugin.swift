import Foundation
import PackagePlugin

/// Embeds the sample gym calendar (`Examples/Samples/gym.ics`) in the
/// `horari` binary as a Swift string, so that a bare `horari` works wherever
/// the binary is copied: a resource bundle would have to travel with it, and
/// `Bundle.module` stops the program when it does not.
///
/// The `.ics` file stays the one source; the Swift file is generated into
/// the build folder on every build that sees the file change.
@main
struct EmbedSample: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let input = context.package.directoryURL.appending(path: "Examples/Samples/gym.ics")
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedSample.swift")
        return [
            .buildCommand(
                displayName: "Embedding the sample calendar \(input.lastPathComponent)",
                executable: try context.tool(named: "EmbedText").url,
                arguments: [input.path, output.path, "EmbeddedSample", "gymICS"],
                inputFiles: [input],
                outputFiles: [output])
        ]
    }
}
