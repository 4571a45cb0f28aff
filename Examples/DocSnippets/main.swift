import Foundation

// Runs every Swift snippet of the README and the DocC articles (extracted at
// build time by Plugins/CompileDocSnippets), in order, in a scratch folder
// that holds the sample gym calendar as gym.ics. `make snippets` runs it;
// the build alone proves that they compile.
let folder = FileManager.default.temporaryDirectory.appendingPathComponent("horari-snippets-\(getpid())")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: folder) }
if CommandLine.arguments.count > 1 {
    try FileManager.default.copyItem(atPath: CommandLine.arguments[1], toPath: folder.appendingPathComponent("gym.ics").path)
}
_ = FileManager.default.changeCurrentDirectoryPath(folder.path)
var failed = 0
for snippet in documentationSnippets {
    do {
        try await snippet.run()
        print("ok    \(snippet.source)")
    } catch {
        failed += 1
        print("FAIL  \(snippet.source): \(error)")
    }
}
print("\(documentationSnippets.count - failed) of \(documentationSnippets.count) documentation snippets ran")
exit(failed == 0 ? 0 : 1)
