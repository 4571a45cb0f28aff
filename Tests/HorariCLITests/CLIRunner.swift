import Foundation
import _CalendarTestSupport
import Testing

/// Runs the built `horari` binary as a user would, and compares what it
/// printed with a golden file — swift-argument-parser's own example tests
/// (`AssertExecuteCommand`) are the model.
///
/// A golden file holds the command line, standard output, standard error and
/// the exit code, with the escape character shown as `␛` so colours can be
/// read and reviewed. `HORARI_UPDATE_GOLDEN=1 swift test --filter HorariCLITests`
/// rewrites the files from the current binary; review the diff before committing.
struct CLIRunner {
    /// The package's root folder.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")
    static let sample = root.appendingPathComponent("Examples/Samples/gym.ics")

    /// The `horari` next to the test bundle (the test target depends on it, so
    /// `swift test` builds it into the same folder).
    static var binary: URL {
        let folder = Bundle.main.bundleURL.pathExtension == "xctest"
            ? Bundle.main.bundleURL.deletingLastPathComponent() : Bundle.main.bundleURL
        return folder.appendingPathComponent("horari")
    }

    struct Output: Equatable {
        var stdout: String
        var stderr: String
        var status: Int32
    }

    /// A scratch folder with writable copies of the sample calendar (`gym.ics`) and the planner fixture (`planner.ics`).
    let work: URL

    init() throws {
        work = FileManager.default.temporaryDirectory.appendingPathComponent("horari-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Self.sample, to: work.appendingPathComponent("gym.ics"))
        // A student's planner (done tasks, long UIDs), for the commands that change one.
        try FileManager.default.copyItem(at: Self.root.appendingPathComponent("Tests/Fixtures/ics/planner.ics"),
                                         to: work.appendingPathComponent("planner.ics"))
    }

    func cleanUp() { try? FileManager.default.removeItem(at: work) }

    /// `$SAMPLE` (the committed sample), `$WORK` (the scratch folder) and
    /// `$FIXTURES` in arguments are replaced by their paths.
    func expand(_ argument: String) -> String {
        argument
            .replacingOccurrences(of: "$SAMPLE", with: Self.sample.path)
            .replacingOccurrences(of: "$WORK", with: work.path)
            .replacingOccurrences(of: "$FIXTURES", with: Self.root.appendingPathComponent("Tests/Fixtures/ics").path)
    }

    /// Runs `horari` with a fixed, small environment: no colour unless asked
    /// (`--color always`), UTC as the system zone, the scratch folder as home.
    /// With `shell`, runs that command line with `/bin/sh -c` instead (in
    /// the same environment), for limits a shell sets, such as `ulimit`.
    func run(_ arguments: [String], environment extra: [String: String] = [:], stdin: String? = nil, shell: String? = nil) throws -> Output {
        let process = Process()
        if let shell {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", shell]
        } else {
            process.executableURL = Self.binary
            process.arguments = arguments.map(expand)
        }
        var environment = ["HOME": work.path, "XDG_DATA_HOME": work.appendingPathComponent("data").path, "TZ": "UTC", "LANG": "C", "PATH": "/usr/bin:/bin"]
        environment.merge(extra) { $1 }
        process.environment = environment
        process.currentDirectoryURL = work
        // Output goes to files, so neither stream can fill a pipe and stall the child.
        let outURL = work.appendingPathComponent(".stdout")
        let errURL = work.appendingPathComponent(".stderr")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let out = try FileHandle(forWritingTo: outURL)
        let err = try FileHandle(forWritingTo: errURL)
        defer {
            try? out.close()
            try? err.close()
        }
        let input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        let watchdog = ChildWatchdog(process)
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        try watchdog.check(shell ?? "horari " + arguments.joined(separator: " "))
        return Output(stdout: try Self.text(of: outURL), stderr: try Self.text(of: errURL), status: process.terminationStatus)
    }

    /// A file's text, read through `FileHandle`: `String(contentsOf:)` of an
    /// empty file leaks a 4 KiB buffer in this toolchain's Foundation
    /// (LeakSanitizer, `make test-address`), and most runs leave stderr empty.
    static func text(of url: URL) throws -> String {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        return String(decoding: try handle.readToEnd() ?? Data(), as: UTF8.self)
    }

    /// The golden text of a run: paths made portable, escapes made visible.
    func transcript(_ arguments: [String], _ output: Output) -> String {
        func clean(_ s: String) -> String {
            s.replacingOccurrences(of: work.path, with: "$WORK")
                .replacingOccurrences(of: Self.root.path, with: "$ROOT")
                .replacingOccurrences(of: "\u{1B}", with: "␛")
        }
        let command = "$ horari " + arguments.map { $0.isEmpty || $0.contains(where: " ;#&|<>()*?'\"\\".contains) ? "'\($0)'" : $0 }.joined(separator: " ")
        return command + "\n--- stdout\n" + clean(output.stdout) + "--- stderr\n" + clean(output.stderr) + "--- exit \(output.status)\n"
    }

    /// Compares a run with `Golden/<name>.txt` (or writes it in update mode).
    func expectGolden(_ name: String, _ arguments: [String], environment: [String: String] = [:], stdin: String? = nil,
                      stampsVary: Bool = false, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let output = try run(arguments, environment: environment, stdin: stdin)
        var text = transcript(arguments, output)
        if stampsVary {
            text = text.replacing(/DTSTAMP:[0-9]{8}T[0-9]{6}Z/, with: "DTSTAMP:…")
                .replacing(/\["dtstamp",\{\},"date-time","[0-9-]{10}T[0-9:]{8}Z"\]/, with: #"["dtstamp",{},"date-time","…"]"#)
        }
        let file = Self.golden.appendingPathComponent(name + ".txt")
        if ProcessInfo.processInfo.environment["HORARI_UPDATE_GOLDEN"] == "1" {
            try FileManager.default.createDirectory(at: Self.golden, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: file)
            return
        }
        guard let expected = try? String(contentsOf: file, encoding: .utf8) else {
            Issue.record("no golden file \(name).txt; run with HORARI_UPDATE_GOLDEN=1 and review it", sourceLocation: sourceLocation)
            return
        }
        #expect(text == expected, "\(name): the output differs from Golden/\(name).txt", sourceLocation: sourceLocation)
    }

    /// The scratch copy of the calendar, byte for byte.
    var calendarBytes: Data { bytes(of: "gym.ics") }

    /// The bytes of a file in the scratch folder (none when it is missing).
    func bytes(of name: String) -> Data { (try? Data(contentsOf: work.appendingPathComponent(name))) ?? Data() }
}

