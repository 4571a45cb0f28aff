import Foundation
import Testing

@Suite("horari classes: what a class is, for people choosing one (issue 44, 4)")
struct ClassDetailsTests {
    @Test("classes add and edit take a description, a page and a picture; the feeds and the timetable's JSON carry them; '' removes one")
    func describe() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let cal = ["--calendar", "$WORK/gym.ics"]
        let added = try runner.run(["classes", "add", "stretch", "--title", "Stretch", "--days", "TU", "--time", "09:00", "--capacity", "8",
                                    "--from", "2026-12-01", "--description", "Slow stretching; no experience needed.",
                                    "--url", "https://gym.example/stretch", "--image", "https://gym.example/stretch.png"] + cal)
        #expect(added.status == 0, "\(added.stderr)")
        let edited = try runner.run(["classes", "edit", "yoga", "--description", "Hatha yoga\nfor every level", "--url", "https://gym.example/yoga"] + cal)
        #expect(edited.status == 0 && edited.stdout == "Edited class yoga: ‘Hatha yoga\\nfor every level’, https://gym.example/yoga.\n", "\(edited)")
        let same = try runner.run(["classes", "edit", "yoga", "--url", "https://gym.example/yoga"] + cal)
        #expect(same.status == 0 && same.stdout == "yoga already says so; nothing changed.\n", "\(same)")

        let feed = try runner.run(["export", "$WORK/gym.ics", "--for", "public"]).stdout
        for line in ["DESCRIPTION:Slow stretching\\; no experience needed.", "URL:https://gym.example/stretch", "IMAGE;VALUE=URI:https://gym.example/stretch.png",
                     "DESCRIPTION:Hatha yoga\\nfor every level", "URL:https://gym.example/yoga"] {
            #expect(feed.contains(line + "\r\n"), "\(line)")
        }
        let json = try runner.run(["classes", "timetable", "--format", "json"] + cal)
        let classes = try #require((try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])?["classes"] as? [[String: Any]])
        let yoga = try #require(classes.first { $0["uid"] as? String == "yoga" })
        #expect(yoga["description"] as? String == "Hatha yoga\nfor every level" && yoga["url"] as? String == "https://gym.example/yoga" && yoga["image"] == nil)

        #expect(try runner.run(["classes", "edit", "yoga", "--description", "", "--url", ""] + cal).status == 0)
        let after = try runner.run(["export", "$WORK/gym.ics", "--for", "public"]).stdout
        #expect(!after.contains("Hatha") && !after.contains("URL:https://gym.example/yoga") && after.contains("URL:https://gym.example/stretch"))
        #expect(try runner.run(["validate", "--strict", "$WORK/gym.ics"]).status == 0)
    }

    @Test("an address that is not a web page, a class that is not there, or nothing to change: refused in one line, the file as it was", arguments: [
        (["classes", "edit", "yoga", "--url", "javascript:alert(1)"], 1, "‘javascript:alert(1)’ is not a web address"),
        (["classes", "edit", "yoga", "--image", "yoga.jpg"], 1, "‘yoga.jpg’ is not a web address"),
        (["classes", "edit", "nope", "--url", "https://gym.example"], 1, "there is no class ‘nope’"),
        (["classes", "edit", "yoga"], 2, "nothing to change: give --description, --url or --image"),
        (["classes", "add", "x", "--title", "X", "--days", "MO", "--time", "10:00", "--capacity", "3", "--image", "file:///etc/passwd"], 1, "is not a web address"),
    ])
    func refused(_ arguments: [String], _ status: Int32, _ said: String) throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let before = try Data(contentsOf: runner.work.appendingPathComponent("gym.ics"))
        let out = try runner.run(arguments + ["--calendar", "$WORK/gym.ics"])
        #expect(out.status == status && out.stderr.contains(said), "\(out)")
        #expect(try Data(contentsOf: runner.work.appendingPathComponent("gym.ics")) == before)
    }
}

@Suite("horari add --color auto: a colour chosen for you (issue 44, 6)")
struct AutomaticColorCLITests {
    @Test("the same title gets the same colour on another day, another colour beside it on its own day; never red; edit --color auto chooses again")
    func chosen() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let cal = ["--calendar", "$WORK/new.ics"]
        func colour(of said: CLIRunner.Output) throws -> String {
            try #require(said.stdout.split(separator: ", ").last.flatMap { $0.split(separator: ")").first }.map(String.init), "\(said)")
        }
        let first = try runner.run(["add", "Deadlift", "--start", "2026-12-01 10:00", "--minutes", "60", "--color", "auto"] + cal)
        let again = try runner.run(["add", "Deadlift", "--start", "2026-12-08 10:00", "--minutes", "60", "--color", "Auto", "--id", "again"] + cal)
        let beside = try runner.run(["add", "Deadlift", "--start", "2026-12-01 18:00", "--minutes", "60", "--color", "auto", "--id", "beside"] + cal)
        #expect(first.status == 0 && again.status == 0 && beside.status == 0, "\(first) \(again) \(beside)")
        #expect(try colour(of: first) == colour(of: again))
        #expect(try colour(of: beside) != colour(of: first))
        for said in [first, again, beside] {
            let name = try colour(of: said)
            #expect(ItemColorName.palette.contains(name), "\(name)")
        }
        let edited = try runner.run(["edit", "again", "--start", "2026-12-01 12:00", "--color", "auto"] + cal)
        #expect(edited.status == 0, "\(edited)")
        let month = try runner.run(["list", "--from", "2026-12-01", "--format", "json"] + cal).stdout
        #expect(!month.contains("\"name\" : \"red\""))
    }
}

/// `ItemColor.automaticPalette`'s names, as the CLI prints them.
enum ItemColorName {
    static let palette: Set<String> = ["royalblue", "seagreen", "darkorange", "mediumpurple", "teal", "goldenrod", "deeppink", "steelblue", "olivedrab", "sienna",
                                       "plum", "deepskyblue", "limegreen", "darkviolet", "darkgreen", "lightseagreen", "fuchsia", "darkseagreen", "tan", "chocolate"]
}
