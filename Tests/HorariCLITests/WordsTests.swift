import Foundation
import Testing

/// The CLI's words (issue 28, items 21 and 22): what it says when a command
/// is mistyped, and that every command says the same thing the same way.
@Suite("horari's words")
struct WordsTests {
    static let gym = ["--calendar", "$WORK/gym.ics"]

    @Test("#f00 is a colour as in CSS: red, and refused as red; #0a0 accepted")
    func threeDigitHexColour() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let before = runner.calendarBytes
        let red = try runner.run(["add", "Busy", "--start", "2026-11-24 10:00", "--color", "#f00"] + Self.gym)
        #expect(red.status == 1, "\(red.stderr)")
        #expect(red.stderr.contains("red marks days with two or more items"), "\(red.stderr)")
        #expect(runner.calendarBytes == before)
        let green = try runner.run(["add", "Calm", "--start", "2026-11-24 10:00", "--color", "#0a0", "--id", "calm"] + Self.gym)
        #expect(green.status == 0, "\(green.stderr)")
        let text = String(decoding: runner.calendarBytes, as: UTF8.self)
        #expect(text.contains("#00aa00"), "the colour is written whole")
        let wrong = try runner.run(["add", "Odd", "--start", "2026-11-24 10:00", "--color", "#f0"] + Self.gym)
        #expect(wrong.status == 2 && wrong.stderr.contains("is not #RRGGBB or #RGB"), "\(wrong.stderr)")
    }
}

extension WordsTests {
    @Test("one version everywhere: the PRODID written names what --version prints")
    func oneVersion() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let version = try runner.run(["--version"])
        #expect(version.status == 0)
        let number = version.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(!number.isEmpty)
        let added = try runner.run(["add", "Essay", "--task", "--due", "2026-11-27 18:00", "--calendar", "$WORK/new.ics"])
        #expect(added.status == 0, "\(added.stderr)")
        let written = String(decoding: runner.bytes(of: "new.ics"), as: UTF8.self)
        #expect(written.contains("PRODID:-//Horari//Horari \(number)//EN\r\n"), "\(written.prefix(200))")
        let export = try runner.run(["export", "$WORK/gym.ics", "--for", "public"])
        #expect(export.stdout.contains("PRODID:-//Horari//Horari \(number)//EN\r\n"), "\(export.stdout.prefix(200))")
    }
}

extension WordsTests {
    @Test("sessions list, sessions history and classes timetable say Times in ZONE as the views do")
    func timesInZone() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let now = ["--now", "2026-11-22 10:00"]
        let commands: [[String]] = [
            ["sessions", "list", "--coach", "marc"] + now, ["sessions", "list", "--coach", "marc", "--past"] + now,
            ["sessions", "history", "--client", "anna", "--coach", "marc"], ["classes", "timetable"],
            ["classes", "timetable", "--week", "2026-11-23"], ["list", "--from", "2026-11-23", "--limit", "3"],
        ]
        for command in commands {
            // TZ=UTC: the gym's Madrid is not the machine's zone.
            let away = try runner.run(command + Self.gym)
            #expect(away.status == 0, "\(command): \(away.stderr)")
            #expect(away.stdout.hasPrefix("Times in Europe/Madrid\n"), "\(command): \(away.stdout)")
            let home = try runner.run(command + Self.gym, environment: ["TZ": "Europe/Madrid"])
            #expect(home.status == 0 && !home.stdout.contains("Times in"), "\(command) at home: \(home.stdout)")
        }
        // Shown on another clock, the sessions and a week's classes name it; the
        // weekly timetable stays on the gym's own clock, and says so.
        let tokyo = try runner.run(["sessions", "list", "--coach", "marc", "--time-zone", "Asia/Tokyo"] + now + Self.gym, environment: ["TZ": "Europe/Madrid"])
        #expect(tokyo.stdout.hasPrefix("Times in Asia/Tokyo\n"), "\(tokyo.stdout)")
        let weekly = try runner.run(["classes", "timetable", "--time-zone", "Asia/Tokyo"] + Self.gym, environment: ["TZ": "Asia/Tokyo"])
        #expect(weekly.stdout.hasPrefix("Times in Europe/Madrid\n"), "\(weekly.stdout)")
    }
}

