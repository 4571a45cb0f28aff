import Foundation

// An app's own backend that keeps a book's records and nothing else
// (issue 40, 6): a `BookStorage` alone, made into the `CalendarDatabase`
// that `CalendarStore` and `SchedulingStore` work on. Its calendar is the
// book's own — classes as events, sessions, members' records — composed
// from the records at each read; a change that would keep anything the
// book does not (an event, a task, a calendar's name) is refused with
// `CalendarStoreError.Code.recordsOnly`, never dropped.

/// A ``CalendarDatabase`` on a ``BookStorage`` that keeps a book's records
/// and no calendar text: how an app's own backend — a REST API, a
/// document database — that stores records and owed messages works with
/// ``CalendarStore`` and `SchedulingStore`, with the same guarantees as
/// SQLite and PostgreSQL.
///
/// The calendar it gives is the one the book makes: its classes as events,
/// its sessions, its people's records, on the book's zone. Every scheduling
/// change commits records alone. A change of the calendar that would keep
/// something the book does not hold — an event or a task of its own, a
/// calendar property such as its name or colour, a component another
/// program added — is refused with ``CalendarStoreError/Code/recordsOnly``
/// and nothing is written: keep such a calendar in a store that holds
/// calendar text (SQLite, PostgreSQL, a file).
///
/// ```swift
/// let storage = MemoryBookStorage()   // your backend's BookStorage
/// let store = CalendarStore(.server(URL(string: "https://api.example.com/gym")!), database: RecordsOnlyDatabase(storage))
/// print(try await store.load().calendar.items.count)
/// ```
public struct RecordsOnlyDatabase<Storage: BookStorage>: CalendarDatabase, KeepsRecordsOnly {
    /// The storage that keeps the records.
    public let storage: Storage

    /// A database on a storage that keeps records only.
    /// - Parameter storage: the records' storage.
    public init(_ storage: Storage) {
        self.storage = storage
    }

    /// Every record, with the store's revision.
    public func load() async throws -> BookSnapshot { try await storage.load() }

    /// The records under `keys`, with the store's revision.
    public func load(_ keys: Set<RecordKey>) async throws -> BookSnapshot { try await storage.load(keys) }

    /// Makes a commit on the storage.
    public func commit(_ commit: BookCommit) async throws -> Bool { try await storage.commit(commit) }

    /// Whether the commit `commitID` was made.
    public func hasCommitted(_ commitID: String) async throws -> Bool { try await storage.hasCommitted(commitID) }

    /// The messages still owed, oldest first.
    public func owedMessages() async throws -> [OwedMessage] { try await storage.owedMessages() }

    /// Marks messages delivered.
    public func markDelivered(_ messageIDs: [String]) async throws { try await storage.markDelivered(messageIDs) }

    /// The records, with no calendar text: the calendar is the book's own.
    public func loadCalendar() async throws -> StoredCalendar {
        StoredCalendar(snapshot: try await storage.load(), text: nil)
    }

    /// ``loadCalendar()``: the records are the whole calendar, and every window holds them.
    public func loadCalendar(touchingFrom start: Int64, to end: Int64) async throws -> StoredCalendar {
        try await loadCalendar()
    }

    /// Makes a commit of records alone; a calendar text is refused, since
    /// this storage has no place for it (``CalendarStore`` never passes one,
    /// and refuses the change that would need one).
    /// - Throws: ``CalendarStoreError`` `.recordsOnly` when `calendar` is not `nil`; nothing is written.
    public func commit(_ commit: BookCommit, calendar: CalendarText?) async throws -> Bool {
        guard calendar == nil else {
            throw CalendarStoreError(.recordsOnly, "this storage keeps a book's records only, not a calendar's text; nothing was changed",
                                     suggestion: "keep the calendar in a store that holds calendar text (SQLite, PostgreSQL, a file)")
        }
        return try await storage.commit(commit)
    }
}

/// A database whose calendar is its book's alone (``RecordsOnlyDatabase``):
/// `CalendarStore` passes it no calendar text, refuses a change that would
/// need some, and `SchedulingStore` commits records on it from the first change.
protocol KeepsRecordsOnly {}
