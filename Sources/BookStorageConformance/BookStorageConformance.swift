import CalendarCore
import CalendarScheduling
import CalendarStore
import Foundation

/// The `BookStorage` protocol's guarantees as checks, for an app to run
/// against its own backend from any test framework.
///
/// Each check gets a new, empty store from `makeStorage`, and says what
/// failed in a sentence. A store that is a `CalendarDatabase` (it keeps the
/// calendar's text beside the book, for `CalendarStore`) is checked for that
/// too. The library runs the same checks on its own
/// stores (`MemoryBookStorage`, `SQLiteBookStorage`, `PostgresBookStorage`,
/// `CalendarBookStorage` on a file, a folder and a CalDAV collection) in
/// its tests. The checks commit only records that make a book, as the
/// library writes them: a store may keep the book in a form of its own.
///
/// ```swift
/// import BookStorageConformance
/// import Testing
///
/// @Test func myBackendConforms() async {
///     let failures = await BookStorageConformance { try await MyBackend.emptyTestProject() }.run()
///     #expect(failures.isEmpty, "\(failures)")
/// }
/// ```
public struct BookStorageConformance<Storage: BookStorage>: Sendable {
    /// A check that did not hold.
    public typealias Failure = BookStorageConformanceFailure

    /// One check: its name, and what it does with a new store (``run(_:)``).
    public struct Check: Sendable {
        /// What it checks, in a few words.
        public var name: String
        let body: @Sendable (Storage) async throws -> Void
    }

    /// Runs one check on a new store: for a test framework that shows each check as a test of its own.
    /// - Parameter check: one of ``checks``.
    /// - Returns: what did not hold, or `nil`.
    public func run(_ check: Check) async -> Failure? {
        do {
            try await check.body(try await makeStorage())
            return nil
        } catch let failure as Failure {
            return Failure(check: check.name, message: failure.message)
        } catch {
            return Failure(check: check.name, message: "threw \(error)")
        }
    }

    private let makeStorage: @Sendable () async throws -> Storage
    /// How many desks race in the checks that race (default 12).
    public var desks: Int

    /// The suite, on stores `makeStorage` makes: each one new and empty.
    /// - Parameters:
    ///   - desks: how many desks race in the checks that race.
    ///   - makeStorage: a new, empty store.
    public init(desks: Int = 12, makeStorage: @escaping @Sendable () async throws -> Storage) {
        self.desks = max(2, desks)
        self.makeStorage = makeStorage
    }

    /// Runs every check, each on a new store.
    /// - Returns: what did not hold; empty when the store conforms.
    public func run() async -> [Failure] {
        var failures: [Failure] = []
        for check in checks {
            if let failure = await run(check) { failures.append(failure) }
        }
        return failures
    }

    /// Every check, in the order ``run()`` runs them.
    public var checks: [Check] {
        let desks = desks
        let all: [(String, @Sendable (Storage, Int) async throws -> Void)] = [
            ("an empty store", Self.emptyStore),
            ("a commit writes its records, and versions count", Self.commitWrites),
            ("a commit on a stale revision writes nothing", Self.staleCommit),
            ("owed messages commit with their change and stay until delivered", Self.owedMessages),
            ("racing commits: one per revision", Self.racingCommits),
            ("a book round trip, whole", Self.roundTrip),
            ("desks racing for the last places", Self.lastPlaces),
            ("desks racing for the last places, each reading only the occurrence's records", Self.lastPlacesByOccurrence),
            ("an answer lost after the commit is not a change made twice", Self.lostAnswer),
            ("a refused change commits nothing, and owes nothing", Self.refusedChange),
            ("a change owes its messages until they are delivered", Self.delivery),
        ]
        let calendar: [(String, @Sendable (any CalendarDatabase) async throws -> Void)] = [
            ("the calendar's text commits with the book, byte for byte and in order", calendarText),
            ("a stale commit leaves the calendar's text as it was", staleCalendarText),
            ("a read for a window holds every component that can touch it, in order", windowedCalendarText),
        ]
        let calendarChecks = Storage.self is any CalendarDatabase.Type ? calendar.map { name, check in
            (name, { @Sendable (storage: Storage, _: Int) async throws in
                guard let database = storage as? any CalendarDatabase else { throw BookStorageConformanceFailure(check: "", message: "not a CalendarDatabase") }
                try await check(database)
            })
        } : []
        return (all + calendarChecks).map { name, body in Check(name: name) { storage in try await body(storage, desks) } }
    }

