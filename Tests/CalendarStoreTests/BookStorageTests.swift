import BookStorageConformance
import CalendarCore
import CalendarScheduling
import CalendarStore
import Foundation
import ICalendarKit
import Testing
import _CalendarTestSupport
import _SchedulingTestSupport

/// The book in a store (issue 40): the `BookStorage` protocol's conformance
/// suite on every store that implements it, and what SQLite adds — a
/// schema, files that are not books, a newer Horari's file, another process
/// holding the file, and separate connections racing for the last places.
@Suite("Book storage: the protocol's guarantees, SQLite's faults")
struct BookStorageTests {
    /// A new scratch folder, removed by the caller.
    static func scratch() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("horari-book-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test("the conformance suite holds in memory")
    func memoryConforms() async {
        let failures = await BookStorageConformance { MemoryBookStorage() }.run()
        #expect(failures.isEmpty, "\(failures)")
    }

    @Test("the conformance suite holds on SQLite")
    func sqliteConforms() async throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let failures = await BookStorageConformance {
            try SQLiteBookStorage(path: folder.appendingPathComponent("\(UUID().uuidString).sqlite").path)
        }.run()
        #expect(failures.isEmpty, "\(failures)")
    }

    @Test("the suite catches a store that breaks the guarantees")
    func suiteCatchesBreakage() async {
        let failures = await BookStorageConformance { LastWriteWins() }.run()
        let failed = Set(failures.map(\.check))
        #expect(failed.contains("a commit on a stale revision writes nothing"), "\(failures)")
        #expect(failed.contains("racing commits: one per revision"), "\(failures)")
        #expect(failed.contains("an answer lost after the commit is not a change made twice"), "\(failures)")
    }

    @Test("a CalendarDatabase is checked for the calendar's text too; the suite catches one that loses components or writes on a stale revision")
    func suiteChecksCalendarText() async {
        let calendarChecks = ["the calendar's text commits with the book, byte for byte and in order", "a stale commit leaves the calendar's text as it was"]
        #expect(Set(calendarChecks).isSubset(of: BookStorageConformance { MemoryBookStorage() }.checks.map(\.name)))
        #expect(Set(calendarChecks).isDisjoint(with: BookStorageConformance { LastWriteWins() }.checks.map(\.name)), "a bare BookStorage was given the calendar's checks")
        let failures = await BookStorageConformance { CarelessCalendar() }.run()
        #expect(Set(failures.map(\.check)) == Set(calendarChecks), "\(failures)")
    }

    @Test("the test gym with sessions, bookings, a waitlist, a closure and policies reads back the same from SQLite, and a booking writes only its roster")
    func richBook() async throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("gym.sqlite").path
        let now = try Gym.now("2026-11-20 10:00")
        var book = try Gym.book()
        try book.addSession(id: "s1", coach: "marc", client: "anna", start: Gym.at("2026-11-26 10:00"), duration: .seconds(3600), now: now)
        for member in ["marta", "oriol", "nuria"] { _ = try book.book(member: member, classID: "yoga", on: Gym.day("2026-11-30"), now: now) }
        _ = try book.close(GymClosure(first: Gym.day("2026-12-24"), last: Gym.day("2026-12-26"), reason: "Christmas"), now: now)
        book.classPolicy = ClassBookingPolicy(weeklyLimit: 2)
        let written = book
        let store = BookStore(try SQLiteBookStorage(path: path), newBookZone: Gym.zone)
        try await store.change { $0 = written }
        let back = try await BookStore(try SQLiteBookStorage(path: path), newBookZone: Gym.zone).load()
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        #expect(try encoder.encode(back) == encoder.encode(written))

