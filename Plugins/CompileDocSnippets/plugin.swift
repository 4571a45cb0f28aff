import Foundation
import PackagePlugin

/// Turns the Swift code blocks of the README and of every DocC Getting
/// Started article into functions of the `DocSnippets` program, so that
/// `swift build` compiles what the documentation shows and `make snippets`
/// runs it. A snippet that stops compiling fails the build.
@main
struct CompileDocSnippets: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let root = context.package.directoryURL
        var documents = [root.appending(path: "README.md")]
        let sources = root.appending(path: "Sources")
        for module in (try? FileManager.default.contentsOfDirectory(atPath: sources.path))?.sorted() ?? [] {
            let catalog = sources.appending(path: module).appending(path: "\(module).docc")
            for file in (try? FileManager.default.contentsOfDirectory(atPath: catalog.path))?.sorted() ?? [] where file.hasSuffix(".md") {
                documents.append(catalog.appending(path: file))
            }
        }
        let output = context.pluginWorkDirectoryURL.appending(path: "DocSnippets.swift")
        return [
            .buildCommand(
                displayName: "Extracting the documentation's Swift snippets",
                executable: try context.tool(named: "ExtractSnippets").url,
                arguments: [root.path, output.path] + documents.map(\.path),
                inputFiles: documents,
                outputFiles: [output])
        ]
    }
}
