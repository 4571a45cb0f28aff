import Foundation
import _CalendarTestSupport
import Testing

/// Desks as separate processes on one SQLite book (`_BookDesk`, the
/// library's `BookStore` over `SQLiteBookStorage`): racing for the last
/// places, and killed with SIGKILL at random moments of a change and its
/// delivery. What must hold (issue 40, 2 and 4): exactly as many booked
/// as there were places, the rest told full; every message a committed
/// change owes delivered in the end, none for a change that did not land.
@Suite("Book storage: desks as processes on one SQLite file")
struct BookDeskProcessTests {
    @Test("twenty processes race for the last three places: three booked, seventeen told full, every 'booked' in the database")
    func twentyProcesses() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("horari-desks-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let db = folder.appendingPathComponent("gym.sqlite").path
        #expect(try BookDesk.run([db, "seed", "30"]).status == 0)
        for member in ["m0", "m1"] { #expect(try BookDesk.run([db, "book", member, "2026-11-30"]).status == 0) }
        let race = try BookDesk.race(on: db, members: (10..<30).map { "m\($0)" }, date: "2026-11-30")
        #expect(race.other.isEmpty, "\(race.other)")
        #expect(race.booked.count == 3 && race.full == 17, "booked \(race.booked.sorted()), full \(race.full)")
        let places = try BookDesk.places(on: db, date: "2026-11-30")
        #expect(Set(places) == race.booked.union(["m0", "m1"]), "\(places)")
    }

    @Test("killed at random moments of thirty runs of changes and their delivery: in the end every message owed is delivered, none for a change that did not land")
    func killedMidChange() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("horari-kills-\(UUID().uuidString)")
        let outbox = folder.appendingPathComponent("outbox")
        try FileManager.default.createDirectory(at: outbox, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let db = folder.appendingPathComponent("gym.sqlite").path
        #expect(try BookDesk.run([db, "seed", "20"]).status == 0)
        var generator = SystemRandomNumberGenerator()
        var killed = 0
        var finished: [String] = []
        for run in 0..<30 {
            // Killed in a phase picked at random of the first 40 steps — a change (after
            // "delivered I - 1", or the start) or its delivery (after "committed I") — a random moment
            // into it: up to one and a half of the phases read so far, on average (3 ms before two are
            // read), so that a slower build (the sanitizers') is killed as far into its phases.
            // With a timed kill (5–120 ms after the start), runs ended sooner as places filled, and
            // one CI run (stop 64) saw only 10 of 30 killed.
            let lines = Int.random(in: 0..<80, using: &generator)
            // 1,000 steps: the kill is meant within the first 40, and a busy machine that delays it (one
            // full suite saw two runs of 100 steps end first) still does not let a run end.
            let (process, output) = try BookDesk.start([db, "churn", outbox.path, "\(run + 1)", "1000"])
            let read = try BookDesk.readLines(lines, from: output)
            var phase = Duration.milliseconds(3)
            if let first = read.first, let last = read.last, read.lines > 1 { phase = (last - first) / (read.lines - 1) }
            // usleep, not Task.sleep: waking a task waits for a free thread of the pool, which the suite's
            // other tests keep busy; this wait is a few milliseconds, and it is the kill's moment.
            let wait = phase * Double.random(in: 0...1.5, using: &generator)
            usleep(UInt32(min(1_000_000, wait.components.seconds * 1_000_000 + wait.components.attoseconds / 1_000_000_000_000)))
            if process.isRunning {
                kill(process.processIdentifier, SIGKILL)
                killed += 1
                process.waitUntilExit()
            } else {
                let rest = String(decoding: try output.fileHandleForReading.readToEnd() ?? Data(), as: UTF8.self)
                process.waitUntilExit()
                finished.append("run \(run): exit \(process.terminationStatus), \(rest.suffix(300))")
            }
        }
        // A run ends by itself only when its desk failed: every run is killed.
        #expect(killed == 30, "\(finished)")
        let delivered = try BookDesk.run([db, "deliver", outbox.path])
        #expect(delivered.status == 0, "\(delivered.out)")
        // Every message the database holds (each committed with its change) has its file; every file is one of them.
        let messages = try BookDesk.run([db, "messages"]).out.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
        let files = try FileManager.default.contentsOfDirectory(atPath: outbox.path).filter { $0.hasSuffix(".eml") }
        #expect(Set(files) == Set(messages.map { $0[0] + ".eml" }), "\(files.count) files, \(messages.count) messages")
        #expect(!messages.isEmpty)
        // Bookings and cancellations, each with its message, in commit order: a place is held exactly where
        // the last message about it was an invitation, and every message changed what was held.
        let places = Set(try BookDesk.run([db, "places"]).out.split(separator: "\n").map(String.init))
        var held = Set<String>(), unchanged: [String] = []
        for message in messages {
            let place = "\(message[1]) \(message[2])"
            let changed = message[3] == "REQUEST" ? held.insert(place).inserted : held.remove(place) != nil
            if !changed { unchanged.append(message.joined(separator: " ")) }
        }
        #expect(held == places, "\(places.count) places held, \(held.count) by the messages")
        #expect(unchanged.isEmpty, "\(unchanged)")
        #expect(messages.contains { $0[3] == "CANCEL" } && messages.contains { $0[3] == "REQUEST" })
        // Nothing is left owed.
        #expect(try BookDesk.run([db, "deliver", outbox.path]).out == "delivered 0\n")
    }
}
