#if PostgreSQL
import Foundation
import Testing
import _CalendarTestSupport

/// `--calendar postgres://…` (issue 40, 3 and 7): the sample gym moved into
/// a real PostgreSQL 15 reads the same in every view and books the same as
/// from its `.ics` file and from SQLite, gives back an equivalent calendar,
/// commits a change's messages with it, and a server that is not there is
/// one line that never shows the password.
@Suite("horari on a PostgreSQL calendar", .serialized, .enabled(if: PostgresCluster.binaries != nil || PostgresCluster.required))
struct PostgresCalendarTests {
    static let now = ["--now", "2026-11-10 10:00"]

    @Test("imported into PostgreSQL, the sample reads, books, owes and exports as from the file and from SQLite")
    func sameAsFileAndSQLite() throws {
        let cluster = try PostgresCluster()
        defer { cluster.stop() }
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let url = cluster.url()
        let intoPostgres = try runner.run(["import", "$WORK/gym.ics", "--into", url])
        let intoSQLite = try runner.run(["import", "$WORK/gym.ics", "--into", "$WORK/gym.sqlite"])
        #expect(intoPostgres.status == 0 && intoPostgres.stdout.hasPrefix("added 13,"), "\(intoPostgres.stdout)\(intoPostgres.stderr)")
        #expect(intoPostgres.stdout == intoSQLite.stdout.replacingOccurrences(of: "gym.sqlite", with: url), "\(intoPostgres.stdout)\n\(intoSQLite.stdout)")

        let places = ["$WORK/gym.ics", "$WORK/gym.sqlite", url]
        let steps: [[String]] = [
            ["month", "2026-11"], ["week", "2026-11-26"], ["list", "--from", "2026-11-01"], ["members", "list"],
            ["classes", "timetable", "--week", "2026-11-26"] + Self.now,
            ["book", "--member", "quim", "--class", "yoga", "--date", "2026-11-30"] + Self.now,
            ["book", "--member", "quim", "--class", "pilates", "--date", "2026-11-26", "--waitlist"] + Self.now,
            ["cancel", "--member", "marta", "--class", "pilates", "--date", "2026-11-26"] + Self.now,
            ["book", "--member", "nobody", "--class", "yoga", "--date", "2026-11-30"] + Self.now,
            ["sessions", "add", "--coach", "marc", "--client", "anna", "--start", "2026-12-01 10:00", "--minutes", "60", "--id", "s-new"] + Self.now,
            ["add", "Boiler check", "--start", "2026-12-02 08:00", "--minutes", "30", "--id", "boiler"],
            ["classes", "timetable", "--week", "2026-11-26"] + Self.now,
            ["occurrences", "--from", "2026-11-01", "--to", "2026-12-30"],
        ]
        // Where a message names the calendar, it names its own place.
        func same(_ output: CLIRunner.Output, _ place: String) -> CLIRunner.Output {
            var output = output
            for name in [runner.expand(place), URL(fileURLWithPath: runner.expand(place)).lastPathComponent] where !place.hasPrefix("postgres") {
                output.stdout = output.stdout.replacingOccurrences(of: name, with: "CAL")
                output.stderr = output.stderr.replacingOccurrences(of: name, with: "CAL")
            }
            output.stdout = output.stdout.replacingOccurrences(of: url, with: "CAL")
            output.stderr = output.stderr.replacingOccurrences(of: url, with: "CAL")
            return output
        }
        for step in steps {
            let answers = try places.map { same(try runner.run(step + ["--calendar", $0]), $0) }
            #expect(answers[0].status == 0 || step.contains("nobody"), "\(step): \(answers[0].stderr)")
            #expect(answers[2] == answers[0] && answers[1] == answers[0], "\(step):\n\(answers[0])\n\(answers[2])")
        }

        // A change with --outbox commits its message and delivers it; nothing stays owed.
        #expect(try runner.run(["members", "edit", "pol", "--email", "pol@example.com", "--calendar", url]).status == 0)
        let booked = try runner.run(["book", "--member", "pol", "--class", "yoga", "--date", "2026-11-30", "--outbox", "$WORK/out", "--gym", "Gym <desk@gym.example>",
                                     "--calendar", url] + Self.now)
        #expect(booked.status == 0 && booked.stdout.contains("REQUEST to Pol Riera <pol@example.com>"), "\(booked.stdout)\(booked.stderr)")
        let files = try FileManager.default.contentsOfDirectory(atPath: runner.work.appendingPathComponent("out").path)
        #expect(files.count == 1 && files.first?.hasPrefix("request-pol_example.com-") == true, "\(files)")
        let owed = try runner.run(["outbox", "$WORK/out", "--calendar", url])
        #expect(owed.status == 0 && owed.stdout == "\(url) owes no messages.\n", "\(owed.stdout)\(owed.stderr)")

        // Exported, it gives back an equivalent calendar; imported back, nothing changes.
        #expect(try runner.run(["export", url, "--out", "$WORK/back.ics"]).status == 0)
        #expect(try runner.run(["cancel", "--member", "pol", "--class", "yoga", "--date", "2026-11-30", "--calendar", "$WORK/back.ics"] + Self.now).status == 0)
        #expect(try runner.run(["cancel", "--member", "pol", "--class", "yoga", "--date", "2026-11-30", "--calendar", url] + Self.now).status == 0)
        for view in [["occurrences", "--from", "2026-11-01", "--to", "2026-12-30"], ["classes", "timetable", "--week", "2026-11-26"] + Self.now, ["members", "list"]] {
            let back = try runner.run(view + ["--calendar", "$WORK/back.ics"])
            let database = try runner.run(view + ["--calendar", url])
            #expect(back == database, "\(view)")
        }
        let again = try runner.run(["import", "$WORK/back.ics", "--into", url])
        #expect(again.status == 0 && again.stdout.contains("updated 0,"), "\(again.stdout)\(again.stderr)")

        // The URL with a password (trust login ignores it): validate names the place without it.
        let withPassword = url.replacingOccurrences(of: "://\(cluster.user)@", with: "://\(cluster.user):s3cret@")
        let validated = try runner.run(["validate", withPassword])
        #expect(validated.status == 0 && !(validated.stdout + validated.stderr).contains("s3cret") && validated.stdout.contains(url), "\(validated)")
        // A reader that goes away: the ending a shell gives a closed pipe (141), not a crash, though
        // SwiftNIO has set SIGPIPE aside for the process.
        let piped = try runner.run([], shell: "{ '\(CLIRunner.binary.path)' export '\(url)'; echo \"status $?\" >&2; } | true")
        #expect(piped.stderr.hasSuffix("status 141\n") && !piped.stderr.contains("crashed"), "\(piped.stderr)")
    }

