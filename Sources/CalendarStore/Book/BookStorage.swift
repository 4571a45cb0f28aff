import CalendarScheduling
import Foundation

// The book in a store (issue 40; Docs/Storage.md). The records of a gym's
// book — the gym's own settings, coaches, clients, sessions, members,
// classes, rosters — are kept as versioned records, and every change is one
// commit: the records it writes and the messages it owes, together, or
// nothing. `BookStorage` is the extension point: SQLite
// (`SQLiteBookStorage`), memory (`MemoryBookStorage`) and a calendar's own
// places (`CalendarBookStorage`) ship with the library; an app implements it over its own backend and runs the
// `BookStorageConformance` product against it.

/// The key of one record of a book: its kind and its ID.
///
/// Kinds are `gym` (one record: the book's zone, policies, opening hours and
/// closures), `coach`, `client` (`COACH CLIENT`), `session`, `member`,
/// `class` and `roster` (`CLASS DATE`). IDs hold no white space, so a space
/// joins the parts of a compound ID without ambiguity.
public struct RecordKey: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    /// The kind of record (`member`, `class`, …).
    public var kind: String
    /// Its ID within the kind.
    public var id: String

    /// A record's key.
    /// - Parameters:
    ///   - kind: the kind of record.
    ///   - id: its ID within the kind.
    public init(kind: String, id: String) {
        self.kind = kind
        self.id = id
    }

    /// Ordered by kind, then ID.
    public static func < (a: RecordKey, b: RecordKey) -> Bool { (a.kind, a.id) < (b.kind, b.id) }

    /// `kind:id`.
    public var description: String { "\(kind):\(id)" }
}

/// One record as a store holds it: its key, its version and its body.
public struct StoredRecord: Hashable, Sendable {
    /// Which record.
    public var key: RecordKey
    /// Its version: 1 when first written, one more at each write.
    public var version: Int64
    /// Its content: JSON text, as the book's JSON form writes the record (schema 1).
    public var body: Data

    /// A stored record.
    public init(key: RecordKey, version: Int64, body: Data) {
        self.key = key
        self.version = version
        self.body = body
    }
}

/// Everything a store holds of a book at one revision.
public struct BookSnapshot: Sendable {
    /// The store's revision: 0 for a store nothing was committed to, one
    /// more at each commit.
    public var revision: Int64
    /// Every record, in key order.
    public var records: [StoredRecord]

    /// A snapshot.
    public init(revision: Int64, records: [StoredRecord]) {
        self.revision = revision
        self.records = records
    }
}

/// A message a committed change owes one person, kept by the store until
/// it is delivered.
///
/// Written again from the same values, a message has the same bytes: the
/// same `Message-ID` and iTIP `SEQUENCE`, so a message delivered twice (a
/// crash between sending and marking it sent) is taken once by a mail
/// client and a calendar.
public struct OwedMessage: Hashable, Sendable, Codable {
    /// Its ID, unique in the store.
    public var id: String
    /// The commit that owes it.
    public var commitID: String
    /// What to tell whom.
    public var notice: SchedulingNotice
    /// Who sends it for the gym (a class's messages), when the change said.
    public var gym: SchedulingNotice.Person?
    /// When the change was made: the message's `Date` and `DTSTAMP`.
    public var madeAt: Date
    /// The IANA zone of the book's clocks, which its times are shown on.
    public var timeZone: String

    /// An owed message.
    public init(id: String, commitID: String, notice: SchedulingNotice, gym: SchedulingNotice.Person?, madeAt: Date, timeZone: String) {
        self.id = id
        self.commitID = commitID
        self.notice = notice
        self.gym = gym
        self.madeAt = madeAt
        self.timeZone = timeZone
    }
}

extension OwedMessage {
    /// Its JSON form as the library's stores keep it, keys sorted: the same
    /// message is the same text in SQLite and in PostgreSQL.
    package func storedBody() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(self)
    }

    /// A message read back from the text a store kept.
    package init(storedBody body: Data) throws {
        self = try JSONDecoder().decode(OwedMessage.self, from: body)
    }

    /// The owed messages a store kept, read back in order; one that cannot
    /// be read (a newer Horari's, damaged) is an error that names `place`.
    package static func owed(fromStored bodies: [Data], in place: String) throws(CalendarStoreError) -> [OwedMessage] {
        try bodies.map { body throws(CalendarStoreError) in
            do { return try OwedMessage(storedBody: body) } catch {
                throw CalendarStoreError(.badResponse, "\(place): an owed message cannot be read (\(error)); it stays owed")
            }
        }
    }
}