        let storage = try SQLiteBookStorage(path: path)
        let before = try await storage.load()
        try await BookStore(storage, newBookZone: Gym.zone).change { book in
            _ = try book.book(member: "marta", classID: "yoga", on: Gym.day("2026-12-02"), now: now)
        }
        let after = try await storage.load()
        let changed = after.records.filter { record in before.records.first { $0.key == record.key } != record }.map(\.key)
        #expect(changed == [RecordKey(kind: "roster", id: "yoga 2026-12-02")], "\(changed)")
        #expect(after.revision == before.revision + 1)
    }

    @Test("a book's records are the bytes the book's JSON form parsed and written again with sorted keys gave, where the keys are the book's field names: records stored before are not written again")
    func recordBytesUnchanged() async throws {
        let now = try Gym.now("2026-11-20 10:00")
        var book = try Gym.book()
        try book.addSession(id: "s1", coach: "marc", client: "anna", start: Gym.at("2026-11-26 10:00"), duration: .seconds(3600), now: now)
        try book.addMember(Member(id: "zoe", name: "Zoë \"Z\" d/Or \\ 𝄞", email: "zoe@example.com"))
        for member in ["marta", "oriol", "nuria", "zoe"] { _ = try book.book(member: member, classID: "yoga", on: Gym.day("2026-11-30"), now: now, whenFull: .joinWaitlist) }
        _ = try book.close(GymClosure(first: Gym.day("2026-12-24"), last: Gym.day("2026-12-26"), reason: "Christmas / Nadal"), now: now)
        var hours = WorkingHours()
        try hours.set([TimeRange(parsing: "07:00-22:00")], on: [.monday, .tuesday, .wednesday, .thursday, .friday])
        book.openingHours = hours
        book.classPolicy = ClassBookingPolicy(weeklyLimit: 2)
        // The way records were cut before: the whole text parsed, each element and the rest written again.
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let whole = try #require(try JSONSerialization.jsonObject(with: encoder.encode(book)) as? [String: Any])
        var reference: [String: Data] = [:]
        var rest = whole
        for field in ["coaches", "clients", "sessions", "members", "classes", "rosters"] {
            let elements = try #require(rest.removeValue(forKey: field) as? [[String: Any]])
            for element in elements {
                reference["\(field) \(element["id"] ?? "") \(element["classID"] ?? "") \(element["date"] ?? "")"] =
                    try JSONSerialization.data(withJSONObject: element, options: [.sortedKeys, .withoutEscapingSlashes])
            }
        }
        let gym = try JSONSerialization.data(withJSONObject: rest, options: [.sortedKeys, .withoutEscapingSlashes])
        // Through a store: what it holds is what records(of:) gives.
        let storage = MemoryBookStorage()
        try await BookStore(storage, newBookZone: Gym.zone).change { $0 = book }
        let stored = try await storage.load().records
        #expect(stored.count == reference.count + 1)
        #expect(stored.first { $0.key.kind == "gym" }?.body == gym)
        for record in stored where record.key.kind != "gym" {
            #expect(reference.values.contains(record.body), "\(record.key): \(String(decoding: record.body, as: UTF8.self))")
        }
        #expect(Set(stored.map(\.body)) == Set(reference.values).union([gym]))
    }

    @Test("a booking on one occurrence writes its roster alone, whatever the class IDs (mixed case, numbered): the gym record's class sequences keep their bytes")
    func gymRecordKeptWithMixedIDs() async throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let storage = try SQLiteBookStorage(path: folder.appendingPathComponent("gym.sqlite").path)
        let now = try Gym.now("2026-11-20 10:00")
        let store = BookStore(storage, newBookZone: Gym.zone, now: { _ in now })
        var book = try Gym.book()
        for id in ["Yoga1", "spin2", "spin10", "_x", "Pilates"] {
            try book.addClass(ClassSeries(id: id, title: id, weekdays: [.monday], time: TimeOfDay(hour: 9, minute: 0), duration: .minutes(45), capacity: 4,
                                          firstDate: try Gym.day("2026-11-02")))
            _ = try book.book(member: "oriol", classID: id, on: Gym.day("2026-12-07"), now: now)
        }
        let seeded = book
        try await store.change { $0 = seeded }
        // A closure raises the sequences of the classes' closed dates (the gym record's classSequences).
        _ = try await store.changeTelling(gym: nil) { book in try book.close(GymClosure(first: Gym.day("2026-12-07"), last: Gym.day("2026-12-08"), reason: "Works"), now: now) }
        let before = try await storage.load()
        let gym = try #require(before.records.first { $0.key.kind == "gym" })
        #expect(String(decoding: gym.body, as: UTF8.self).contains("spin10"), "no class sequences to keep")
        _ = try await store.changeOccurrence(of: "spin2", on: try Gym.day("2026-11-30"), members: ["marta"]) { book in
            try book.book(member: "marta", classID: "spin2", on: Gym.day("2026-11-30"), now: now)
        }
        let after = try await storage.load()
        let changed = after.records.filter { record in before.records.first { $0.key == record.key } != record }.map(\.key)
        #expect(changed == [RecordKey(kind: "roster", id: "spin2 2026-11-30")], "\(changed)")
    }

    @Test("a booking that tells, on one occurrence's records: its roster and its invitation in one commit, nothing else written")
    func occurrenceTelling() async throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let storage = try SQLiteBookStorage(path: folder.appendingPathComponent("gym.sqlite").path)
        let now = try Gym.now("2026-11-20 10:00")
        let store = BookStore(storage, newBookZone: Gym.zone, now: { _ in now })
        let seeded = try Gym.book()
        try await store.change { $0 = seeded }
        let before = try await storage.load()
        let told = try await store.changeOccurrenceTelling(of: "yoga", on: try Gym.day("2026-11-30"), members: ["marta"], gym: nil) { book in
            try book.book(member: "marta", classID: "yoga", on: Gym.day("2026-11-30"), now: now)
        }
        let after = try await storage.load()
        let changed = after.records.filter { record in before.records.first { $0.key == record.key } != record }.map(\.key)
        #expect(changed == [RecordKey(kind: "roster", id: "yoga 2026-11-30")], "\(changed)")
        let owed = try await store.owed()
        #expect(owed.map(\.notice) == told.notices.notices && owed.count == 1 && owed.first?.notice.recipient.email == "marta@example.com",
                "\(owed.map(\.notice.recipient.email))")
        #expect(after.revision == before.revision + 1)
    }

    @Test("a change of one occurrence keeps what it did not read: other classes' sequences, rosters, sessions, members")
    func occurrenceKeepsTheRest() async throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = BookStore(try SQLiteBookStorage(path: folder.appendingPathComponent("gym.sqlite").path), newBookZone: Gym.zone)
        let now = try Gym.now("2026-11-20 10:00")
        var book = try Gym.book()
        try book.addSession(id: "s1", coach: "marc", client: "anna", start: Gym.at("2026-11-26 10:00"), duration: .seconds(3600), now: now)
        _ = try book.book(member: "oriol", classID: "spin", on: Gym.day("2026-12-11"), now: now)
        _ = try book.book(member: "nuria", classID: "yoga", on: Gym.day("2026-12-09"), now: now)
        let seeded = book
        try await store.change { $0 = seeded }
        // A closure raises the sequences of both classes' closed dates (the gym record's classSequences).
        _ = try await store.changeTelling(gym: nil) { book in try book.close(GymClosure(first: Gym.day("2026-12-07"), last: Gym.day("2026-12-11"), reason: "Works"), now: now) }
        let before = try await store.load()
        _ = try await store.changeOccurrence(of: "yoga", on: try Gym.day("2026-11-30"), members: ["marta"]) { book in
            try book.book(member: "marta", classID: "yoga", on: Gym.day("2026-11-30"), now: now)
        }
        var expected = before
        _ = try expected.book(member: "marta", classID: "yoga", on: Gym.day("2026-11-30"), now: now)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let after = try await store.load()
        #expect(String(decoding: try encoder.encode(after), as: UTF8.self) == String(decoding: try encoder.encode(expected), as: UTF8.self))
        // What the change did not read was there to lose: the closure's sequences of both classes.
        let sequences = String(decoding: try encoder.encode(after), as: UTF8.self).components(separatedBy: "\"classSequences\":").dropFirst().first?.prefix(40) ?? ""
        #expect(sequences.contains("\"spin\"") && sequences.contains("\"yoga\""), "\(sequences)")
    }

    @Test("twenty connections of their own race for the last three places of one SQLite file: three booked, the rest told full")
    func sqliteConnectionsRace() async throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("gym.sqlite").path
        var book = try Gym.book()
        for i in 0..<20 { try book.addMember(Member(id: "d\(i)", name: "Desk \(i)")) }
        let seeded = book
        try await BookStore(try SQLiteBookStorage(path: path), newBookZone: Gym.zone).change { $0 = seeded }
        let now = try Gym.now("2026-11-20 10:00"), date = try Gym.day("2026-11-30")
        let outcomes = await withTaskGroup(of: String.self) { group in
            for i in 0..<20 {
                group.addTask { await Self.desk(booking: "d\(i)", on: date, now: now, path: path) }
            }
            var all: [String] = []
            for await outcome in group { all.append(outcome) }
            return all
        }
        #expect(outcomes.filter { $0 == "booked" }.count == 3, "\(outcomes)")
        #expect(outcomes.filter { $0 == "full" }.count == 17, "\(outcomes)")
        let held = try await BookStore(try SQLiteBookStorage(path: path), newBookZone: Gym.zone).load().roster(classID: "yoga", on: date)
        #expect(held.confirmed.count == 3)
    }

    /// One desk with a connection of its own: `booked`, `full`, or the error.
    static func desk(booking member: String, on date: LocalDate, now: Date, path: String) async -> String {
        let store: BookStore<SQLiteBookStorage>
        do { store = BookStore(try SQLiteBookStorage(path: path), newBookZone: Gym.zone) } catch { return "\(error)" }
        do {
            try await store.change { book in _ = try book.book(member: member, classID: "yoga", on: date, now: now) }
            return "booked"
        } catch {
            if case .refused(.classFull) = error { return "full" }
            return "\(error)"
        }
    }

    @Test("eight connections opening a new file at once all open it, with one schema")
    func firstOpenRace() async throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("new.sqlite").path
        let opened = await withTaskGroup(of: String.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    do { return "\(try await SQLiteBookStorage(path: path).load().revision)" } catch { return "\(error)" }
                }
            }
            var all: [String] = []
            for await one in group { all.append(one) }
            return all
        }
        #expect(opened == Array(repeating: "0", count: 8), "\(opened)")
    }

    @Test("another GRDB app's database, with migrations of its own, is not taken for a newer Horari's")
    func anotherGRDBApp() throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("app.sqlite").path
        try python("import sqlite3; c = sqlite3.connect('\(path)'); c.execute('CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)'); c.execute(\"INSERT INTO grdb_migrations VALUES ('v1')\"); c.execute('CREATE TABLE player (name TEXT)'); c.commit()")
        #expect {
            _ = try SQLiteBookStorage(path: path)
        } throws: { error in
            (error as? CalendarStoreError)?.code == .notADatabase && "\(error)".contains("another program")
        }
    }

    @Test("a file that is not a database is refused with what to do, and left as it was")
    func notADatabase() throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("gym.sqlite")
        let text = Data("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nEND:VCALENDAR\r\n".utf8) + Data(repeating: 7, count: 4096)
        try text.write(to: url)
        #expect {
            _ = try SQLiteBookStorage(path: url.path)
        } throws: { error in
            guard let error = error as? CalendarStoreError else { return false }
            return error.code == .notADatabase && error.message.contains("is not an SQLite database") && error.message.contains("nothing was changed")
        }
        #expect(try Data(contentsOf: url) == text)
    }

    @Test("another program's SQLite database is refused, not given tables of ours")
    func someoneElsesDatabase() async throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("other.sqlite").path
        try python("import sqlite3; c = sqlite3.connect('\(path)'); c.execute('CREATE TABLE notes (t TEXT)'); c.commit()")
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(throws: CalendarStoreError.self) { _ = try SQLiteBookStorage(path: path) }
        let tables = try python("import sqlite3; print(sorted(r[0] for r in sqlite3.connect('\(path)').execute(\"SELECT name FROM sqlite_master WHERE type='table'\")))")
        #expect(tables == "['notes']\n")
        // Refused before a pool opens it: opening one set WAL mode, which wrote the file's header and schema version.
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(!FileManager.default.fileExists(atPath: path + "-wal") && !FileManager.default.fileExists(atPath: path + "-shm"))
    }

    @Test("an empty file is no calendar yet: a read writes no schema into it, and a refused first change leaves it empty")
    func emptyFile() async throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("new.sqlite")
        #expect(FileManager.default.createFile(atPath: url.path, contents: nil))
        let store = CalendarStore(try CalendarLocation(url.path))
        #expect(!store.exists)
        #expect(try await store.load().calendar.items.isEmpty)
        struct Refused: Error {}
        await #expect(throws: (any Error).self) {
            try await store.update { (_: inout ICalendar) throws(Refused) in throw Refused() }
        }
        // (Its size, not its Data: Foundation's Data(contentsOf:) of an empty file leaks a 4 KB buffer, which LeakSanitizer fails.)
        #expect(try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int == 0)
        #expect(!FileManager.default.fileExists(atPath: url.path + "-wal"))
    }

    @Test("a database of schema v1 is brought up to v2: its components are read in every window until a change writes them again with their reach")
    func schemaOneGainsReach() async throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("old.sqlite").path
        // Schema v1 as Horari 0.5.0 made it (SQLiteBookStorage's first migration, frozen), with two events.
        try python("""
            import sqlite3
            c = sqlite3.connect('\(path)')
            c.executescript('''
            CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
            INSERT INTO grdb_migrations VALUES ('v1');
            CREATE TABLE record (kind TEXT NOT NULL, id TEXT NOT NULL, version INTEGER NOT NULL, body BLOB NOT NULL, PRIMARY KEY (kind, id)) WITHOUT ROWID;
            CREATE TABLE revision (one INTEGER PRIMARY KEY CHECK (one = 1), value INTEGER NOT NULL);
            INSERT INTO revision (one, value) VALUES (1, 1);
            CREATE TABLE "commit" (id TEXT PRIMARY KEY NOT NULL, revision INTEGER NOT NULL) WITHOUT ROWID;
            CREATE TABLE owed_message (position INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, commit_id TEXT NOT NULL, body BLOB NOT NULL, delivered_at REAL);
            CREATE INDEX owed_message_undelivered ON owed_message (position) WHERE delivered_at IS NULL;
            CREATE TABLE calendar_header (one INTEGER PRIMARY KEY CHECK (one = 1), text BLOB NOT NULL);
            CREATE TABLE calendar_component (position INTEGER PRIMARY KEY, name TEXT NOT NULL, uid TEXT, text BLOB NOT NULL);
            ''')
            event = 'BEGIN:VEVENT\\r\\nUID:%s\\r\\nDTSTAMP:20200101T000000Z\\r\\nDTSTART:%s\\r\\nDURATION:PT1H\\r\\nSUMMARY:%s\\r\\nEND:VEVENT\\r\\n'
            header = b'BEGIN:VCALENDAR\\r\\nVERSION:2.0\\r\\nPRODID:-//Horari//Horari 0.5.0//EN\\r\\nX-WR-TIMEZONE:Europe/Madrid\\r\\nEND:VCALENDAR\\r\\n'
            c.execute('INSERT INTO calendar_header VALUES (1, ?)', (header,))
            c.execute('INSERT INTO calendar_component VALUES (0, ?, ?, ?)', ('VEVENT', 'old', (event % ('old', '20200105T100000Z', 'Old')).encode()))
            c.execute('INSERT INTO calendar_component VALUES (1, ?, ?, ?)', ('VEVENT', 'new', (event % ('new', '20261125T100000Z', 'New')).encode()))
            c.commit()
            """)
        let store = CalendarStore(try CalendarLocation(path))
        let november = DateInterval(start: Date(timeIntervalSince1970: 1_793_491_200), duration: 30 * 86_400)
        var read = try await store.load(touching: november)
        #expect(Set(read.result.calendar.items.map(\.uid)) == ["old", "new"], "v1's rows have no reach: every window holds them")
        #expect(read.unreadUIDs.isEmpty)
        let migrations = try python("import sqlite3; print([r[0] for r in sqlite3.connect('\(path)').execute('SELECT identifier FROM grdb_migrations ORDER BY identifier')])")
        #expect(migrations == "['v1', 'v2']\n")
        // A change writes every component again, with its reach.
        try await store.update { (calendar: inout ICalendar) throws(Never) in calendar.items[0].title += "!" }
        read = try await store.load(touching: november)
        #expect(read.result.calendar.items.map(\.uid) == ["new"])
        #expect(read.unreadUIDs == ["old"])
        #expect(try await store.load().calendar.items.count == 2)
    }

    @Test("a record whose body is more than one JSON object is refused, not read as two records")
    func splicedRecordRefused() async throws {
        let storage = MemoryBookStorage()
        let store = BookStore(storage, newBookZone: Gym.zone)
        _ = try await store.change { $0 = try Gym.book() }
        let members = try await store.load().members.count
        let revision = try await storage.load().revision
        for body in [#"{"id":"x1","name":"X","email":"x@example.com"},{"id":"x2","name":"Y","email":"y@example.com"}"#,
                     #"{"id":"x1"}]"#, #"[{"id":"x1"}]"#, #"{"id":"x1","name":"}"#] {
            let key = RecordKey(kind: "member", id: "x1")
            #expect(try await storage.commit(BookCommit(id: UUID().uuidString, basedOn: try await storage.load().revision, writes: [.init(key: key, body: Data(body.utf8))], owed: [])))
            await #expect(throws: SchedulingStoreError.self, "\(body)") { _ = try await store.load() }
        }
        #expect(try await storage.load().revision == revision + 4)
        // Written again as one object, the book reads with one more member.
        let one = #"{"id":"x1","name":"X","email":"x@example.com"}"#
        #expect(try await storage.commit(BookCommit(id: "fixed", basedOn: revision + 4, writes: [.init(key: RecordKey(kind: "member", id: "x1"), body: Data(one.utf8))], owed: [])))
        #expect(try await store.load().members.count == members + 1)
    }

    @Test("a database a newer Horari wrote is refused, not changed")
    func newerSchema() async throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("gym.sqlite").path
        try await BookStore(try SQLiteBookStorage(path: path), newBookZone: Gym.zone).change { $0 = try Gym.book() }
        try python("import sqlite3; c = sqlite3.connect('\(path)'); c.execute(\"INSERT INTO grdb_migrations VALUES ('v99-from-the-future')\"); c.commit()")
        #expect {
            _ = try SQLiteBookStorage(path: path)
        } throws: { error in
            guard let error = error as? CalendarStoreError else { return false }
            return error.code == .newerSchema && error.message.contains("newer Horari") && error.errorCode == 14
        }
    }

    @Test("another process holding the file past the deadline: one line, nothing written")
    func busy() async throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("gym.sqlite").path
        let store = BookStore(try SQLiteBookStorage(path: path, waitingAtMost: 0.3), newBookZone: Gym.zone)
        try await store.change { $0 = try Gym.book() }
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        holder.arguments = ["python3", "-c", "import sqlite3, sys, time; c = sqlite3.connect('\(path)', isolation_level=None); c.execute('BEGIN IMMEDIATE'); print('held', flush=True); time.sleep(4)"]
        let out = Pipe()
        holder.standardOutput = out
        try holder.run()
        defer { holder.terminate(); holder.waitUntilExit() }
        var said = Data()
        while !said.contains(UInt8(ascii: "\n")) {
            let more = out.fileHandleForReading.availableData
            if more.isEmpty { break }
            said += more
        }
        #expect(said == Data("held\n".utf8))
        let revision = try await SQLiteBookStorage(path: path).load().revision
        do {
            try await store.change { book in _ = try book.book(member: "marta", classID: "yoga", on: Gym.day("2026-11-30"), now: Gym.now("2026-11-20 10:00")) }
            Issue.record("a change went through while another process held the file")
        } catch {
            guard case .store(let inside) = error else { Issue.record("\(error)"); return }
            #expect(inside.code == .busy && inside.message.contains("held by another process"), "\(inside)")
        }
        holder.terminate()
        holder.waitUntilExit()
        #expect(try await SQLiteBookStorage(path: path).load().revision == revision)
    }

    @Test("a read-only database reads, and refuses a change with what to do")
    func readOnly() async throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("gym.sqlite").path
        try await BookStore(try SQLiteBookStorage(path: path), newBookZone: Gym.zone).change { $0 = try Gym.book() }
        let store = BookStore(try SQLiteBookStorage(path: path, readOnly: true), newBookZone: Gym.zone)
        #expect(try await store.load().members.count == 3)
        do {
            try await store.change { book in _ = try book.book(member: "marta", classID: "yoga", on: Gym.day("2026-11-30"), now: Gym.now("2026-11-20 10:00")) }
            Issue.record("a read-only store took a change")
        } catch {
            guard case .store(let inside) = error else { Issue.record("\(error)"); return }
            #expect(inside.message.contains("read-only"), "\(inside)")
        }
    }

    /// Runs Python (its `sqlite3` module stands for another program) and returns what it printed.
    @discardableResult
    func python(_ code: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", code]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let watchdog = ChildWatchdog(process)
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try watchdog.check("python3")
        #expect(process.terminationStatus == 0)
        return String(decoding: data, as: UTF8.self)
    }
}

