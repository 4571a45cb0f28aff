import Foundation
import _CalendarTestSupport
import Testing

/// What makes `horari` a tool people keep: help with examples everywhere,
/// shell completions, a question before deleting, and messages on standard
/// error. (A full disk is checked by `Conformance/cli_failures.sh`, which
/// needs a tiny file system; a read-only calendar or folder by
/// `FileSafetyTests` and that script.)
@Suite("horari, as a new user meets it")
struct FeelTests {
    /// Every subcommand named in `horari --help`, and theirs, recursively.
    static func subcommands(_ runner: CLIRunner, _ path: [String] = []) throws -> [[String]] {
        let help = try runner.run(path + ["--help"]).stdout
        guard let section = help.range(of: "SUBCOMMANDS:\n") else { return [] }
        var found: [[String]] = []
        // The list ends at the first empty line; continuation lines are indented further.
        for line in help[section.upperBound...].split(separator: "\n", omittingEmptySubsequences: false) {
            if line.isEmpty { break }
            guard !line.hasPrefix("   "), let name = line.split(separator: " ").first else { continue }
            let command = path + [String(name)]
            found.append(command)
            found += try subcommands(runner, command)
        }
        return found
    }

    @Test func everySubcommandHasHelpWithExamples() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let all = try Self.subcommands(runner)
        #expect(all.count >= 30 && all.count < 80, "found \(all.count) subcommands: \(all)")
        for command in [[]] + all {
            let output = try runner.run(command + ["--help"])
            #expect(output.status == 0, "\(command) --help")
            #expect(output.stdout.contains("Example"), "horari \(command.joined(separator: " ")) --help shows no example")
        }
    }

    @Test(arguments: ["bash", "zsh", "fish"])
    func shellCompletions(_ shell: String) throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let output = try runner.run(["--generate-completion-script", shell])
        #expect(output.status == 0)
        for word in ["sessions", "timetable", "calendar", "first-weekday"] {
            #expect(output.stdout.contains(word), "the \(shell) completion script does not know \(word)")
        }
    }

    /// `delete` on a terminal asks, and only "y" or "yes" deletes. The terminal
    /// is a pseudo-terminal from util-linux's `script`.
    @Test(arguments: [("y\n", true), ("yes\n", true), ("n\n", false), ("\n", false)])
    func deleteAsksOnATerminal(_ answer: String, _ deletes: Bool) throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script") else {
            Issue.record("util-linux's script is needed for a pseudo-terminal (Debian's bsdutils)")
            return
        }
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let calendar = runner.work.appendingPathComponent("gym.ics").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["-qec", "'\(CLIRunner.binary.path)' delete order-mats --calendar '\(calendar)'", "/dev/null"]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let watchdog = ChildWatchdog(process)
        input.fileHandleForWriting.write(Data(answer.utf8))
        try input.fileHandleForWriting.close()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        try watchdog.check("horari delete on a terminal")
        #expect(text.contains("Delete task ‘Order new yoga mats’ (due Fri 2026-11-27 20:00 Europe/Madrid, orchid)? [y/N]"), "\(text)")
        let still = try String(contentsOfFile: calendar, encoding: .utf8).contains("UID:order-mats")
        #expect(still == !deletes, "answer \(answer.debugDescription): \(text)")
        #expect(text.contains(deletes ? "Deleted task" : "Nothing deleted."))
        #expect(process.terminationStatus == 0)
    }

    /// Errors go to standard error, output to standard output, so a pipe gets
    /// only what it asked for.
    @Test func errorsGoToStandardError() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let output = try runner.run(["book", "--member", "quim", "--class", "pilates", "--date", "2026-11-26", "--calendar", "$WORK/gym.ics", "--now", "2026-11-22 10:00"])
        #expect(output.status == 1)
        #expect(output.stdout.isEmpty)
        #expect(output.stderr.hasPrefix("Error: Reformer Pilates on 2026-11-26 is full (4 of 4 places taken, 1 waiting)"))
    }
}

