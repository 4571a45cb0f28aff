import Foundation

/// Replays fuzz inputs without libFuzzer: every file named on the command
/// line, or every file in a named folder, through ``FuzzTarget/check(_:)``.
///
/// Not API. `swift run FuzzRecurrence Tests/Fixtures/fuzz/recurrence`
/// reproduces a finding on a plain build; the exit status is 1 when any input
/// broke a property.
public enum FuzzReplay {
    /// Checks each input named in `CommandLine.arguments` and exits.
    public static func run(_ target: FuzzTarget) -> Never {
        var failed = 0
        var count = 0
        for path in CommandLine.arguments.dropFirst() {
            for file in files(at: path) {
                guard let data = FileManager.default.contents(atPath: file) else {
                    print("\(file): cannot be read")
                    failed += 1
                    continue
                }
                count += 1
                let broken = target.check([UInt8](data))
                if !broken.isEmpty {
                    failed += 1
                    print("\(file):\n" + broken.joined(separator: "\n"))
                }
            }
        }
        print("\(target.rawValue): \(count) inputs, \(failed) broke a property")
        exit(failed == 0 ? 0 : 1)
    }

    private static func files(at path: String) -> [String] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue else { return [path] }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        return names.sorted().map { path + "/" + $0 }
    }
}