/// A store that ignores the revision and forgets its commits: what the suite must catch.
final class LastWriteWins: BookStorage {
    private let inner = MemoryBookStorage()
    func load() async throws -> BookSnapshot { try await inner.load() }
    func commit(_ commit: BookCommit) async throws -> Bool {
        let current = try await inner.load().revision
        var forced = commit
        forced.basedOn = current
        forced.id = UUID().uuidString
        return try await inner.commit(forced)
    }
    func hasCommitted(_ commitID: String) async throws -> Bool { false }
    func owedMessages() async throws -> [OwedMessage] { try await inner.owedMessages() }
    func markDelivered(_ messageIDs: [String]) async throws { try await inner.markDelivered(messageIDs) }
}

/// A database that keeps the book right and the calendar's text wrong: it
/// drops a component without a UID, and takes a stale commit's text.
final class CarelessCalendar: CalendarDatabase {
    private let inner = MemoryBookStorage()
    private let text = Locked<CalendarText?>(nil)
    func load() async throws -> BookSnapshot { try await inner.load() }
    func loadCalendar() async throws -> StoredCalendar { StoredCalendar(snapshot: try await inner.load(), text: text.withLock { $0 }) }
    func commit(_ commit: BookCommit, calendar: CalendarText?) async throws -> Bool {
        if var calendar {
            calendar.components.removeAll { $0.uid == nil }
            text.withLock { $0 = calendar }
        }
        return try await inner.commit(commit)
    }
    func hasCommitted(_ commitID: String) async throws -> Bool { try await inner.hasCommitted(commitID) }
    func owedMessages() async throws -> [OwedMessage] { try await inner.owedMessages() }
    func markDelivered(_ messageIDs: [String]) async throws { try await inner.markDelivered(messageIDs) }
}