/// The embedded sample is a real calendar file: what its script builds, valid
/// without a single warning, and exported back byte for byte.
@Suite("The sample gym calendar")
struct SampleCalendarTests {
    @Test func isWhatItsScriptBuilds() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let rebuilt = runner.work.appendingPathComponent("rebuilt.ics")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = [CLIRunner.root.appendingPathComponent("Examples/Samples/make_gym.sh").path, CLIRunner.binary.path, rebuilt.path]
        process.environment = ["PATH": "/usr/bin:/bin", "TZ": "UTC"]
        try process.run()
        let watchdog = ChildWatchdog(process)
        process.waitUntilExit()
        try watchdog.check("make_gym.sh")
        #expect(process.terminationStatus == 0)
        let same = try Data(contentsOf: rebuilt) == Data(contentsOf: CLIRunner.sample)
        #expect(same, "Examples/Samples/gym.ics is not what make_gym.sh builds; rebuild it with the script")
    }

    @Test func validatesStrictlyAndExportsByteForByte() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let validation = try runner.run(["validate", "$SAMPLE", "--strict"])
        #expect(validation.status == 0)
        #expect(validation.stdout.hasSuffix("0 errors, 0 warnings\n"), "\(validation.stdout)")
        let export = try runner.run(["export", "$SAMPLE"])
        #expect(export.status == 0)
        let same = try Data(export.stdout.utf8) == Data(contentsOf: CLIRunner.sample)
        #expect(same, "exporting the sample changes it")
    }
}

/// A large import shows a progress line on a terminal, and nothing of it in a pipe.
@Suite("Progress line")
struct ProgressLineTests {
    @Test func largeFileOnATerminalOnly() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script") else {
            Issue.record("util-linux's script is needed for a pseudo-terminal (Debian's bsdutils)")
            return
        }
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        // 12,000 events, about 2.7 MB: over the 1 MB threshold.
        var text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Horari tests//EN\r\n"
        for i in 0..<12_000 {
            text += "BEGIN:VEVENT\r\nUID:e\(i)@example.org\r\nDTSTAMP:20260101T000000Z\r\nDTSTART:20260101T\(i % 24 < 10 ? "0" : "")\(i % 24)0000Z\r\n"
            text += "SUMMARY:Event number \(i) with a longer title to fill the file\r\nDESCRIPTION:\(String(repeating: "x", count: 60))\r\nEND:VEVENT\r\n"
        }
        text += "END:VCALENDAR\r\n"
        let big = runner.work.appendingPathComponent("big.ics")
        try Data(text.utf8).write(to: big)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["-qec", "'\(CLIRunner.binary.path)' validate '\(big.path)'", "/dev/null"]
        process.environment = ["TERM": "xterm", "PATH": "/usr/bin:/bin"]
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let watchdog = ChildWatchdog(process)
        let onTerminal = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        try watchdog.check("horari validate on a terminal")
        #expect(onTerminal.contains("\r\u{1B}[KReading big.ics: 1.0 of 2.9 MB ("), "\(onTerminal.suffix(300))")
        #expect(onTerminal.contains("(100%)\r\u{1B}[K"), "the line is cleared before the result")
        #expect(onTerminal.contains("12000 items, 0 errors, 0 warnings"))

        let piped = try runner.run(["validate", big.path])
        #expect(!piped.stderr.contains("Reading"), "a pipe gets no progress line")
        #expect(piped.stdout.hasSuffix("12000 items, 0 errors, 0 warnings\n"))
    }
}