/// Thrown by a sender given to `BookStore.deliver(_:)` for a message it
/// cannot send now (no sender address, a mail it cannot make): the message
/// stays owed, and delivery goes on with the next.
public struct StaysOwed: Error, Hashable, Sendable, CustomStringConvertible {
    /// Why, for a person.
    public var reason: String
    /// A message left owed, and why.
    public init(_ reason: String) { self.reason = reason }
    /// The reason.
    public var description: String { reason }
}

/// One change of a book, as a store commits it: all of it or none.
public struct BookCommit: Sendable {
    /// A record written (`body`), or removed (`nil`).
    public struct Write: Hashable, Sendable {
        /// Which record.
        public var key: RecordKey
        /// Its new content, or `nil` to remove it.
        public var body: Data?

        /// A write.
        public init(key: RecordKey, body: Data?) {
            self.key = key
            self.body = body
        }
    }

    /// The commit's ID, unique: a store remembers the commits it made, so
    /// that a caller whose answer was lost can ask
    /// (``BookStorage/hasCommitted(_:)``).
    public var id: String
    /// The revision the change was made on: the commit is made only if the
    /// store is still at it.
    public var basedOn: Int64
    /// The records written and removed.
    public var writes: [Write]
    /// The messages the change owes, kept until delivered.
    public var owed: [OwedMessage]

    /// A commit.
    public init(id: String, basedOn: Int64, writes: [Write], owed: [OwedMessage]) {
        self.id = id
        self.basedOn = basedOn
        self.writes = writes
        self.owed = owed
    }
}

/// Where a gym's book lives: versioned records, one atomic commit per
/// change with the messages it owes, compare-and-set on the store's revision.
///
/// This is the extension point for an app's own backend (its REST API, a
/// Firebase project, a table in its own database). The library's
/// ``BookStore`` reads the book, runs a change on it, and commits what
/// changed; a store needs only these five calls, and the guarantees below.
/// Run the `BookStorageConformance` product against an implementation: it
/// checks each of them.
///
/// - **A commit is atomic**: its writes, its owed messages and its ID are
///   kept together, or none of them is.
/// - **Compare-and-set**: ``commit(_:)`` makes a commit only if the store's
///   revision is still ``BookCommit/basedOn``, and then raises it by one;
///   otherwise it writes nothing and returns `false`. (Every change is
///   checked against everything it read, so a rule across records — a
///   class's capacity, a member's weekly limit — holds under any race.)
/// - **Versions**: a record written gets version 1, and one more at each
///   later write; a removed record is gone from ``load()``.
/// - **Commits are remembered**: ``hasCommitted(_:)`` answers for a commit
///   made, so that an answer lost on the way back is not a change made twice.
/// - **Records make a book**: a store may keep the book in a form of its own
///   (``CalendarBookStorage`` keeps it in a calendar's) and refuse a commit
///   whose records would not make one; a store of opaque texts need not.
/// - **Owed messages stay until delivered**: ``owedMessages()`` lists the
///   undelivered ones in the order they were committed;
///   ``markDelivered(_:)`` takes them off, and an ID marked twice, or
///   unknown, is no error.
public protocol BookStorage: Sendable {
    /// Every record, with the store's revision.
    func load() async throws -> BookSnapshot
    /// The records of these keys that the store holds, with the store's
    /// revision, read together: what a change of one class occurrence needs
    /// (``BookStore/changeOccurrence(of:on:members:_:)``). The default reads
    /// every record and keeps these; a store that can read by key should.
    func load(_ keys: Set<RecordKey>) async throws -> BookSnapshot
    /// Makes a commit if the store is still at ``BookCommit/basedOn``.
    ///
    /// Throw a `CalendarStoreError` of code `.busy` only when the commit was
    /// certainly not made (a lock not had in time, before anything was
    /// written): ``BookStore`` then says so at once. For any other error it
    /// asks ``hasCommitted(_:)`` first, since the answer may have been lost
    /// after the commit was made.
    /// - Returns: `true` when made; `false` when the store has moved on (nothing was written).
    func commit(_ commit: BookCommit) async throws -> Bool
    /// Whether a commit with this ID was made.
    func hasCommitted(_ commitID: String) async throws -> Bool
    /// The messages owed and not yet delivered, in commit order.
    func owedMessages() async throws -> [OwedMessage]
    /// Takes delivered messages off the owed list.
    func markDelivered(_ messageIDs: [String]) async throws
}

extension BookStorage {
    /// Every record, kept to these keys.
    public func load(_ keys: Set<RecordKey>) async throws -> BookSnapshot {
        let all = try await load()
        return BookSnapshot(revision: all.revision, records: all.records.filter { keys.contains($0.key) })
    }
}
