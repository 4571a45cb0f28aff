import Foundation
import Testing

/// `add --parent`, `edit --parent/--no-parent` and `list` with items that
/// hold others (issue 44, 5), on a school league's season of rounds.
@Suite("horari: rounds that hold their matches")
struct RoundsCLITests {
    /// The runner with a writable copy of `league-rounds.ics` as `$WORK/league.ics`.
    func runner() throws -> CLIRunner {
        let runner = try CLIRunner()
        try FileManager.default.copyItem(at: CLIRunner.root.appendingPathComponent("Tests/Fixtures/ics/league-rounds.ics"),
                                         to: runner.work.appendingPathComponent("league.ics"))
        return runner
    }

    let cal = ["--calendar", "$WORK/league.ics", "--now", "2026-09-01 10:00"]
    let list = ["list", "--from", "2026-10-01", "--today", "2026-09-01", "--calendar", "$WORK/league.ics"]

    func text(_ runner: CLIRunner) throws -> String {
        try String(contentsOf: runner.work.appendingPathComponent("league.ics"), encoding: .utf8)
    }

    func entries(_ out: CLIRunner.Output) throws -> [[String: Any]] {
        let page = try #require(try JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [String: Any])
        return ((page["sections"] as? [[String: Any]]) ?? []).flatMap { ($0["occurrences"] as? [[String: Any]]) ?? [] }
    }

