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

    /// Runs `horari ARGS` from a shell that first limits the address space
    /// to `kilobytes` (2 GB unless told).
    func underMemoryLimit(_ runner: CLIRunner, _ arguments: [String], kilobytes: Int = 2_000_000) throws -> CLIRunner.Output {
        let quoted = ([CLIRunner.binary.path] + arguments.map(runner.expand)).map { "'\($0)'" }.joined(separator: " ")
        return try runner.run([], shell: (Self.sanitized ? "" : "ulimit -v \(kilobytes) && ") + "exec \(quoted)")
    }

    @Test("a year of a SECONDLY rule with the default --max-per-series: its 2,000 lines, under ulimit -v 2000000")
    func secondlyYear() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        try Data(Self.secondly.utf8).write(to: runner.work.appendingPathComponent("hostile.ics"))
        let output = try underMemoryLimit(runner, ["occurrences", "$WORK/hostile.ics", "--from", "2025-01-01", "--to", "2025-12-31", "--format", "jsonl"])
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
        let text = try underMemoryLimit(runner, ["occurrences", "$WORK/hostile.ics", "--from", "2025-01-01", "--to", "2025-12-31", "--max-per-series", "10"])
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
        let output = try runner.run(["occurrences", "$WORK/hostile.ics", "--from", "2025-01-01", "--to", "2025-12-31", "--max-per-series=-1"])
        #expect(output.status != 0)
        #expect(output.stderr.contains("--max-per-series must be 0 (no limit) or more"), "\(output.stderr)")
    }

    // MARK: Issue 28: faults and hostile input

    /// Issue 28, item 12: the JSON document was built whole (an array of every
    /// occurrence, then `JSONEncoder`'s tree of it): a day of a SECONDLY rule
    /// with no cap took 209 MB of resident memory and failed to allocate under
    /// a 300 MB address-space limit, a year asked for 1.7 GB. Written as it is
    /// found, it needs what `--format jsonl` needs (under 200 MB of address space).
    @Test("--format json of a day of a SECONDLY rule with no cap (86,400 occurrences), under ulimit -v 300000: valid JSON, every occurrence")
    func secondlyDayAsJSON() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        try Data(Self.secondly.utf8).write(to: runner.work.appendingPathComponent("hostile.ics"))
        let output = try underMemoryLimit(runner, ["occurrences", "$WORK/hostile.ics", "--from", "2025-01-01", "--to", "2025-01-01",
                                                   "--max-per-series", "0", "--format", "json"], kilobytes: 300_000)
        #expect(output.status == 0, "\(output.stderr.prefix(2_000))")
        let document = try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any]
        #expect(document?["schema"] as? Int == 1)
        #expect(document?["command"] as? String == "occurrences")
        #expect(document?["timeZone"] as? String == "Europe/Madrid")
        let occurrences = document?["occurrences"] as? [[String: Any]] ?? []
        #expect(occurrences.count == 86_400)
        #expect(occurrences.first?["start"] as? String == "2025-01-01T00:00:00+01:00")
        #expect(occurrences.last?["start"] as? String == "2025-01-01T23:59:59+01:00")
    }

    /// Issue 42, 3: the list under a month's grid held every occurrence of
    /// the month (2.7 million lines of an event every second, 845 MB), and a
    /// list's first page expanded a whole month behind it to learn whether
    /// anything came before (500 MB). Now the month lists 2,000 a day of a
    /// series (a minutely event whole, as the day and week views show it)
    /// and says so, and the list stops at the first it finds.
    @Test("month and list of a SECONDLY rule, under ulimit -v 300000: the month lists 2,000 a day of the series and says so on standard error; a list's pages go back and forth, a long page too")
    func secondlyMonthAndList() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        try Data(Self.secondly.utf8).write(to: runner.work.appendingPathComponent("hostile.ics"))
        let month = try underMemoryLimit(runner, ["month", "2025-01", "--calendar", "$WORK/hostile.ics", "--today", "2025-01-10"], kilobytes: 300_000)
        #expect(month.status == 0, "\(month.stderr.prefix(2_000))")
        let listed = month.stdout.split(separator: "\n").filter { $0.contains("Tick") }
        #expect(listed.count == 62_000)
        #expect(listed.first?.hasPrefix("Wed 2025-01-01 00:00") == true && listed.last?.hasPrefix("Wed 2025-01-01 17:13") == true)
        #expect(month.stderr == "horari: ‘Tick’ (every-second@hostile.example) repeats more than 62,000 times in this month; only the first 62,000 are shown\n")

        func page(_ extra: [String], limit: Int = 3) throws -> (starts: [String], previous: String?) {
            let output = try underMemoryLimit(runner, ["list", "--calendar", "$WORK/hostile.ics", "--today", "2025-01-10", "--limit", "\(limit)", "--format", "json"] + extra, kilobytes: 300_000)
            #expect(output.status == 0, "\(output.stderr.prefix(2_000))")
            let document = try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any]
            let sections = document?["sections"] as? [[String: Any]] ?? []
            let starts = sections.flatMap { ($0["occurrences"] as? [[String: Any]] ?? []).compactMap { $0["start"] as? String } }
            return (starts, document?["previousPage"] as? String)
        }
        let first = try page([])
        #expect(first.starts == ["2025-01-10T00:00:00+01:00", "2025-01-10T00:00:01+01:00", "2025-01-10T00:00:02+01:00"])
        let previous = try #require(first.previous)
        let before = try page(["--before", previous])
        #expect(before.starts == ["2025-01-09T23:59:57+01:00", "2025-01-09T23:59:58+01:00", "2025-01-09T23:59:59+01:00"])
        #expect(before.previous != nil)
        // A long page before: the 5,000 seconds just before midnight, in order.
        let long = try page(["--before", previous], limit: 5_000)
        #expect(long.starts.count == 5_000 && long.starts.first == "2025-01-09T22:36:40+01:00" && long.starts.last == "2025-01-09T23:59:59+01:00")
        #expect(long.starts == long.starts.sorted())
    }

    /// The streamed document is the encoder's own form: an empty window, and
    /// occurrences sharing a start (sorted as expand.py sorts them).
    @Test("--format json streamed is byte for byte the document written whole: an empty window, and equal starts")
    func jsonFormUnchanged() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        try Data(Self.secondly.utf8).write(to: runner.work.appendingPathComponent("hostile.ics"))
        let empty = try runner.run(["occurrences", "$WORK/hostile.ics", "--from", "2024-01-01", "--to", "2024-01-01", "--format", "json"])
        #expect(empty.status == 0)
        #expect(empty.stdout == "{\n  \"command\" : \"occurrences\",\n  \"occurrences\" : [\n\n  ],\n  \"schema\" : 1,\n  \"timeZone\" : \"Europe/Madrid\"\n}\n")
        let two = """
            BEGIN:VCALENDAR\r
            VERSION:2.0\r
            PRODID:-//Horari tests//Hostile//EN\r
            BEGIN:VEVENT\r
            UID:b\r
            DTSTAMP:20250101T000000Z\r
            DTSTART:20250101T100000Z\r
            SUMMARY:Second/by UID\r
            END:VEVENT\r
            BEGIN:VEVENT\r
            UID:a\r
            DTSTAMP:20250101T000000Z\r
            DTSTART:20250101T100000Z\r
            SUMMARY:First "by UID"\r
            END:VEVENT\r
            END:VCALENDAR\r

            """
        try Data(two.utf8).write(to: runner.work.appendingPathComponent("two.ics"))
        let output = try runner.run(["occurrences", "$WORK/two.ics", "--from", "2025-01-01", "--to", "2025-01-01", "--format", "json", "--time-zone", "UTC"])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout == """
            {
              "command" : "occurrences",
              "occurrences" : [
                {
                  "allDay" : false,
                  "done" : false,
                  "end" : "2025-01-01T10:00:00+00:00",
                  "kind" : "event",
                  "start" : "2025-01-01T10:00:00+00:00",
                  "title" : "First \\"by UID\\"",
                  "uid" : "a"
                },
                {
                  "allDay" : false,
                  "done" : false,
                  "end" : "2025-01-01T10:00:00+00:00",
                  "kind" : "event",
                  "start" : "2025-01-01T10:00:00+00:00",
                  "title" : "Second/by UID",
                  "uid" : "b"
                }
              ],
              "schema" : 1,
              "timeZone" : "UTC"
            }

            """)
    }

    /// A calendar of `count` events none of which is closed: one error each.
    static func unclosed(_ count: Int) -> String {
        var text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Horari tests//Hostile//EN\r\n"
        for n in 0..<count {
            text += "BEGIN:VEVENT\r\nUID:open-\(n)\r\nDTSTAMP:20250101T000000Z\r\nDTSTART:20250101T090000Z\r\nSUMMARY:Open\r\n"
        }
        return text + "END:VCALENDAR\r\n"
    }

    /// Issue 28, item 13: 100,000 unclosed components printed 400,000 lines
    /// (63 MB) on standard error. A report keeps the first 100 problems of a
    /// kind and says how many more there were; validate still counts them all.
    @Test("10,000 unclosed events: validate prints 100 of them, a summary and the true total, and fails; list's standard error is as short")
    func diagnosticsFlood() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        try Data(Self.unclosed(10_000).utf8).write(to: runner.work.appendingPathComponent("flood.ics"))
        let validate = try runner.run(["validate", "$WORK/flood.ics"])
        #expect(validate.status == 1)
        let lines = validate.stdout.split(separator: "\n")
        #expect(lines.count == 102, "\(lines.count) lines")
        #expect(lines.dropLast().last?.contains("and 9,900 more like it") == true, "\(lines.dropLast().last ?? "")")
        #expect(lines.last?.hasSuffix("flood.ics: 10000 items, 10000 errors, 0 warnings") == true, "\(lines.last ?? "")")
        let list = try runner.run(["list", "--calendar", "$WORK/flood.ics", "--from", "2025-01-01", "--limit", "1", "--color", "never"])
        #expect(list.status == 0, "\(list.stderr.prefix(2_000))")
        let errors = list.stderr.split(separator: "\n")
        #expect(errors.count == 101, "\(errors.count) lines")
        #expect(errors.last?.contains("and 9,900 more like it") == true)
    }

    /// Issue 28, item 14: a file whose lines end in a bare CR (classic Mac OS)
    /// was read as one line, and importing it wrote a component of run-together
    /// lines (`BEGIN:VCALENDARVERSION:2.0PRODID:…`) into the calendar.
    @Test("importing a file with CR-only line ends adds its event, and writes nothing it did not read")
    func crOnlyImport() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let output = try runner.run(["import", "$FIXTURES/cr_only_line_ends.ics", "--into", "$WORK/gym.ics"])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stderr.isEmpty, "\(output.stderr)")
        #expect(output.stdout.hasPrefix("added 1,"), "\(output.stdout)")
        let text = String(decoding: runner.calendarBytes, as: UTF8.self)
        #expect(!text.contains("VCALENDARVERSION"))
        #expect(text.contains("UID:old-mac@hostile.example\r\n"))
        #expect(text.contains("SUMMARY:Saved on a Mac in 1999\r\n"))
        let validate = try runner.run(["validate", "$WORK/gym.ics"])
        #expect(validate.status == 0, "\(validate.stdout)")
    }

    /// Whether a child can be given an empty `/usr/share/zoneinfo`: as root,
    /// in a mount namespace of its own (`unshare -m`), where the machine allows one.
    static let canHideZoneFiles: Bool = {
        guard getuid() == 0, FileManager.default.fileExists(atPath: "/usr/share/zoneinfo"),
            let runner = try? CLIRunner() else { return false }
        defer { runner.cleanUp() }
        return (try? runner.run([], shell: "unshare -m sh -c 'mount --bind /tmp /usr/share/zoneinfo' 2>/dev/null").status) == 0
    }()

    /// Issue 28, item 11: on a machine without tz files (a container without
    /// tzdata), every view stopped with SIGILL in Foundation's `DateFormatter`
    /// (`CalendarNames.init`), unless `TZ` was `UTC`. Now the views show the
    /// same times (Foundation's own zone data) and say once what is missing.
    @Test("with an empty /usr/share/zoneinfo and TZ=Europe/Madrid, the views print what they print with one, and a note once", .enabled(if: canHideZoneFiles))
    func noZoneFiles() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let empty = runner.work.appendingPathComponent("no-zoneinfo")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let commands = [
            ["month", "2026-11", "--calendar", "$SAMPLE", "--color", "never"],
            ["week", "2026-11-25", "--calendar", "$SAMPLE", "--color", "never", "--locale", "es_ES"],
            ["day", "2026-11-25", "--calendar", "$SAMPLE", "--color", "never"],
            ["list", "--from", "2026-11-23", "--limit", "6", "--calendar", "$SAMPLE", "--color", "never"],
            ["occurrences", "$SAMPLE", "--from", "2026-11-27", "--to", "2026-11-28", "--format", "json"],
            ["--today", "2026-11-22", "--color", "never"],
        ]
        for arguments in commands {
            let quoted = ([CLIRunner.binary.path] + arguments.map(runner.expand)).map { "'\($0)'" }.joined(separator: " ")
            let hidden = try runner.run([], environment: ["TZ": "Europe/Madrid"],
                                        shell: "exec unshare -m sh -c \"mount --bind '\(empty.path)' /usr/share/zoneinfo && exec \(quoted)\"")
            let plain = try runner.run(arguments, environment: ["TZ": "Europe/Madrid"])
            #expect(hidden.status == 0, "\(arguments): exit \(hidden.status)\n\(hidden.stderr.prefix(1_000))")
            #expect(hidden.stdout == plain.stdout, "\(arguments)")
            let notes = hidden.stderr.split(separator: "\n").filter { $0.contains("no time zone files in /usr/share/zoneinfo") }
            #expect(notes.count == 1, "\(arguments): \(hidden.stderr)")
            #expect(plain.stderr.isEmpty, "\(arguments): \(plain.stderr)")
        }
    }
}
