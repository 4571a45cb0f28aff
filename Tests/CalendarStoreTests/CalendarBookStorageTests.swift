import BookStorageConformance
import CalendarCore
import CalendarScheduling
@testable import CalendarStore
import Foundation
import ICalendarKit
import Testing
import _CalendarTestSupport
import _SchedulingTestSupport

/// Issue 40, 1: the `BookStorage` protocol on a calendar's own places — a
/// file, a folder, a CalDAV collection (Radicale) — with its conformance
/// suite, each racing desk a storage of its own (on a collection, with a
/// cache of its own, as another machine's); and what a calendar adds: a
/// change made otherwise (`SchedulingStore`, as `horari` makes one) is a
/// revision no commit writes over.
@Suite("The book's storage on a file, a folder and a CalDAV collection (CalendarBookStorage)")
struct CalendarBookStorageTests {
    /// The kinds of place tested: collections where Radicale is given (HORARI_RADICALE_PYTHON, as CI's `make test` gives it).
    static let places = ["file", "folder"] + (TestServer.radicalePython == nil ? [] : ["collection"])

    /// Where the calendars of one test live, and the server for collections.
    struct Places: Sendable {
        let scratch: URL
        /// Radicale's root, for collections.
        let server: URL?
        let kind: String

        /// Places of `kind`, started: a scratch folder, and Radicale for collections (stopped by ``stop(_:)``).
        static func start(_ kind: String) throws -> (Places, TestServer?) {
            let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("horari-calendar-book-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
            let server = kind == "collection" ? try TestServer.radicale() : nil
            return (Places(scratch: scratch, server: server?.url("/"), kind: kind), server)
        }

        /// A new, empty calendar of this kind.
        func store() async throws -> CalendarStore {
            let name = "gym-\(UUID().uuidString.prefix(8))"
            switch kind {
            case "file":
                return CalendarStore(.file(scratch.appendingPathComponent("\(name).ics")))
            case "folder":
                return CalendarStore(.folder(scratch.appendingPathComponent(name)))
            default:
                guard let server else { throw TestServer.Failure("no server") }
                var store = CalendarStore(.collection(server.appendingPathComponent("\(TestServer.user)/\(name)/")),
                                          credentials: CalDAVCredentials(user: TestServer.user, password: TestServer.password))
                store.cacheFolder = scratch.appendingPathComponent("cache-\(name)")
                // Made empty first, as a server's calendar is there before a gym's desks use it.
                try await store.update { $0.name = "Gym" }
                return store
            }
        }

        /// A desk on `store`'s calendar: a storage of its own (a collection's with a cache of its own).
        func desk(_ store: CalendarStore, _ n: Int) throws -> CalendarBookStorage {
            var store = store
            if let cache = store.cacheFolder { store.cacheFolder = cache.appendingPathExtension("desk-\(n)") }
            return try CalendarBookStorage(store, settings: SchedulingStore.Settings(newCalendarZone: Gym.zone))
        }

        func stop(_ server: TestServer?) {
            server?.stop()
            try? FileManager.default.removeItem(at: scratch)
        }
    }

    /// One calendar seen by several desks: each call goes to the next one.
    struct Desks: BookStorage {
        let desks: [CalendarBookStorage]
        let turn = Locked(0)

        init(_ places: Places, count: Int) async throws {
            let store = try await places.store()
            desks = try (0..<count).map { try places.desk(store, $0) }
        }

        private var next: CalendarBookStorage {
            desks[turn.withLock { n in
                n += 1
                return n % desks.count
            }]
        }

        func load() async throws -> BookSnapshot { try await next.load() }
        func commit(_ commit: BookCommit) async throws -> Bool { try await next.commit(commit) }
        func hasCommitted(_ commitID: String) async throws -> Bool { try await next.hasCommitted(commitID) }
        func owedMessages() async throws -> [OwedMessage] { try await next.owedMessages() }
        func markDelivered(_ messageIDs: [String]) async throws { try await next.markDelivered(messageIDs) }
    }

    @Test("the conformance suite holds, desks of their own racing (on a collection, each with a cache of its own, as other machines)", arguments: places)
    func conforms(_ kind: String) async throws {
        let (places, server) = try Places.start(kind)
        defer { places.stop(server) }
        let failures = await BookStorageConformance(desks: 12) { try await Desks(places, count: 4) }.run()
        #expect(failures.isEmpty, "\(failures)")
    }

    @Test("the book a storage commits is the calendar's own: SchedulingStore reads it, and the classes are events", arguments: places)
    func bookIsTheCalendars(_ kind: String) async throws {
        let (places, server) = try Places.start(kind)
        defer { places.stop(server) }
        let store = try await places.store()
        let books = BookStore(try places.desk(store, 0), newBookZone: Gym.zone)
        let now = try Gym.now("2026-11-20 10:00")
        let seeded = try Gym.book()
        try await books.change { $0 = seeded }
        _ = try await books.changeOccurrence(of: "yoga", on: try Gym.day("2026-11-30"), members: ["marta"]) { book in
            try book.book(member: "marta", classID: "yoga", on: Gym.day("2026-11-30"), now: now)
        }
        let read = try await SchedulingStore(store, settings: SchedulingStore.Settings(newCalendarZone: Gym.zone)).load()
        #expect(try read.roster(classID: "yoga", on: Gym.day("2026-11-30")).confirmed == ["marta"])
        #expect(try Self.json(read) == Self.json(try await books.load()))
        let calendar = try await store.load().calendar
        #expect(calendar.items.contains { $0.title == "Yoga" }, "the class is not an event of the calendar")
    }

