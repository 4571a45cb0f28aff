import Foundation
import Testing

/// Issue 31, 2, as a student uses it: subjects, a repeating task done week
/// by week, a subject deleted, on a copy of `Tests/Fixtures/ics/tasks.ics`.
@Suite("horari: tasks still to do")
struct TasksCLITests {
    @Test("a repeating task done brings the next; --undo takes it back; the list and the file agree")
    func repeatingTask() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        try FileManager.default.copyItem(at: CLIRunner.root.appendingPathComponent("Tests/Fixtures/ics/tasks.ics"), to: runner.work.appendingPathComponent("tasks.ics"))
        let calendar = ["--calendar", "$WORK/tasks.ics"]
        let done = try runner.run(["done", "9b1f03", "--now", "2026-11-20 17:30"] + calendar)
        #expect(done.status == 0, "\(done.stderr)")
        #expect(done.stdout == "Done: ‘Maths problem sheet’ of Mon 2026-11-16 09:00.\nNext: Mon 2026-11-23 09:00.\n")
        let text = String(decoding: runner.bytes(of: "tasks.ics"), as: UTF8.self)
        #expect(text.contains("RECURRENCE-ID;TZID=Europe/Madrid:20261116T090000"))
        let pending = try runner.run(["list", "--pending", "--now", "2026-11-24 10:00", "--format", "json"] + calendar)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(pending.stdout.utf8)) as? [String: Any])
        let upcoming = try #require(json["upcoming"] as? [[String: Any]])
        #expect(upcoming.first { $0["title"] as? String == "Maths problem sheet" }?["recurrenceId"] as? String == "2026-11-23T09:00:00+01:00[Europe/Madrid]")
        let overdue = try #require(json["overdue"] as? [[String: Any]])
        #expect(overdue.map { $0["title"] as? String } == ["Hand in the lab report"])
        #expect(overdue.allSatisfy { $0["overdue"] as? Bool == true })
        let undo = try runner.run(["done", "9b1f03", "--undo", "--now", "2026-11-20 17:35"] + calendar)
        #expect(undo.stdout == "Still to do: ‘Maths problem sheet’ of Mon 2026-11-16 09:00.\n")
        #expect(!String(decoding: runner.bytes(of: "tasks.ics"), as: UTF8.self).contains("RECURRENCE-ID;TZID=Europe/Madrid:20261116T090000"))
    }

    @Test("deleting a subject lists its items and asks once; without a terminal it needs --yes and changes nothing")
    func deleteSubject() throws {
        let runner = try CLIRunner()
        defer { runner.cleanUp() }
        try FileManager.default.copyItem(at: CLIRunner.root.appendingPathComponent("Tests/Fixtures/ics/tasks.ics"), to: runner.work.appendingPathComponent("tasks.ics"))
        let before = runner.bytes(of: "tasks.ics")
        let refused = try runner.run(["delete", "--category", "Chemistry", "--calendar", "$WORK/tasks.ics"])
        #expect(refused.status == 1)
        #expect(refused.stdout == "In ‘Chemistry’:\n  task ‘Hand in the lab report’ (due Fri 2026-11-20)\n  task ‘Buy a lab coat’ (someday, no date)\n")
        #expect(refused.stderr == "Error: not deleting these 2 items without a question answered: run it at a terminal, or add --yes\n")
        #expect(runner.bytes(of: "tasks.ics") == before)
        let deleted = try runner.run(["delete", "--category", "chemistry", "--yes", "--calendar", "$WORK/tasks.ics", "--now", "2026-11-22 10:00"])
        #expect(deleted.status == 0, "\(deleted.stderr)")
        #expect(deleted.stdout.hasSuffix("Deleted 2 items in ‘chemistry’.\n"))
        let left = try runner.run(["list", "--pending", "--calendar", "$WORK/tasks.ics", "--now", "2026-11-22 10:00"])
        #expect(!left.stdout.contains("lab"))
        #expect(left.stdout.contains("Read Kant's Groundwork"))
    }
}