    private static func emptyStore(_ storage: Storage, desks: Int) async throws {
        let snapshot = try await storage.load()
        try expect(snapshot.revision == 0 && snapshot.records.isEmpty, "a new store holds revision \(snapshot.revision) and \(snapshot.records.count) records, not 0 and none")
        try expect(try await storage.owedMessages().isEmpty, "a new store owes messages")
        try expect(!(try await storage.hasCommitted("no-such-commit")), "a new store says it made a commit it never saw")
    }

    private static func commitWrites(_ storage: Storage, desks: Int) async throws {
        let a = RecordKey(kind: "member", id: "a"), b = RecordKey(kind: "member", id: "b"), gym = BookRecords.gymKey
        try expect(try await storage.commit(BookCommit(id: "c1", basedOn: 0, writes: [try gymRecord(), try member("a", "Anna"), try member("b", "Bernat")], owed: [])),
                   "a commit on revision 0 of a new store was refused")
        var snapshot = try await storage.load()
        try expect(snapshot.revision == 1, "after one commit the revision is \(snapshot.revision), not 1")
        try expect(snapshot.records.map(\.version) == [1, 1, 1] && snapshot.records.map(\.key) == [gym, a, b],
                   "after one commit the records are \(snapshot.records.map { "\($0.key) v\($0.version)" })")
        let renamed = try member("a", "Anna Puig")
        try expect(try await storage.commit(BookCommit(id: "c2", basedOn: 1, writes: [renamed, .init(key: b, body: nil)], owed: [])),
                   "a commit on the current revision was refused")
        snapshot = try await storage.load()
        try expect(snapshot.revision == 2, "after two commits the revision is \(snapshot.revision), not 2")
        try expect(snapshot.records.map(\.key) == [gym, a] && snapshot.records.map(\.version) == [1, 2] && snapshot.records.last?.body == renamed.body,
                   "after a rewrite and a removal the records are \(snapshot.records.map { "\($0.key) v\($0.version)" }), not gym:book v1 and member:a v2")
        let first = try await storage.hasCommitted("c1"), second = try await storage.hasCommitted("c2")
        try expect(first && second, "a commit made is not remembered")
    }

    private static func staleCommit(_ storage: Storage, desks: Int) async throws {
        let first = try member("a", "Anna")
        _ = try await storage.commit(BookCommit(id: "first", basedOn: 0, writes: [try gymRecord(), first], owed: []))
        let stale = BookCommit(id: "stale", basedOn: 0, writes: [try member("a", "Anna Puig"), try member("z", "Zoe")],
                               owed: [try message("stale-1", commit: "stale")])
        try expect(!(try await storage.commit(stale)), "a commit on revision 0 was made after revision 1")
        let snapshot = try await storage.load()
        try expect(snapshot.revision == 1 && snapshot.records.count == 2 && snapshot.records.last?.body == first.body, "a refused commit changed the records")
        try expect(try await storage.owedMessages().isEmpty, "a refused commit left its messages owed")
        try expect(!(try await storage.hasCommitted("stale")), "a refused commit is said to be made")
    }

    private static func owedMessages(_ storage: Storage, desks: Int) async throws {
        let owed = try (1...3).map { try message("m\($0)", commit: "c") }
        _ = try await storage.commit(BookCommit(id: "c", basedOn: 0, writes: [try gymRecord(), try member("a", "Anna")], owed: owed))
        try expect(try await storage.owedMessages() == owed, "the owed messages are not the three committed, in order")
        try await storage.markDelivered(["m2"])
        try expect(try await storage.owedMessages().map(\.id) == ["m1", "m3"], "after m2 was delivered, the owed are not m1 and m3")
        try await storage.markDelivered(["m2", "unknown"])
        try expect(try await storage.owedMessages().map(\.id) == ["m1", "m3"], "marking a message twice, or an unknown one, changed the owed list")
        _ = try await storage.commit(BookCommit(id: "d", basedOn: 1, writes: [], owed: [try message("m4", commit: "d")]))
        try expect(try await storage.owedMessages().map(\.id) == ["m1", "m3", "m4"], "a later commit's message is not after the earlier ones")
    }

