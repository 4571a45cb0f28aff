import Foundation
import Testing

/// Input built to exhaust the machine answers within its limits: the cap per
/// series is applied while expanding, so a year of a `FREQ=SECONDLY` event
/// (31 million occurrences) costs what its first 2,000 cost, under a 2 GB
/// address-space limit as a user's shell may set (`ulimit -v`).
@Suite("Hostile input")
struct HostileInputTests {
    static let secondly = """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        PRODID:-//Horari tests//Hostile//EN\r
        BEGIN:VEVENT\r
        UID:every-second@hostile.example\r
        DTSTAMP:20250101T000000Z\r
        DTSTART;TZID=Europe/Madrid:20250101T000000\r
        RRULE:FREQ=SECONDLY\r
        SUMMARY:Tick\r
        END:VEVENT\r
        END:VCALENDAR\r

        """

    /// Whether this process (and so the `horari` built with it) runs under
    /// ThreadSanitizer or AddressSanitizer (`make test-thread`, `make
    /// test-address`): their shadow memory needs an unlimited address space,
    /// so there the limit is left out and the rest is checked as ever.
    static let sanitized: Bool = {
        guard let me = dlopen(nil, RTLD_NOW) else { return false }
        defer { dlclose(me) }
        return dlsym(me, "__tsan_init") != nil || dlsym(me, "__asan_init") != nil
    }()

    /// Runs `horari ARGS` from a shell that first limits the address space to 2 GB.
    func underMemoryLimit(_ runner: CLIRunner, _ arguments: [String]) throws -> CLIRunner.Output {
        let quoted = ([CLIRunner.binary.path] + arguments.map(runner.expand)).map { "'\($0)'" }.joined(separator: " ")
        return try runner.run([], shell: (Self.sanitized ? "" : "ulimit -v 2000000 && ") + "exec \(quoted)")
    }

    @Test("a year of a SECONDLY rule with the default --max-per-series: its 2,000 lines, under ulimit -v 2000000")
    func secondlyYear() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        try Data(Self.secondly.utf8).write(to: runner.work.appendingPathComponent("hostile.ics"))
        let output = try underMemoryLimit(runner, ["occurrences", "$WORK/hostile.ics", "--from", "2025-01-01", "--to", "2026-01-01", "--format", "jsonl"])
        #expect(output.status == 0, "\(output.stderr)")
        let lines = output.stdout.split(separator: "\n")
        #expect(lines.count == 2_000)
        #expect(lines.first == #"{"uid": "every-second@hostile.example", "recurrence_id": "2025-01-01T00:00:00+01:00", "start": "2025-01-01T00:00:00+01:00", "end": "2025-01-01T00:00:00+01:00", "summary": "Tick", "component": "VEVENT", "tzid": "Europe/Madrid"}"#)
        // 1,999 seconds after midnight: 00:33:19.
        #expect(lines.last?.contains(#""start": "2025-01-01T00:33:19+01:00""#) == true, "\(lines.last ?? "")")
    }

    @Test("the same file in the text form, and without a cap over an hour (3,600 lines)")
    func secondlyTextAndUncapped() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        try Data(Self.secondly.utf8).write(to: runner.work.appendingPathComponent("hostile.ics"))
        let text = try underMemoryLimit(runner, ["occurrences", "$WORK/hostile.ics", "--from", "2025-01-01", "--to", "2026-01-01", "--max-per-series", "10"])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.split(separator: "\n").count == 10)
        let hour = try underMemoryLimit(runner, ["occurrences", "$WORK/hostile.ics", "--from", "2025-06-01T10:00:00", "--to", "2025-06-01T11:00:00",
                                                 "--max-per-series", "0", "--format", "jsonl"])
        #expect(hour.status == 0, "\(hour.stderr)")
        let lines = hour.stdout.split(separator: "\n")
        #expect(lines.count == 3_600)
        #expect(lines.first?.contains(#""start": "2025-06-01T10:00:00+02:00""#) == true)
        #expect(lines.last?.contains(#""start": "2025-06-01T10:59:59+02:00""#) == true)
    }

    @Test("a negative --max-per-series is refused with a message")
    func negativeCap() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        try Data(Self.secondly.utf8).write(to: runner.work.appendingPathComponent("hostile.ics"))
        let output = try runner.run(["occurrences", "$WORK/hostile.ics", "--from", "2025-01-01", "--to", "2026-01-01", "--max-per-series=-1"])
        #expect(output.status != 0)
        #expect(output.stderr.contains("--max-per-series must be 0 (no limit) or more"), "\(output.stderr)")
    }
}
