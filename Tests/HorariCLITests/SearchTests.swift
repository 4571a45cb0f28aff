import Foundation
import Testing

@Suite("horari search: what a person types finds what the calendar says (issue 44, 10)")
struct SearchTests {
    @Test("found by title, notes, place or subject, case and accents ignored, listed as list lists them; JSON is list's, paged the same")
    func finds() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let cal = ["--calendar", "$WORK/gym.ics"]
        #expect(try runner.run(["add", "Reunió amb la Núria", "--start", "2026-12-03 10:00", "--location", "Cafè Central", "--id", "nuria"] + cal).status == 0)
        #expect(try runner.run(["add", "Dentist", "--start", "2026-10-01 09:00", "--notes", "Bring the X-ray", "--id", "dentist"] + cal).status == 0)

        let nuria = try runner.run(["search", "NURIA cafe"] + cal)
        #expect(nuria.status == 0 && nuria.stdout.contains("Thu 2026-12-03  10:00 ") && nuria.stdout.contains("Reunió amb la Núria  @ Cafè Central  [nuria]"), "\(nuria)")
        #expect(nuria.stdout.components(separatedBy: "\n").filter { $0.hasPrefix("  ") }.count == 1, "\(nuria.stdout)")
        // A past item is found too: the list starts where the first found meets.
        let xray = try runner.run(["search", "x-ray"] + cal)
        #expect(xray.stdout.contains("October 2026") && xray.stdout.contains("Dentist"), "\(xray.stdout)")
        // A repeating class: every date, a page at a time, as list pages.
        let yoga = try runner.run(["search", "yoga", "--limit", "2", "--format", "json"] + cal)
        let page = try #require(try JSONSerialization.jsonObject(with: Data(yoga.stdout.utf8)) as? [String: Any])
        #expect(page["command"] as? String == "search")
        let token = try #require(page["nextPage"] as? String)
        let next = try runner.run(["search", "yoga", "--limit", "2", "--page", token] + cal)
        #expect(next.status == 0 && next.stdout.contains("Mon 2026-09-14") && next.stdout.contains("Wed 2026-09-16"), "\(next.stdout)")
        let sections = try #require(page["sections"] as? [[String: Any]])
        let found = sections.flatMap { ($0["occurrences"] as? [[String: Any]]) ?? [] }
        #expect(found.map { $0["uid"] as? String } == ["yoga", "yoga"] && found.first?["start"] as? String == "2026-09-07T18:30:00+02:00", "\(found)")

        let none = try runner.run(["search", "zumba"] + cal)
        #expect(none.status == 0 && none.stdout.hasSuffix("Nothing holds ‘zumba’.\n"), "\(none)")
    }

    @Test("no word to search for is a usage error, nothing read", arguments: [[""], ["   "], [String(repeating: "x", count: 300)], ["yoga", "--before", "x", "--from", "2026-01-01"]])
    func refused(_ arguments: [String]) throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        let out = try runner.run(["search"] + arguments + ["--calendar", "$WORK/nowhere.ics"])
        #expect(out.status == 2 && out.stdout.isEmpty && out.stderr.hasPrefix("Error: "), "\(out)")
    }
}