extension WordsTests {
    @Test("an edit that changes nothing writes nothing, and says so")
    func editThatChangesNothing() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let before = runner.calendarBytes
        for change in [["--title", "Order new yoga mats"], ["--color", "orchid"], ["--due", "2026-11-27 20:00"]] {
            let output = try runner.run(["edit", "order-mats"] + change + Self.gym + ["--now", "2026-11-23 10:00"])
            #expect(output.status == 0, "\(change): \(output.stderr)")
            #expect(output.stdout.hasPrefix("Nothing to change: task ‘Order new yoga mats’"), "\(change): \(output.stdout)")
            #expect(output.stdout.contains("the calendar was not written"), "\(output.stdout)")
            #expect(runner.calendarBytes == before, "\(change) rewrote the file")
        }
        let changed = try runner.run(["edit", "order-mats", "--color", "plum"] + Self.gym)
        #expect(changed.status == 0 && changed.stdout.hasPrefix("Changed task"), "\(changed.stdout)")
        #expect(runner.calendarBytes != before)
    }
}

extension WordsTests {
    @Test("add names the item by the short ID the views print (or the --id given)")
    func addPrintsTheShortID() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let added = try runner.run(["add", "Stretch", "--start", "2026-11-24 10:00", "--minutes", "30"] + Self.gym)
        #expect(added.status == 0, "\(added.stderr)")
        let id = try #require(added.stdout.split(separator: " ").last.map { String($0.dropLast(2)) }, "\(added.stdout)")
        #expect(id.count == 6 && !id.contains("@"), "\(added.stdout)")
        let list = try runner.run(["list", "--from", "2026-11-24", "--limit", "40"] + Self.gym)
        #expect(list.stdout.contains("Stretch  [\(id)]"), "\(id) is not what list shows: \(list.stdout)")
        let named = try runner.run(["add", "Team lunch", "--start", "2026-11-24 14:00", "--minutes", "60", "--id", "team-lunch"] + Self.gym)
        #expect(named.stdout.hasSuffix(" as team-lunch.\n"), "\(named.stdout)")
    }
}

extension WordsTests {
    @Test("no example in any help wraps inside a command at 80 columns")
    func helpExamplesDoNotWrap() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        for command in [[]] + (try FeelTests.subcommands(runner)) {
            let wide = try runner.run(command + ["--help"], environment: ["COLUMNS": "1000"]).stdout
            let narrow = try runner.run(command + ["--help"], environment: ["COLUMNS": "80"]).stdout
            let lines = Set(narrow.split(separator: "\n", omittingEmptySubsequences: false))
            // The indented lines before the usage: examples, and their continuations.
            let discussion = wide.components(separatedBy: "USAGE:").first ?? ""
            for example in discussion.split(separator: "\n") where example.hasPrefix("  ") {
                #expect(lines.contains(example), "horari \(command.joined(separator: " ")) --help wraps ‘\(example)’ at 80 columns")
            }
        }
    }
}

extension WordsTests {
    /// The first weekday a month grid shows (the first of its header's
    /// two-letter names) and the name of the week view's first day.
    static func firstDays(_ runner: CLIRunner, _ flags: [String], _ environment: [String: String]) throws -> (month: String, week: String) {
        let month = try runner.run(["month", "2026-11", "--color", "never"] + flags + gym, environment: environment)
        let week = try runner.run(["week", "2026-11-25"] + flags + gym, environment: environment)
        #expect(month.status == 0 && week.status == 0, "\(month.stderr)\(week.stderr)")
        let header = month.stdout.split(separator: "\n").dropFirst(2).first.map { String($0.prefix(2)) } ?? ""
        let first = week.stdout.split(separator: "\n").dropFirst(2).first.map { String($0.prefix { $0 != " " }) } ?? ""
        return (header, first)
    }