    @Test("a server that is not there, a password in the URL, a URL without a host: one line each, exit 1 or 2, the password never shown")
    func faults() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let (fd, port) = try PostgresCluster.loopbackSocket()
        close(fd)
        let away = try runner.run(["month", "2026-11", "--calendar", "postgres://desk:s3cret@127.0.0.1:\(port)/gym"])
        #expect(away.status == 1, "\(away)")
        #expect(away.stderr.contains("cannot be reached") && !away.stderr.contains("s3cret") && away.stderr.split(separator: "\n").count == 1, "\(away.stderr)")
        let book = try runner.run(["book", "--member", "marta", "--class", "yoga", "--date", "2026-11-30", "--calendar", "postgresql://desk:s3cret@127.0.0.1:\(port)/gym"])
        #expect(book.status == 1 && !book.stderr.contains("s3cret"), "\(book)")
        let hostless = try runner.run(["month", "--calendar", "postgres:///gym"])
        #expect(hostless.status != 0 && hostless.stderr.contains("postgres://desk@127.0.0.1:5432/gym"), "\(hostless)")
        let other = try runner.run(["month", "--calendar", "mysql://desk:s3cret@127.0.0.1/gym"])
        #expect(other.status != 0 && other.stderr.contains("postgres://") && !other.stderr.contains("s3cret"), "\(other)")
        // A password Foundation cannot read as a URL, a password= setting, a URL where a file is written: never said.
        for arguments in [["month", "--calendar", "postgres://desk:p#s3cret@127.0.0.1/gym"], ["month", "--calendar", "postgres://desk:p/s3cret@127.0.0.1/gym"],
                          ["month", "--calendar", "postgres://desk@127.0.0.1:\(port)/gym?password=s3cret"],
                          ["export", "$WORK/gym.ics", "--out", "postgres://desk:s3cret@127.0.0.1/gym"], ["sample", "--write", "postgres://desk:p#s3cret@127.0.0.1/gym"]] {
            let refused = try runner.run(arguments)
            #expect(refused.status != 0 && !refused.stderr.isEmpty && !(refused.stderr + refused.stdout).contains("s3cret"), "\(arguments): \(refused)")
        }
        let source = try runner.run(["import", "postgres://desk:s3cret@127.0.0.1:\(port)/gym", "--into", "$WORK/gym.sqlite"])
        #expect(source.status == 1 && source.stderr.contains("is a URL, and this reads an .ics file") && !source.stderr.contains("s3cret"), "\(source)")
        #expect(!FileManager.default.fileExists(atPath: runner.work.appendingPathComponent("postgres:").path), "a URL was written as a path")
    }
}
#endif