    private static func racingCommits(_ storage: Storage, desks: Int) async throws {
        let made = try await withThrowingTaskGroup(of: Bool.self) { group in
            for desk in 0..<desks {
                let writes = [try gymRecord(), try member("d\(desk)", "Desk \(desk)")]
                group.addTask { try await storage.commit(BookCommit(id: "desk-\(desk)", basedOn: 0, writes: writes, owed: [])) }
            }
            return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        try expect(made == 1, "\(made) of \(desks) commits on revision 0 were made, not 1")
        let snapshot = try await storage.load()
        try expect(snapshot.revision == 1 && snapshot.records.count == 2, "after the race the store holds revision \(snapshot.revision) and \(snapshot.records.count) records")
    }

    private static func roundTrip(_ storage: Storage, desks: Int) async throws {
        let store = BookStore(storage, newBookZone: "Europe/Madrid")
        let book = try ConformanceGym.book(members: 6)
        _ = try await store.change { $0 = book }
        let back = try await store.load()
        try expect(try ConformanceGym.json(back) == ConformanceGym.json(book), "the book read back is not the book written")
    }

    private static func lastPlaces(_ storage: Storage, desks: Int) async throws {
        try await race(storage, desks: desks, occurrence: false)
    }

    private static func lastPlacesByOccurrence(_ storage: Storage, desks: Int) async throws {
        try await race(storage, desks: desks, occurrence: true)
    }

    /// `desks` desks race for the gym's three places, through `change(_:)` or `changeOccurrence`.
    private static func race(_ storage: Storage, desks: Int, occurrence: Bool) async throws {
        let store = BookStore(storage, newBookZone: "Europe/Madrid")
        let book = try ConformanceGym.book(members: desks)
        _ = try await store.change { $0 = book }
        let date = try ConformanceGym.date
        let outcomes = await withTaskGroup(of: Result<Bool, SchedulingStoreError>.self) { group in
            for desk in 0..<desks {
                group.addTask { await booking(member: "m\(desk)", on: date, in: store, occurrence: occurrence) }
            }
            var outcomes: [Result<Bool, SchedulingStoreError>] = []
            for await outcome in group { outcomes.append(outcome) }
            return outcomes
        }
        let booked = outcomes.filter { (try? $0.get()) == true }.count, full = outcomes.filter { (try? $0.get()) == false }.count
        let others = outcomes.compactMap { outcome -> String? in if case .failure(let error) = outcome { "\(error)" } else { nil } }
        try expect(booked == ConformanceGym.capacity && full == desks - ConformanceGym.capacity,
                   "\(booked) desks were told booked and \(full) full, of \(desks) racing for \(ConformanceGym.capacity) places"
                       + (others.isEmpty ? "" : "; \(others.count) told otherwise, the first: \(others[0])"))
        let whole = try await store.load()
        try expect(try whole.roster(classID: "yoga", on: date).confirmed.count == booked, "the store holds other places than the desks were told")
        try expect(whole.members.count == desks, "a change lost members it did not read: \(whole.members.count) of \(desks)")
    }

    /// `true` when booked, `false` when told full, the error for any other answer.
    private static func booking(member: String, on date: LocalDate, in store: BookStore<Storage>, occurrence: Bool = false) async -> Result<Bool, SchedulingStoreError> {
        do {
            if occurrence {
                _ = try await store.changeOccurrence(of: "yoga", on: date, members: [member]) { book in
                    try book.book(member: member, classID: "yoga", on: date, now: ConformanceGym.now)
                }
                return .success(true)
            }
            _ = try await store.change { book in try book.book(member: member, classID: "yoga", on: date, now: ConformanceGym.now) }
            return .success(true)
        } catch {
            if case .refused(.classFull) = error { return .success(false) }
            return .failure(error)
        }
    }

    private static func lostAnswer(_ storage: Storage, desks: Int) async throws {
        let store = BookStore(storage, newBookZone: "Europe/Madrid")
        _ = try await store.change { $0 = try ConformanceGym.book(members: 2) }
        let lossy = BookStore(LosingAnswers(storage), newBookZone: "Europe/Madrid")
        do {
            _ = try await lossy.change { book in try book.book(member: "m0", classID: "yoga", on: try ConformanceGym.date, now: ConformanceGym.now) }
        } catch {
            throw Failure(check: "", message: "a change whose answer was lost failed (\(error)), though the store made it")
        }
        let roster = try await store.load().roster(classID: "yoga", on: try ConformanceGym.date)
        try expect(roster.confirmed == ["m0"], "after a lost answer the roster is \(roster.confirmed), not [m0]")
        try expect(try await storage.load().revision == 2, "a lost answer made the change twice")
    }

    private static func refusedChange(_ storage: Storage, desks: Int) async throws {
        let store = BookStore(storage, newBookZone: "Europe/Madrid")
        _ = try await store.change { $0 = try ConformanceGym.book(members: 2) }
        let before = try await storage.load()
        do {
            _ = try await store.changeTelling(gym: nil) { book in
                try book.book(member: "m0", classID: "yoga", on: try ConformanceGym.date, now: ConformanceGym.now)
                try book.book(member: "nobody", classID: "yoga", on: try ConformanceGym.date, now: ConformanceGym.now)
            }
            throw Failure(check: "", message: "booking an unknown member was not refused")
        } catch let error as SchedulingStoreError {
            guard case .refused(.unknownMember) = error else { throw error }
        }
        let after = try await storage.load()
        try expect(after.revision == before.revision && after.records == before.records, "a refused change wrote records")
        try expect(try await storage.owedMessages().isEmpty, "a refused change left messages owed")
    }

    private static func delivery(_ storage: Storage, desks: Int) async throws {
        let store = BookStore(storage, newBookZone: "Europe/Madrid")
        _ = try await store.change { $0 = try ConformanceGym.book(members: 2) }
        let told = try await store.changeTelling(gym: nil) { book in
            try book.book(member: "m0", classID: "yoga", on: try ConformanceGym.date, now: ConformanceGym.now)
        }
        let owed = try await store.owed()
        try expect(owed.map(\.notice) == told.notices.notices && !owed.isEmpty, "the store owes \(owed.count) messages, the change told \(told.notices.notices.count)")
        do {
            try await store.deliver { _ in throw DeliveryDown() }
            throw Failure(check: "", message: "a delivery that failed was said to succeed")
        } catch let error as SchedulingStoreError {
            guard case .failed(let inside) = error, inside is DeliveryDown else { throw error }
        }
        try expect(try await store.owed() == owed, "a failed delivery took messages off the owed list")
        var sent: [OwedMessage] = []
        try expect(try await store.deliver { sent.append($0) } == owed.count && sent == owed, "delivery did not send every owed message once, in order")
        try expect(try await store.owed().isEmpty, "delivered messages are still owed")
    }
}

/// The calendar's text, as `CalendarStore` writes it: an event whose text
/// holds bytes a store must not touch (a CRLF, a folded line, UTF-8).
private func calendarText(_ storage: any CalendarDatabase) async throws {
    let empty = try await storage.loadCalendar()
    try expect(empty.snapshot.revision == 0 && empty.text == nil, "a new store holds a calendar's text")
    let header = Data("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Horari//conformance//EN\r\nX-WR-CALNAME:Gimnàs\r\nEND:VCALENDAR\r\n".utf8)
    let components = (0..<3).map { i in
        CalendarText.Component(name: i == 2 ? "VTODO" : "VEVENT", uid: i == 1 ? nil : "item-\(i)",
                               text: Data("BEGIN:VEVENT\r\nUID:item-\(i)\r\nSUMMARY:Reunió \(i)\r\nDESCRIPTION:a long line fol\r\n ded here\r\nEND:VEVENT\r\n".utf8))
    }
    let written = CalendarText(header: header, components: components)
    let key = RecordKey(kind: "member", id: "a")
    try expect(try await storage.commit(BookCommit(id: "c1", basedOn: 0, writes: [.init(key: key, body: body("1"))], owed: []), calendar: written),
               "a commit with the calendar's text on revision 0 was refused")
    var read = try await storage.loadCalendar()
    try expect(read.text == written, "the calendar's text came back changed: \(read.text.map { "\($0.components.count) components" } ?? "none")")
    try expect(read.snapshot.revision == 1 && read.snapshot.records.map(\.key) == [key], "the calendar's read does not hold the book's records at revision 1")
    // A commit of the book alone leaves the text as it was.
    try expect(try await storage.commit(BookCommit(id: "c2", basedOn: 1, writes: [.init(key: key, body: body("2"))], owed: [])), "a commit on revision 1 was refused")
    read = try await storage.loadCalendar()
    try expect(read.text == written && read.snapshot.revision == 2, "a commit of the book alone changed the calendar's text")
    // Fewer components replace more.
    let shorter = CalendarText(header: header, components: [components[2]])
    try expect(try await storage.commit(BookCommit(id: "c3", basedOn: 2, writes: [], owed: []), calendar: shorter), "a commit on revision 2 was refused")
    read = try await storage.loadCalendar()
    try expect(read.text == shorter, "a calendar of one component, written over three, reads as \(read.text?.components.count ?? 0)")
}

private func staleCalendarText(_ storage: any CalendarDatabase) async throws {
    let first = CalendarText(header: Data("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nEND:VCALENDAR\r\n".utf8), components: [])
    _ = try await storage.commit(BookCommit(id: "first", basedOn: 0, writes: [], owed: []), calendar: first)
    let stale = CalendarText(header: Data("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nX-WR-CALNAME:stale\r\nEND:VCALENDAR\r\n".utf8),
                             components: [CalendarText.Component(name: "VEVENT", uid: "x", text: Data("BEGIN:VEVENT\r\nUID:x\r\nEND:VEVENT\r\n".utf8))])
    try expect(!(try await storage.commit(BookCommit(id: "stale", basedOn: 0, writes: [], owed: []), calendar: stale)), "a commit on revision 0 was made after revision 1")
    try expect(try await storage.loadCalendar().text == first, "a refused commit changed the calendar's text")
}

/// Components with reaches before, across, after and around a window, and
/// with none: a read for the window must give back every one that can touch
/// it, in order (more is allowed: a store that does not index reaches reads
/// everything), and name the `UID` of every one it left out.
private func windowedCalendarText(_ storage: any CalendarDatabase) async throws {
    let day: Int64 = 86_400, window = (from: 100 * 86_400 as Int64, to: 130 * 86_400 as Int64)
    let reaches: [(uid: String, starts: Int64?, ends: Int64?)] = [
        ("before", 10 * day, 100 * day), ("touching-start", 90 * day, 100 * day + 1), ("inside", 110 * day, 111 * day),
        ("across", 50 * day, 200 * day), ("open", 120 * day, nil), ("open-before", 10 * day, nil), ("after", 130 * day, 140 * day),
        ("timeless", nil, nil), ("ends-before-open", 1 * day, 99 * day),
    ]
    let components = reaches.map { r in
        CalendarText.Component(name: "VEVENT", uid: r.uid, text: Data("BEGIN:VEVENT\r\nUID:\(r.uid)\r\nEND:VEVENT\r\n".utf8), starts: r.starts, ends: r.ends)
    }
    let written = CalendarText(header: Data("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nEND:VCALENDAR\r\n".utf8), components: components)
    try expect(try await storage.commit(BookCommit(id: "windowed", basedOn: 0, writes: [], owed: []), calendar: written), "a commit on revision 0 was refused")
    let read = try await storage.loadCalendar(touchingFrom: window.from, to: window.to)
    let held = read.text?.components.map(\.uid) ?? []
    let touching = components.filter { $0.canTouch(from: window.from, to: window.to) }.map(\.uid)
    try expect(touching == ["touching-start", "inside", "across", "open", "open-before", "timeless"], "canTouch says \(touching)")
    try expect(held.filter { touching.contains($0) } == touching, "a read for the window holds \(held.compactMap { $0 }), not every one of \(touching.compactMap { $0 }) in order")
    try expect(read.text?.header == written.header, "a read for a window changed the calendar's own text")
    let left = Set(components.map(\.uid)).subtracting(held).compactMap { $0 }
    try expect(Set(left).isSubset(of: Set(read.unreadUIDs)) && Set(read.unreadUIDs).isDisjoint(with: held.compactMap { $0 }),
               "the UIDs left unread are \(read.unreadUIDs.sorted()), not those of \(left.sorted())")
}

/// A check of ``BookStorageConformance`` that did not hold.
public struct BookStorageConformanceFailure: Error, Hashable, Sendable, CustomStringConvertible {
    /// The check's name.
    public var check: String
    /// What was wrong.
    public var message: String
    /// `check: message`.
    public var description: String { "\(check): \(message)" }
}

/// A sender that cannot send.
struct DeliveryDown: Error {}

/// `BookStorage` whose every commit is made and then answered with an error, as a connection lost on the way back.
struct LosingAnswers<Storage: BookStorage>: BookStorage {
    struct LostAnswer: Error {}
    let storage: Storage
    init(_ storage: Storage) { self.storage = storage }
    func load() async throws -> BookSnapshot { try await storage.load() }
    func commit(_ commit: BookCommit) async throws -> Bool {
        _ = try await storage.commit(commit)
        throw LostAnswer()
    }
    func hasCommitted(_ commitID: String) async throws -> Bool { try await storage.hasCommitted(commitID) }
    func owedMessages() async throws -> [OwedMessage] { try await storage.owedMessages() }
    func markDelivered(_ messageIDs: [String]) async throws { try await storage.markDelivered(messageIDs) }
}

/// A small gym for the checks: Yoga on Mondays at 18:30 with three places, and members `m0`, `m1`, ….
enum ConformanceGym {
    static let capacity = 3
    static var date: LocalDate { get throws { try LocalDate(year: 2026, month: 11, day: 30) } }
    /// 2026-11-20 12:00 UTC: before the class.
    static let now = Date(timeIntervalSince1970: 1_795_176_000)