    @Test("LANG and LC_ALL choose names and the first weekday when no flag does, the same in every view")
    func localeFromTheEnvironment() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let cases: [([String], [String: String], String, String)] = [
            ([], ["LANG": "C"], "Su", "Sunday"),
            ([], ["LANG": "ca_ES.UTF-8"], "Dl", "dilluns"),
            ([], ["LANG": "en_US.UTF-8", "LC_ALL": "es_ES.UTF-8"], "Lu", "lunes"),
            ([], ["LANG": "ca_ES.UTF-8", "LC_ALL": "C.UTF-8"], "Su", "Sunday"),
            ([], ["LANG": "en_GB.UTF-8"], "Mo", "Monday"),
            (["--first-weekday", "sunday"], ["LANG": "ca_ES.UTF-8"], "Dg", "diumenge"),
            (["--locale", "en_US"], ["LANG": "ca_ES.UTF-8"], "Su", "Sunday"),
        ]
        for (flags, environment, month, week) in cases {
            let days = try Self.firstDays(runner, flags, environment)
            #expect(days.month == month && days.week == week, "\(flags) \(environment): month starts \(days.month), week \(days.week)")
        }
        let day = try runner.run(["day", "2026-11-25"] + Self.gym, environment: ["LANG": "ca_ES.UTF-8"])
        #expect(day.stdout.contains("dimecres 2026-11-25"), "\(day.stdout)")
    }
}