@Suite("horari leaves nothing beside the calendar and says why it waits")
struct LockTests {
    @Test("no file but the calendar is left in its folder after changes")
    func noStrayFiles() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let folder = runner.work.appendingPathComponent("cal")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let cal = ["--calendar", "$WORK/cal/gym.ics"]
        #expect(try runner.run(["add", "Lunch", "--start", "2026-11-24 14:00", "--minutes", "30", "--time-zone", "Europe/Madrid"] + cal).status == 0)
        #expect(try runner.run(["add", "Busy", "--start", "2026-11-24 10:00", "--color", "red"] + cal).status == 1)
        #expect(try runner.run(["import", "$FIXTURES/basic.ics", "--into", "$WORK/cal/gym.ics"]).status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["gym.ics"])
    }

    @Test("a change waits for another process's lock, and says so after a second")
    func waitingIsSaid() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        // Another process holds the calendar's folder (util-linux's flock)
        // until told to let go: no race with the machine's load, which once
        // let a two-second holder finish before horari had started.
        let held = runner.work.appendingPathComponent(".held"), release = runner.work.appendingPathComponent(".release")
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/flock")
        holder.arguments = [runner.work.path, "/bin/sh", "-c", "touch '\(held.path)'; while [ ! -e '\(release.path)' ]; do sleep 0.05; done"]
        try holder.run()
        defer { holder.waitUntilExit() }
        for _ in 0..<600 where !FileManager.default.fileExists(atPath: held.path) { Thread.sleep(forTimeInterval: 0.05) }
        #expect(FileManager.default.fileExists(atPath: held.path), "flock never took the folder")
        // The holder lets go once horari says it is waiting (or after a minute, and the test fails).
        let stderr = runner.work.appendingPathComponent(".stderr")
        let releaser = Thread {
            for _ in 0..<1200 {
                if let text = try? CLIRunner.text(of: stderr), text.contains("waiting") { break }
                Thread.sleep(forTimeInterval: 0.05)
            }
            _ = FileManager.default.createFile(atPath: release.path, contents: nil)
        }
        releaser.start()
        let add = try runner.run(["add", "Lunch", "--start", "2026-11-24 14:00", "--calendar", "$WORK/gym.ics"])
        #expect(add.status == 0, "\(add.stderr)")
        #expect(add.stderr == "waiting for another horari to finish with gym.ics…\n")
        #expect(FileManager.default.fileExists(atPath: release.path), "horari finished while the folder was held")
    }
}

@Suite("horari prints what a person can read")
struct PrintingTests {
    @Test func version() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let output = try runner.run(["--version"])
        #expect(output.status == 0)
        #expect(output.stdout.range(of: #"^[0-9]+\.[0-9]+\.[0-9]+(-[a-z0-9.]+)?\n$"#, options: .regularExpression) != nil, "\(output.stdout)")
    }

    @Test("control characters in a title are written out, never sent to the terminal")
    func controlCharactersEscaped() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let cal = ["--calendar", "$WORK/gym.ics"]
        let add = try runner.run(["add", "\u{1B}[2JBoom\u{07}", "--start", "2026-11-24 14:00", "--id", "boom"] + cal)
        #expect(add.status == 0, "\(add.stderr)")
        #expect(add.stdout.contains("‘\\x1b[2JBoom\\x07’") && !add.stdout.contains("\u{1B}"), "\(add.stdout)")
        // The 8-bit CSI (U+009B, two bytes in UTF-8) and DEL are control characters too; é and ✓ are not.
        for (title, shown) in [("\u{9B}2JBoom é ✓", "‘\\x9b2JBoom é ✓’"), ("Boom\u{7F}", "‘Boom\\x7f’")] {
            let c1 = try runner.run(["add", title, "--start", "2026-11-24 15:00", "--id", "boom-\(shown.count)"] + cal)
            #expect(c1.stdout.contains(shown) && !c1.stdout.contains("\u{9B}") && !c1.stdout.contains("\u{7F}"), "\(c1.stdout)")
        }
        // Read back, the file's line loses its control characters (RFC 5545
        // allows none; the importer reports it), so no view sends one either.
        for view in [["list", "--from", "2026-11-24", "--limit", "3"], ["day", "2026-11-24"], ["month", "2026-11"]] {
            let out = try runner.run(view + cal + ["--color", "never"])
            #expect(out.stdout.contains("[2JBoom") && !out.stdout.contains("\u{1B}") && !out.stdout.contains("\u{07}"), "\(view): \(out.stdout)")
        }
    }
}