    static func book(members: Int) throws -> SchedulingBook {
        var book = SchedulingBook(timeZone: try .named("Europe/Madrid"))
        for i in 0..<members { try book.addMember(Member(id: "m\(i)", name: "Member \(i)", email: "m\(i)@example.com")) }
        try book.addCoach(Coach(id: "marc", name: "Marc Soler", email: "marc@gym.example"))
        try book.addClient(Client(id: "anna", coachID: "marc", name: "Anna Puig"))
        try book.addClass(ClassSeries(id: "yoga", title: "Yoga", weekdays: [.monday], time: TimeOfDay(hour: 18, minute: 30), duration: .seconds(3600),
                                      capacity: capacity, firstDate: try LocalDate(year: 2026, month: 11, day: 2)))
        return book
    }

    static func json(_ book: SchedulingBook) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(book)
    }
}

private func expect(_ condition: Bool, _ message: @autoclosure () -> String) throws {
    if !condition { throw BookStorageConformanceFailure(check: "", message: message()) }
}

private func body(_ text: String) -> Data { Data(#"{"n":\#(text)}"#.utf8) }

/// The `gym` record of an empty book on the conformance gym's clock, as the
/// library writes it: a store may keep the book in a form of its own (a
/// calendar's does), so the checks commit only records that make one.
private func gymRecord() throws -> BookCommit.Write {
    try record(BookRecords.gymKey, of: SchedulingBook(timeZone: try .named("Europe/Madrid")))
}

/// A member's record, as the library writes it.
private func member(_ id: String, _ name: String) throws -> BookCommit.Write {
    var book = SchedulingBook(timeZone: try .named("Europe/Madrid"))
    try book.addMember(Member(id: id, name: name, email: "\(id)@example.com"))
    return try record(RecordKey(kind: "member", id: id), of: book)
}

private func record(_ key: RecordKey, of book: SchedulingBook) throws -> BookCommit.Write {
    guard let body = try BookRecords.records(of: book)[key] else { throw BookStorageConformanceFailure(check: "", message: "the book has no record \(key)") }
    return BookCommit.Write(key: key, body: body)
}

/// An owed message as a booking makes one (the invitation to m0's place).
private func message(_ id: String, commit: String) throws -> OwedMessage {
    var book = try ConformanceGym.book(members: 1)
    let told = try book.telling(now: ConformanceGym.now) { book in
        try book.book(member: "m0", classID: "yoga", on: try ConformanceGym.date, now: ConformanceGym.now)
    }
    guard let notice = told.notices.notices.first else { throw BookStorageConformanceFailure(check: "", message: "a booking owed no message") }
    return OwedMessage(id: id, commitID: commit, notice: notice, gym: nil, madeAt: ConformanceGym.now, timeZone: "Europe/Madrid")
}