extension WordsTests {
    @Test("a mistyped command is named, with the nearest there is, instead of the default command's usage", arguments: [
        (["mnth"], "horari has no command ‘mnth’; did you mean ‘month’?"),
        (["ad", "Lunch"], "horari has no command ‘ad’; did you mean ‘add’?"),
        (["sesions", "list"], "horari has no command ‘sesions’; did you mean ‘sessions’?"),
        (["sessions", "lst", "--coach", "marc"], "horari sessions has no command ‘lst’; did you mean ‘list’?"),
        (["xyzzy"], "horari has no command ‘xyzzy’.\nSee 'horari --help' for its commands."),
        (["help", "nosuch"], "horari has no command ‘nosuch’."),
        (["help", "classes", "timetabel"], "horari classes has no command ‘timetabel’; did you mean ‘timetable’?"),
    ])
    func mistypedCommand(_ arguments: [String], _ message: String) throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let output = try runner.run(arguments)
        #expect(output.status == 2, "\(arguments): \(output.stderr)")
        #expect(output.stdout.isEmpty)
        #expect(output.stderr.hasPrefix("Error: " + message), "\(arguments): \(output.stderr)")
        #expect(!output.stderr.contains("horari sample"), "\(arguments) shows sample's usage: \(output.stderr)")
    }

    @Test("help for a command that exists still works")
    func helpForACommand() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let output = try runner.run(["help", "sessions", "list"])
        #expect(output.status == 0 && output.stdout.contains("USAGE: horari sessions list"), "\(output.stderr)")
    }

    @Test("an unknown option is named before any other check", arguments: [
        (["add", "Lunch", "--strat", "2026-11-24 10:00"], "horari add has no option --strat; did you mean --start?"),
        (["add", "Lunch", "--start", "2026-11-24 10:00", "--minuts", "30"], "horari add has no option --minuts; did you mean --minutes?"),
        (["sessions", "add", "--coach", "marc", "--clinet", "anna", "--start", "2026-11-27 10:00"], "horari sessions add has no option --clinet; did you mean --client?"),
        (["week", "--frist-weekday", "monday"], "horari week has no option --frist-weekday; did you mean --first-weekday?"),
        (["--todya", "2026-11-22"], "horari has no option --todya; did you mean --today?"),  // the command typed, not the hidden default (issue 43, 15)
        (["delete", "order-mats", "-x"], "horari delete has no option -x."),
    ])
    func unknownOption(_ arguments: [String], _ message: String) throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let before = runner.calendarBytes
        let output = try runner.run(arguments + Self.gym)
        #expect(output.status == 2, "\(arguments): \(output.stderr)")
        #expect(output.stderr.hasPrefix("Error: " + message), "\(arguments): \(output.stderr)")
        #expect(runner.calendarBytes == before)
    }

    @Test("--minutes -30 is a value, refused as a negative length, exit 2, in every command that takes a length", arguments: [
        ["add", "Lunch", "--start", "2026-11-24 10:00", "--minutes", "-30"],
        ["edit", "staff-meeting", "--minutes", "-30"],
        ["sessions", "add", "--coach", "marc", "--client", "anna", "--start", "2026-11-27 10:00", "--minutes", "-30"],
        ["sessions", "move", "s-pau-1124", "--coach", "marc", "--start", "2026-11-27 10:00", "--minutes", "-30"],
        ["sessions", "free", "--coach", "marc", "--minutes", "-30"],
        ["classes", "add", "zumba", "--title", "Zumba", "--days", "MO", "--time", "10:00", "--capacity", "5", "--minutes", "-30"],
        ["classes", "move", "yoga", "--date", "2026-11-23", "--start", "2026-11-23 19:00", "--minutes", "-30"],
    ])
    func negativeLength(_ arguments: [String]) throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let before = runner.calendarBytes
        let output = try runner.run(arguments + Self.gym + ["--now", "2026-11-22 10:00"])
        #expect(output.status == 2, "\(arguments): \(output.stderr)")
        // In the tool's one voice (issue 43, 11), not the parser's "The value '-30' is invalid for '--minutes <minutes>'".
        #expect(output.stderr.hasPrefix("Error: --minutes ‘-30’: a length in minutes cannot be negative; give 1 or more\nSee 'horari "), "\(arguments): \(output.stderr)")
        #expect(runner.calendarBytes == before)
    }

    @Test("the same mistake gives the same exit code in every command: 2 for usage, 1 for a refusal")
    func sameMistakeSameExitCode() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let now = ["--now", "2026-11-22 10:00"]
        // Each family: commands making one mistake, and the code they all give.
        let families: [(String, Int32, [[String]])] = [
            ("a colour that is no colour", 2, [
                ["add", "X", "--start", "2026-11-24 10:00", "--color", "nosuch"], ["edit", "order-mats", "--color", "nosuch"],
                ["sessions", "add", "--coach", "marc", "--client", "anna", "--start", "2026-11-27 10:00", "--color", "nosuch"] + now,
                ["coaches", "add", "zoe", "--name", "Zoe", "--color", "nosuch"], ["clients", "add", "zoe", "--coach", "marc", "--name", "Zoe", "--color", "#12"],
                ["classes", "add", "zumba", "--title", "Zumba", "--days", "MO", "--time", "10:00", "--capacity", "5", "--color", "nosuch"],
            ]),
            ("a red colour", 1, [
                ["add", "X", "--start", "2026-11-24 10:00", "--color", "#f00"], ["edit", "order-mats", "--color", "crimson"],
                ["sessions", "add", "--coach", "marc", "--client", "anna", "--start", "2026-11-27 10:00", "--color", "tomato"] + now,
                ["classes", "add", "zumba", "--title", "Zumba", "--days", "MO", "--time", "10:00", "--capacity", "5", "--color", "#f00"],
            ]),
            ("a date that does not exist", 2, [
                ["add", "X", "--start", "2026-02-30 10:00"], ["book", "--member", "marta", "--class", "yoga", "--date", "2026-02-30"] + now,
                ["classes", "cancel", "yoga", "--date", "2026-02-30"], ["week", "2026-02-30"], ["list", "--from", "2026-02-30"],
                ["sessions", "free", "--coach", "marc", "--from", "2026-02-30"] + now,
            ]),
            ("a count below one", 2, [
                ["list", "--limit", "0"], ["sessions", "list", "--coach", "marc", "--limit", "0"], ["sessions", "history", "--client", "anna", "--limit", "-1"],
                ["classes", "add", "zumba", "--title", "Zumba", "--days", "MO", "--time", "10:00", "--capacity", "0"],
                ["coaches", "add", "zoe", "--name", "Zoe", "--buffer", "-5"],
            ]),
            ("an ID that names nothing", 1, [
                ["edit", "nosuch", "--title", "X"], ["done", "nosuch"], ["sessions", "cancel", "nosuch", "--coach", "marc"],
                ["classes", "cancel", "nosuch", "--date", "2026-11-23"], ["book", "--member", "marta", "--class", "nosuch", "--date", "2026-11-23"] + now,
            ]),
        ]
        let before = runner.calendarBytes
        for (mistake, code, commands) in families {
            for command in commands {
                let output = try runner.run(command + Self.gym)
                #expect(output.status == code, "\(mistake): horari \(command.joined(separator: " ")) exits \(output.status), not \(code): \(output.stderr)")
                #expect(output.stderr.hasPrefix("Error: "), "\(mistake): \(command): \(output.stderr)")
            }
        }
        #expect(runner.calendarBytes == before)
    }
}