    @Test("a change made otherwise is taken in as two revisions by the next read: a commit on the snapshot before it is not made, and the retried change keeps both", arguments: places)
    func changeMadeOtherwise(_ kind: String) async throws {
        let (places, server) = try Places.start(kind)
        defer { places.stop(server) }
        let store = try await places.store()
        let storage = try places.desk(store, 0)
        let books = BookStore(storage, newBookZone: Gym.zone)
        let now = try Gym.now("2026-11-20 10:00")
        let seeded = try Gym.book()
        try await books.change { $0 = seeded }
        let before = try await storage.load()
        // As `horari book` makes a booking: through the scheduling store, on the calendar.
        let cli = SchedulingStore(store, settings: SchedulingStore.Settings(now: { _ in now }, newCalendarZone: Gym.zone))
        _ = try await cli.change { book in try book.book(member: "oriol", classID: "yoga", on: Gym.day("2026-11-30"), now: now) }
        let seen = try await storage.load()
        #expect(seen.revision == before.revision + 2, "a change made otherwise was not taken in as two revisions")
        #expect(seen.records.first { $0.key == RecordKey(kind: "roster", id: "yoga 2026-11-30") }?.version == 1)
        #expect(try await storage.load().revision == seen.revision, "a second read took the change in again")
        // A commit on the snapshot before it is refused.
        var marta = seeded
        _ = try marta.book(member: "marta", classID: "yoga", on: Gym.day("2026-11-30"), now: now)
        let writes = BookRecords.writes(from: before.records, to: try BookRecords.records(of: marta))
        #expect(try await storage.commit(BookCommit(id: "on-before", basedOn: before.revision, writes: writes, owed: [])) == false)
        #expect(try await storage.hasCommitted("on-before") == false)
        // Through BookStore the change is made again on the book as it is.
        _ = try await books.change { book in try book.book(member: "marta", classID: "yoga", on: Gym.day("2026-11-30"), now: now) }
        #expect(try await cli.load().roster(classID: "yoga", on: Gym.day("2026-11-30")).confirmed.sorted() == ["marta", "oriol"])
        #expect(try await storage.load().revision == seen.revision + 1)
    }

    @Test("a change made otherwise in a file this desk cannot write: the book is read, at a revision no commit is made on")
    func readOnlyAfterAChangeMadeOtherwise() async throws {
        let (places, server) = try Places.start("file")
        defer { places.stop(server) }
        let store = try await places.store()
        let storage = try places.desk(store, 0)
        let now = try Gym.now("2026-11-20 10:00")
        let seeded = try Gym.book()
        try await BookStore(storage, newBookZone: Gym.zone).change { $0 = seeded }
        let cli = SchedulingStore(store, settings: SchedulingStore.Settings(now: { _ in now }, newCalendarZone: Gym.zone))
        _ = try await cli.change { book in try book.book(member: "oriol", classID: "yoga", on: Gym.day("2026-11-30"), now: now) }
        guard case .file(let url) = store.location else { return }
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: url.path)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: url.path) }
        let read = try await storage.load()
        #expect(read.revision < 0)
        #expect(read.records.contains { $0.key == RecordKey(kind: "roster", id: "yoga 2026-11-30") })
        // Writable again, no commit is made on that revision.
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: url.path)
        #expect(try await storage.commit(BookCommit(id: "on-read-only", basedOn: read.revision, writes: [], owed: [])) == false)
        #expect(try await storage.load().revision > 0)
    }

    @Test("a book state another program spoiled is refused in a line, not taken for none (which would forget the commits made)")
    func spoiledState() async throws {
        let (places, server) = try Places.start("file")
        defer { places.stop(server) }
        let store = try await places.store()
        let storage = try places.desk(store, 0)
        let seeded = try Gym.book()
        try await BookStore(storage, newBookZone: Gym.zone).change { $0 = seeded }
        guard case .file(let url) = store.location else { return }
        let text = try String(contentsOf: url, encoding: .utf8)
        let spoiled = text.replacingOccurrences(of: "X-HORARI-BOOK-STATE:", with: "X-HORARI-BOOK-STATE:not base64 ")
        #expect(spoiled != text)
        try spoiled.write(to: url, atomically: true, encoding: .utf8)
        await #expect(throws: CalendarStoreError.self) { try await storage.load() }
        await #expect(throws: CalendarStoreError.self) { try await storage.hasCommitted("anything") }
    }

    @Test("a database is not a calendar's storage")
    func databaseRefused() throws {
        #expect(throws: CalendarStoreError.self) {
            try CalendarBookStorage(CalendarStore(.database(URL(fileURLWithPath: "/tmp/x.sqlite"))))
        }
    }

    static func json(_ book: SchedulingBook) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(book)
    }
}