    @Test("a match added to a round is listed under it with its number; JSON names its parent")
    func addUnderRound() throws {
        let runner = try runner()
        defer { runner.cleanUp() }
        let added = try runner.run(["add", "Gràcia v Sants", "--start", "2026-11-08 12:00", "--minutes", "90", "--parent", "round-c", "--id", "match-c2"] + cal)
        #expect(added.status == 0 && added.stdout == "Added event ‘Gràcia v Sants’ (Sun 2026-11-08 12:00–13:30 Europe/Madrid) as match-c2, part of ‘Jornada (7–8 Nov)’ (round-c).\n", "\(added)")
        #expect(try text(runner).contains("UID:match-c2\r\n") && text(runner).contains("RELATED-TO:round-c@lliga.example\r\n"))

        let shown = try runner.run(list)
        let lines = shown.stdout.components(separatedBy: "\n")
        let round = try #require(lines.firstIndex { $0.contains("[round-c]") })
        // The season is listed in October: the November round stands on its own, its matches under it.
        #expect(Array(lines[(round - 1)...(round + 2)]) == [
            "November 2026",
            "  Sat 2026-11-07  All day – Sun 2026-11-08 • Jornada (7–8 Nov) #3  [round-c]",
            "    Sat 2026-11-07  17:00–18:30 • Horta v Sants #1  @ Pavelló d'Horta  [match-c1]",
            "    Sun 2026-11-08  12:00–13:30 • Gràcia v Sants #2  [match-c2]",
        ], "\(shown.stdout)")

        let json = try entries(try runner.run(list + ["--format", "json"]))
        let match = try #require(json.first { $0["uid"] as? String == "match-c2" })
        #expect(match["parent"] as? String == "round-c@lliga.example" && match["ordinal"] as? Int == 2, "\(match)")
    }

    @Test("an item cannot hold itself or what holds it, nor be added under an item that is not there; nothing is written")
    func refused() throws {
        let runner = try runner()
        defer { runner.cleanUp() }
        let before = try text(runner)
        let cases: [([String], Int32, String)] = [
            (["add", "Sants v Horta", "--start", "2026-11-08 12:00", "--parent", "round-z"], 1, "--parent: there is no event or task with the ID ‘round-z’"),
            (["add", "Again", "--start", "2026-11-08 12:00", "--id", "round-a@lliga.example", "--parent", "round-a@lliga.example"], 1, "already"),
            (["edit", "round-a", "--parent", "round-a"], 1, "is the item itself"),
            (["edit", "season", "--parent", "match-a1"], 1, "is part of this item already"),
            (["edit", "round-a", "--parent", "season", "--no-parent"], 2, "give --parent or --no-parent, not both"),
            (["edit", "round-a", "--no-parent", "--occurrence", "2026-10-03"], 2, "change the whole item, not one occurrence"),
        ]
        for (arguments, status, message) in cases {
            let out = try runner.run(arguments + cal)
            #expect(out.status == status && out.stderr.contains(message), "\(arguments): \(out)")
            #expect(try text(runner) == before, "\(arguments) wrote the calendar")
        }
    }

    @Test("--no-parent takes a match out of its round whichever side named it; another --parent moves it")
    func moveAndDetach() throws {
        let runner = try runner()
        defer { runner.cleanUp() }
        // Round b names match-b1 (RELTYPE=CHILD): the round loses that line.
        let out = try runner.run(["edit", "match-b1", "--no-parent"] + cal)
        #expect(out.status == 0 && out.stdout.hasSuffix(", part of no other item.\n"), "\(out)")
        let file = try text(runner)
        #expect(!file.contains("RELATED-TO;RELTYPE=CHILD:match-b1@lliga.example") && file.contains("RELATED-TO;RELTYPE=CHILD:match-b2@lliga.example"))
        var json = try entries(try runner.run(list + ["--format", "json"]))
        #expect(json.first { $0["uid"] as? String == "match-b1@lliga.example" }?["parent"] == nil)
        #expect(json.first { $0["uid"] as? String == "match-b2@lliga.example" }?["ordinal"] as? Int == 1, "b2 is now the round's first")

        let again = try runner.run(["edit", "match-b1", "--no-parent"] + cal)
        #expect(again.status == 0 && again.stdout.hasPrefix("Nothing to change"), "\(again)")

        let moved = try runner.run(["edit", "match-a2", "--parent", "round-b"] + cal)
        #expect(moved.status == 0 && moved.stdout.hasSuffix(", part of ‘Jornada (17–18 Oct)’ (round-b).\n"), "\(moved)")
        json = try entries(try runner.run(list + ["--format", "json"]))
        #expect(json.first { $0["uid"] as? String == "match-a2@lliga.example" }?["parent"] as? String == "round-b@lliga.example")
        #expect(json.first { $0["uid"] as? String == "match-a2@lliga.example" }?["ordinal"] as? Int == 1, "4 October comes before 18 October")
    }

    @Test("search and list --category give each part the parent and number the whole calendar gives it")
    func filtered() throws {
        let runner = try runner()
        defer { runner.cleanUp() }
        let found = try entries(try runner.run(["search", "Horta", "--format", "json", "--calendar", "$WORK/league.ics"]))
        let a2 = try #require(found.first { $0["uid"] as? String == "match-a2@lliga.example" })
        #expect(a2["parent"] as? String == "round-a@lliga.example" && a2["ordinal"] as? Int == 2, "\(a2)")
        #expect(try runner.run(["edit", "match-a2", "--location", "Pavelló d'Horta"] + cal).status == 0)
        var text = try text(runner)
        text = text.replacingOccurrences(of: "UID:match-a2@lliga.example\r\n", with: "UID:match-a2@lliga.example\r\nCATEGORIES:Lliga\r\n")
        try text.write(to: runner.work.appendingPathComponent("league.ics"), atomically: true, encoding: .utf8)
        let only = try entries(try runner.run(list + ["--category", "Lliga", "--format", "json"]))
        #expect(only.map { $0["uid"] as? String } == ["match-a2@lliga.example"] && only.first?["ordinal"] as? Int == 2, "\(only)")
    }

    @Test("a new parent replaces the old whichever side named it, in every changed occurrence too; a gym class is no parent")
    func moveEverywhere() throws {
        let runner = try runner()
        defer { runner.cleanUp() }
        // Round b names match-b1 (RELTYPE=CHILD): moving it to round a takes that line away.
        #expect(try runner.run(["edit", "match-b1", "--parent", "round-a"] + cal).status == 0)
        var file = try text(runner)
        #expect(!file.contains("RELTYPE=CHILD:match-b1@lliga.example") && file.contains("RELTYPE=CHILD:match-b2@lliga.example"))
        let deleted = try runner.run(["delete", "round-a", "--yes"] + cal)
        #expect(deleted.stdout.contains("The 3 items that were part of it stay"), "\(deleted)")
        let json = try entries(try runner.run(list + ["--format", "json"]))
        #expect(json.first { $0["uid"] as? String == "match-b1@lliga.example" }.map { $0["parent"] == nil } == true, "not back under round b")

        // A weekly training series under the season, one date changed: both follow a new parent.
        #expect(try runner.run(["add", "Training", "--start", "2026-10-05 19:00", "--minutes", "60", "--repeat", "FREQ=WEEKLY;COUNT=4", "--parent", "season", "--id", "training"] + cal).status == 0)
        #expect(try runner.run(["edit", "training", "--occurrence", "2026-10-12", "--title", "Training (late)", "--start", "2026-10-12 20:00"] + cal).status == 0)
        #expect(try runner.run(["edit", "training", "--parent", "round-b"] + cal).status == 0)
        file = try text(runner)
        let training = file.components(separatedBy: "BEGIN:VEVENT").filter { $0.contains("UID:training\r\n") }
        #expect(training.count == 2 && training.allSatisfy { $0.contains("RELATED-TO:round-b@lliga.example\r\n") && !$0.contains("season-2026") }, "\(training)")
        #expect(try runner.run(["edit", "training", "--no-parent"] + cal).status == 0)
        #expect(try !text(runner).components(separatedBy: "BEGIN:VEVENT").filter { $0.contains("UID:training\r\n") }.contains { $0.contains("RELATED-TO") })

        let gym = ["--calendar", "$WORK/gym.ics", "--now", "2026-11-22 10:00"]
        let before = try String(contentsOf: runner.work.appendingPathComponent("gym.ics"), encoding: .utf8)
        let refused = try runner.run(["add", "Warm-up", "--start", "2026-11-23 18:15", "--minutes", "10", "--parent", "yoga"] + gym)
        #expect(refused.status == 1 && refused.stderr.contains("--parent ‘yoga’ is a class of the gym's book"), "\(refused)")
        #expect(try String(contentsOf: runner.work.appendingPathComponent("gym.ics"), encoding: .utf8) == before)
        let empty = try runner.run(["add", "Warm-up", "--start", "2026-11-23 18:15", "--parent", ""] + gym)
        #expect(empty.status == 1 && empty.stderr.contains("give --no-parent"), "\(empty)")
    }

    @Test("deleting a round leaves its matches, said so, and listed on their own")
    func deleteRound() throws {
        let runner = try runner()
        defer { runner.cleanUp() }
        let out = try runner.run(["delete", "round-a", "--yes"] + cal)
        #expect(out.status == 0 && out.stdout.hasSuffix("The 2 items that were part of it stay, listed on their own; edit ID --parent puts one under another.\n"), "\(out)")
        #expect(try text(runner).contains("RELATED-TO:round-a@lliga.example"), "the matches are not rewritten")
        let json = try entries(try runner.run(list + ["--format", "json"]))
        #expect(json.first { $0["uid"] as? String == "match-a1@lliga.example" }.map { $0["parent"] == nil } == true)
        #expect(json.first { $0["uid"] as? String == "round-b@lliga.example" }?["ordinal"] as? Int == 1, "round b is now the season's first")
    }
}
