#if PostgreSQL
import CalendarCore
import CalendarStore
import Foundation
import Logging
import NIOSSL
import PostgresNIO

/// A `BookStorage` in a PostgreSQL database, through
/// PostgresNIO: for a gym whose desks are many machines. It is a
/// `CalendarDatabase` too: the calendar the book is shown in lives beside
/// the records, so `CalendarStore` and `SchedulingStore` work on it as on
/// an SQLite file (`horari … --calendar postgres://…`).
///
/// The tables live in a schema of their own (`horari` unless you name
/// another), beside the app's own tables. A commit is one transaction that
/// locks the store's revision row (`SELECT … FOR UPDATE`), checks it, writes
/// the records, the owed messages and the commit's ID, and raises the
/// revision: desks on any number of machines take turns there, so the
/// compare-and-set of `BookStorage` holds across machines,
/// and a connection lost mid-transaction writes nothing. Reads are one
/// statement each, so they see one consistent snapshot.
///
/// The schema is versioned (`schema_version`, made under an advisory lock
/// so that desks starting together make it once); a database a newer
/// Horari wrote is refused, not changed.
///
/// The storage does not own the connection pool: an app that runs a
/// `PostgresClient` (under swift-service-lifecycle, say) hands it over;
/// ``withStorage(url:schema:_:)`` makes and runs one for a single job.
///
/// ```swift
/// try await PostgresBookStorage.withStorage(url: "postgres://gym@127.0.0.1:5432/gym") { storage in
///     let gym = BookStore(storage, newBookZone: "Europe/Madrid")
///     print(try await gym.load().members.count)
/// }
/// ```
///
/// This module is empty unless the package's `PostgreSQL` trait is on (it is
/// by default): an app that does not depend on this product builds none of
/// SwiftNIO either way.
public struct PostgresBookStorage: CalendarDatabase {
    /// The connection pool; it must be running (`client.run()`) while the storage is used.
    public let client: PostgresClient
    /// The PostgreSQL schema that holds the tables.
    public let schema: String
    /// Where the storage is, for messages: never with a password.
    public let place: String
    /// The schema's name as SQL writes it (quoted: `user` or `order` is a name, not a keyword).
    private var quoted: String { "\"\(schema)\"" }

    /// How long one call waits for the server (a connection, a lock another
    /// desk holds, a statement) before it gives up: the server's own
    /// `lock_timeout` and `statement_timeout` inside each transaction, and a
    /// deadline 5 s later around every call (a pool whose server went away
    /// waits for a connection as long as it is asked to).
    public var waitingAtMost: Duration = .seconds(30)

    private let logger = Logger(label: "horari.postgres")

    /// The schema version this Horari writes: the number of ``migrations``.
    static var schemaVersion: Int { migrations.count }

    /// Opens the book in `schema` of the database `client` connects to,
    /// making its tables when there are none.
    /// - Parameters:
    ///   - client: a pool that runs while the storage is used.
    ///   - schema: the PostgreSQL schema for the tables: a lowercase identifier (letters, digits, `_`); default `horari`.
    ///   - place: how to name the database in messages (no password); default the schema's name.
    ///   - waitingAtMost: how long one call waits for the server, opening included (``waitingAtMost``); default 30 s.
    /// - Throws: `CalendarStoreError`: `.invalidLocation` for a schema name
    ///   that is not an identifier, `.notADatabase` for a schema of another
    ///   program's tables, `.newerSchema` for one a newer Horari made,
    ///   `.unauthorized` for a login the server refuses, `.transport` for a
    ///   server that cannot be reached.
    public static func open(client: PostgresClient, schema: String = "horari", place: String? = nil,
                            waitingAtMost: Duration = .seconds(30)) async throws(CalendarStoreError) -> PostgresBookStorage {
        guard let first = schema.unicodeScalars.first, ("a"..."z").contains(first) || first == "_",
              schema.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_" }), schema.count <= 63,
              !schema.hasPrefix("pg_"), !["public", "information_schema"].contains(schema) else {
            throw CalendarStoreError(.invalidLocation, "‘\(schema)’ is not a PostgreSQL schema name Horari keeps a book in; nothing was changed",
                                     suggestion: "give lowercase letters, digits and _, starting with a letter or _ (not pg_…, and not public: the book's schema is its own)")
        }
        var storage = PostgresBookStorage(client: client, schema: schema, place: place ?? "PostgreSQL schema \(schema)")
        storage.waitingAtMost = waitingAtMost
        try await storage.prepareSchema()
        return storage
    }

    private init(client: PostgresClient, schema: String, place: String) {
        self.client = client
        self.schema = schema
        self.place = place
    }

    /// Makes a pool for `url`, runs it, opens the storage, and gives it to
    /// `body`, on the caller's actor; the pool stops when `body` returns or throws.
    /// - Parameters:
    ///   - url: `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE`, with
    ///     `?sslmode=disable`, `prefer`, `require` or `verify-full`, as libpq reads them (default: `disable` on
    ///     a loopback host, `prefer` elsewhere).
    ///   - schema: the PostgreSQL schema for the tables; default `horari`.
    ///   - body: the work, given the storage.
    /// - Returns: what `body` returned.
    /// - Throws: what ``open(client:schema:place:waitingAtMost:)`` and
    ///   ``Location/init(url:)`` throw, and what `body` throws.
    nonisolated(nonsending) public static func withStorage<T>(url: String, schema: String = "horari",
                                                              _ body: (PostgresBookStorage) async throws -> T) async throws -> T {
        let location = try Location(url: url)
        try await location.probe()
        let client = PostgresClient(configuration: try location.configuration())
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            defer { group.cancelAll() }
            let storage = try await open(client: client, schema: schema, place: location.description)
            return try await body(storage)
        }
    }

    /// Makes a pool for `url`, starts it in a task of its own, and opens the
    /// storage: for a program that uses one database for the rest of its run
    /// (a command-line tool), where ``withStorage(url:schema:_:)``'s scope
    /// does not fit. Cancel `running` (and await it) to close the pool.
    ///
    /// ```swift
    /// let (storage, running) = try await PostgresBookStorage.connect(url: "postgres://desk@127.0.0.1/gym")
    /// defer { running.cancel() }
    /// let store = CalendarStore(try CalendarLocation("postgres://desk@127.0.0.1/gym"), database: storage)
    /// ```
    /// - Parameters:
    ///   - url: as ``withStorage(url:schema:_:)`` takes it.
    ///   - schema: the PostgreSQL schema for the tables; default `horari`.
    /// - Returns: the storage, and the task that runs its pool.
    /// - Throws: what ``Location/init(url:)``, ``Location/probe()`` and ``open(client:schema:place:waitingAtMost:)`` throw;
    ///   the pool is closed then.
    public static func connect(url: String, schema: String = "horari") async throws(CalendarStoreError) -> (storage: PostgresBookStorage, running: Task<Void, Never>) {
        let location = try Location(url: url)
        try await location.probe()
        let client = PostgresClient(configuration: try location.configuration())
        let running = Task { await client.run() }
        do {
            return (try await open(client: client, schema: schema, place: location.description), running)
        } catch {
            running.cancel()
            await running.value
            throw error
        }
    }

    // MARK: - BookStorage

    /// Every record, with the store's revision, read in one statement (one snapshot).
    public func load() async throws -> BookSnapshot {
        try await read(keys: nil)
    }

    /// The records of these keys, with the store's revision, read in one statement by key.
    public func load(_ keys: Set<RecordKey>) async throws -> BookSnapshot {
        try await read(keys: keys)
    }

    private func read(keys: Set<RecordKey>?) async throws(CalendarStoreError) -> BookSnapshot {
        let query: PostgresQuery
        if let keys {
            let sorted = keys.sorted()
            query = """
                SELECT rev.value, r.kind, r.id, r.version, r.body
                FROM \(unescaped: quoted).revision rev
                LEFT JOIN \(unescaped: quoted).record r
                  ON (r.kind, r.id) IN (SELECT * FROM unnest(\(sorted.map(\.kind))::text[], \(sorted.map(\.id))::text[]))
                ORDER BY r.kind COLLATE "C", r.id COLLATE "C"
                """
        } else {
            query = allRecords
        }
        return try await run("read") { try await Self.snapshot(of: try await client.query(query, logger: logger)) }
    }

    /// Every record with the revision, in key order by bytes: one statement, one snapshot.
    private var allRecords: PostgresQuery {
        """
        SELECT rev.value, r.kind, r.id, r.version, r.body
        FROM \(unescaped: quoted).revision rev
        LEFT JOIN \(unescaped: quoted).record r ON true
        ORDER BY r.kind COLLATE "C", r.id COLLATE "C"
        """
    }

    /// The snapshot the rows of a `revision LEFT JOIN record` read make.
    private static func snapshot(of rows: PostgresRowSequence) async throws -> BookSnapshot {
        var revision: Int64 = 0
        var records: [StoredRecord] = []
        for try await (value, kind, id, version, body) in rows.decode((Int64, String?, String?, Int64?, Data?).self) {
            revision = value
            if let kind, let id, let version, let body {
                records.append(StoredRecord(key: RecordKey(kind: kind, id: id), version: version, body: body))
            }
        }
        return BookSnapshot(revision: revision, records: records)
    }

    /// Makes a commit, in one transaction holding the revision row, if the
    /// store is still at its `basedOn`, with the calendar's new text when
    /// `calendar` is given.
    public func commit(_ commit: BookCommit, calendar: CalendarText?) async throws -> Bool {
        let messages: [(id: String, body: Data)]
        do {
            messages = try commit.owed.map { ($0.id, try $0.storedBody()) }
        } catch {
            throw CalendarStoreError(.io, "\(place): an owed message could not be written (\(error)); nothing was changed")
        }
        let quoted = quoted, logger = logger, limits = transactionLimits
        return try await run("write") {
            // A change that lost already is told so at once, not after queueing for the revision row behind
            // the change that won (100 bookings at once: Benchmarks/RESULTS.md). The check that counts is the
            // one below, under the row's lock.
            var seen: Int64?
            for try await value in try await client.query("SELECT value FROM \(unescaped: quoted).revision WHERE one = 1", logger: logger).decode(Int64.self) {
                seen = value
            }
            // (Only a revision past the change's: one behind, from a lagging replica a pooler routed to, is asked again below.)
            if let seen, seen > commit.basedOn { return false }
            return try await client.withTransaction(logger: logger) { connection in
                try await connection.query(limits, logger: logger)
                var current: Int64?
                for try await value in try await connection.query("SELECT value FROM \(unescaped: quoted).revision WHERE one = 1 FOR UPDATE", logger: logger)
                    .decode(Int64.self) { current = value }
                guard current == commit.basedOn else { return false }
                for write in commit.writes {
                    if let body = write.body {
                        try await connection.query("""
                            INSERT INTO \(unescaped: quoted).record (kind, id, version, body) VALUES (\(write.key.kind), \(write.key.id), 1, \(body))
                            ON CONFLICT (kind, id) DO UPDATE SET version = record.version + 1, body = excluded.body
                            """, logger: logger)
                    } else {
                        try await connection.query("DELETE FROM \(unescaped: quoted).record WHERE kind = \(write.key.kind) AND id = \(write.key.id)", logger: logger)
                    }
                }
                for message in messages {
                    try await connection.query("INSERT INTO \(unescaped: quoted).owed_message (id, commit_id, body) VALUES (\(message.id), \(commit.id), \(message.body))",
                                               logger: logger)
                }
                if let calendar {
                    try await connection.query("""
                        INSERT INTO \(unescaped: quoted).calendar_header (one, text) VALUES (1, \(calendar.header))
                        ON CONFLICT (one) DO UPDATE SET text = excluded.text
                        """, logger: logger)
                    try await connection.query("DELETE FROM \(unescaped: quoted).calendar_component", logger: logger)
                    // One statement, however many components: arrays, unnested in order
                    // (PostgresNIO sends no array of optionals, nor of bytes: a UID's absence is a
                    // flag, and the text travels as base64, decoded by the server).
                    let components = calendar.components
                    if !components.isEmpty {
                        try await connection.query("""
                            INSERT INTO \(unescaped: quoted).calendar_component (position, name, uid, text, starts, ends)
                            SELECT position, name, CASE WHEN has_uid THEN uid END, decode(text, 'base64'), starts, ends
                            FROM unnest(\(Array(Int64(0)..<Int64(components.count)))::bigint[], \(components.map(\.name))::text[],
                                        \(components.map { $0.uid != nil })::bool[], \(components.map { $0.uid ?? "" })::text[],
                                        \(components.map { $0.text.base64EncodedString() })::text[],
                                        \(components.map(\.storedReach.starts))::bigint[],
                                        \(components.map(\.storedReach.ends))::bigint[]) AS c (position, name, has_uid, uid, text, starts, ends)
                            """, logger: logger)
                    }
                }
                let next = commit.basedOn + 1
                // The commit's ID and the new revision, in one round trip.
                try await connection.query("""
                    WITH made AS (INSERT INTO \(unescaped: quoted).commit (id, revision) VALUES (\(commit.id), \(next)))
                    UPDATE \(unescaped: quoted).revision SET value = \(next) WHERE one = 1
                    """, logger: logger)
                return true
            }
        }
    }

    /// The book's records and the calendar's text, read in one transaction
    /// (`REPEATABLE READ`: one snapshot for every statement).
    public func loadCalendar() async throws -> StoredCalendar {
        try await loadCalendar(touchingFrom: .min, to: .max)
    }

    /// The book's records, the calendar's own text and the components that
    /// can touch the window, read in one transaction through the index of
    /// their reach (schema version 3).
    public func loadCalendar(touchingFrom start: Int64, to end: Int64) async throws -> StoredCalendar {
        let quoted = quoted, logger = logger, limits = transactionLimits, allRecords = allRecords
        let whole = start == .min && end == .max
        return try await run("read") {
            try await client.withConnection { connection in
                try await connection.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", logger: logger)
                do {
                    try await connection.query(limits, logger: logger)
                    let snapshot = try await Self.snapshot(of: try await connection.query(allRecords, logger: logger))
                    var header: Data?
                    for try await text in try await connection.query("SELECT text FROM \(unescaped: quoted).calendar_header", logger: logger).decode(Data.self) {
                        header = text
                    }
                    var components: [CalendarText.Component] = []
                    var unread: [String] = []
                    if header != nil {
                        for try await (name, uid, text, starts, ends) in try await connection.query(
                            "SELECT name, uid, text, starts, ends FROM \(unescaped: quoted).calendar_component WHERE ends > \(start) AND starts < \(end) ORDER BY position",
                            logger: logger).decode((String, String?, Data, Int64, Int64).self) {
                            components.append(CalendarText.Component(name: name, uid: uid, text: text, storedStarts: starts, storedEnds: ends))
                        }
                        if !whole {
                            for try await uid in try await connection.query(
                                "SELECT uid FROM \(unescaped: quoted).calendar_component WHERE uid IS NOT NULL AND NOT (ends > \(start) AND starts < \(end)) ORDER BY position",
                                logger: logger).decode(String.self) {
                                unread.append(uid)
                            }
                        }
                    }
                    try await connection.query("COMMIT", logger: logger)
                    return StoredCalendar(snapshot: snapshot, text: header.map { CalendarText(header: $0, components: components) }, unreadUIDs: unread)
                } catch {
                    _ = try? await connection.query("ROLLBACK", logger: logger)
                    throw error
                }
            }
        }
    }

    /// Whether a commit with this ID was made.
    public func hasCommitted(_ commitID: String) async throws -> Bool {
        let quoted = quoted, logger = logger, limits = transactionLimits
        return try await run("read") {
            try await client.withTransaction(logger: logger) { connection in
                // A commit still finishing holds the revision row: wait for it, then look.
                try await connection.query(limits, logger: logger)
                try await connection.query("SELECT 1 FROM \(unescaped: quoted).revision WHERE one = 1 FOR SHARE", logger: logger)
                var found = false
                for try await _ in try await connection.query("SELECT 1 FROM \(unescaped: quoted).commit WHERE id = \(commitID)", logger: logger).decode(Int32.self) {
                    found = true
                }
                return found
            }
        }
    }

    /// The messages owed, in commit order.
    public func owedMessages() async throws -> [OwedMessage] {
        let bodies: [Data] = try await run("read") {
            var bodies: [Data] = []
            for try await body in try await client.query(
                "SELECT body FROM \(unescaped: quoted).owed_message WHERE delivered_at IS NULL ORDER BY position", logger: logger).decode(Data.self) {
                bodies.append(body)
            }
            return bodies
        }
        return try OwedMessage.owed(fromStored: bodies, in: place)
    }

    /// Takes delivered messages off the owed list; each stays in
    /// `owed_message` with when it was delivered: what the gym told whom.
    public func markDelivered(_ messageIDs: [String]) async throws {
        guard !messageIDs.isEmpty else { return }
        _ = try await run("write") {
            try await client.query("""
                UPDATE \(unescaped: quoted).owed_message SET delivered_at = now()
                WHERE id = ANY(\(messageIDs)::text[]) AND delivered_at IS NULL
                """, logger: logger)
        }
    }

    /// `SET LOCAL` of the server's own limits for one transaction: a lock
    /// another session holds (a desk idle in a transaction whose network
    /// went, a `psql` left open) and a statement that runs on are given up
    /// by the server within ``waitingAtMost`` (SQLSTATE 55P03, 57014: `.busy`).
    /// PostgresNIO does not stop a statement the server is running when its
    /// task is cancelled, so the server's limit is what ends it.
    private var transactionLimits: PostgresQuery {
        let ms = max(1, Int(waitingAtMost / .milliseconds(1)))
        // A statement's own limit a second past the lock's, so that a held lock says so.
        return "SELECT set_config('lock_timeout', \(String(ms)), true), set_config('statement_timeout', \(String(ms + 1000)), true)"
    }

    // MARK: - The schema

    /// Makes the tables under an advisory lock when the schema has none;
    /// refuses another program's schema and a newer Horari's.
    private func prepareSchema() async throws(CalendarStoreError) {
        let schema = schema, quoted = quoted, logger = logger, place = place, limits = transactionLimits
        try await run("open") {
            try await client.withTransaction(logger: logger) { connection in
                try await connection.query(limits, logger: logger)
                // One desk makes the tables; the others wait here and find them made.
                try await connection.query("SELECT pg_advisory_xact_lock(\(Int64(0x486F_7261_7269)))", logger: logger)
                var tables: [String] = []
                for try await name in try await connection.query(
                    "SELECT table_name::text FROM information_schema.tables WHERE table_schema = \(schema) ORDER BY table_name", logger: logger).decode(String.self) {
                    tables.append(name)
                }
                let ours: Set<String> = ["schema_version", "record", "revision", "commit", "owed_message", "calendar_header", "calendar_component"]
                var version = 0
                if tables.contains("schema_version") {
                    // Read first: a newer Horari's schema may hold tables this one does not know.
                    for try await value in try await connection.query("SELECT version FROM \(unescaped: quoted).schema_version", logger: logger).decode(Int32.self) {
                        version = Int(value)
                    }
                }
                if version > Self.schemaVersion {
                    throw CalendarStoreError(.newerSchema, "\(place) was written by a newer Horari (schema version \(version); this one knows \(Self.schemaVersion)); nothing was changed",
                                             suggestion: "use that version, or a newer one")
                }
                if version == 0 && !tables.isEmpty || !Set(tables).isSubset(of: ours) {
                    throw CalendarStoreError(.notADatabase, "\(place) holds tables of another program (\(tables.prefix(3).joined(separator: ", "))), not a Horari book; nothing was changed",
                                             suggestion: "name another schema for the book")
                }
                guard version < Self.schemaVersion else { return }
                for migration in Self.migrations.dropFirst(version) {
                    for statement in migration(quoted) {
                        try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                    }
                }
                try await connection.query("UPDATE \(unescaped: quoted).schema_version SET version = \(Int32(Self.schemaVersion))", logger: logger)
            }
        }
    }

    /// The schema's migrations, in order, each given the quoted schema name:
    /// version 1 is the book, version 2 the calendar beside it
    /// (`CalendarDatabase`), version 3 each component's reach in time, for
    /// a view's read of its window (an open end the largest integer, no
    /// time the whole line: the defaults, which version 2's rows get until
    /// a change writes them again). Never change one that shipped: add the next.
    static let migrations: [@Sendable (String) -> [String]] = [
        { quoted in [
            "CREATE SCHEMA IF NOT EXISTS \(quoted)",
            "CREATE TABLE \(quoted).schema_version (one integer PRIMARY KEY CHECK (one = 1), version integer NOT NULL)",
            "INSERT INTO \(quoted).schema_version (one, version) VALUES (1, 1)",
            "CREATE TABLE \(quoted).record (kind text NOT NULL, id text NOT NULL, version bigint NOT NULL, body bytea NOT NULL, PRIMARY KEY (kind, id))",
            "CREATE TABLE \(quoted).revision (one integer PRIMARY KEY CHECK (one = 1), value bigint NOT NULL)",
            "INSERT INTO \(quoted).revision (one, value) VALUES (1, 0)",
            "CREATE TABLE \(quoted).commit (id text PRIMARY KEY, revision bigint NOT NULL)",
            """
            CREATE TABLE \(quoted).owed_message (position bigserial PRIMARY KEY, id text NOT NULL UNIQUE, commit_id text NOT NULL,
                body bytea NOT NULL, delivered_at timestamptz)
            """,
            "CREATE INDEX owed_message_undelivered ON \(quoted).owed_message (position) WHERE delivered_at IS NULL",
        ] },
        { quoted in [
            "CREATE TABLE \(quoted).calendar_header (one integer PRIMARY KEY CHECK (one = 1), text bytea NOT NULL)",
            "CREATE TABLE \(quoted).calendar_component (position bigint PRIMARY KEY, name text NOT NULL, uid text, text bytea NOT NULL)",
        ] },
        { quoted in [
            "ALTER TABLE \(quoted).calendar_component ADD COLUMN starts bigint NOT NULL DEFAULT (-9223372036854775807 - 1)",
            "ALTER TABLE \(quoted).calendar_component ADD COLUMN ends bigint NOT NULL DEFAULT 9223372036854775807",
            "CREATE INDEX calendar_component_reach ON \(quoted).calendar_component (ends, starts)",
        ] },
    ]

    // MARK: - Errors

    /// Runs `body` within ``waitingAtMost``, giving what it throws as one
    /// line a person can act on. (A pool whose server went away waits for a
    /// connection as long as it is asked to: the deadline is what ends it.)
    private func run<T: Sendable>(_ doing: String, _ body: @escaping @Sendable () async throws -> T) async throws(CalendarStoreError) -> T {
        // The server's own limits (transactionLimits) end a statement first; this is the backstop.
        return try await Self.within(waitingAtMost + .seconds(5), place: place, doing: doing, body)
    }

    /// `body` within `limit`, its errors as one line each.
    ///
    /// At the limit the caller is answered at once and `body` is cancelled,
    /// but not waited for: a task group would wait for it, and a pool
    /// waiting on a connection a proxy had cut did not heed the
    /// cancellation (the PostgreSQL cut-mid-commit test hung for good under
    /// the full suite's load, its deadline long passed). A `body` that never
    /// ends is left behind, cancelled; the process goes on.
    static func within<T: Sendable>(_ limit: Duration, place: String, doing: String,
                                    _ body: @escaping @Sendable () async throws -> T) async throws(CalendarStoreError) -> T {
        // The first of the body and the timer to end answers; the other finds it answered.
        let answered = Locked(false)
        // Whether this caller is the first to answer (the body or the timer): `true` once.
        @Sendable func claim() -> Bool { answered.withLock { done in defer { done = true }; return !done } }
        let work = Task { try await body() }
        do {
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
                    let timer = Task {
                        // Cancelled (the body answered first), the sleep ends early: that is no timeout.
                        guard (try? await Task.sleep(for: limit)) != nil else { return }
                        if claim() {
                            work.cancel()
                            continuation.resume(throwing: TimedOut())
                        }
                    }
                    Task {
                        let result = await work.result
                        // Claimed before the timer is stopped, so a timer that wakes in between finds it answered.
                        if claim() { continuation.resume(with: result) }
                        timer.cancel()
                    }
                }
            } onCancel: {
                work.cancel()
            }
        } catch is TimedOut {
            // Not `.busy`, which says for certain that nothing was committed: a change may have been.
            throw CalendarStoreError(.transport, "\(place) did not answer within \(limit) (could not \(doing) the book)"
                                     + (doing == "write" ? "; the change was made whole or not at all, and which is not known yet" : "; nothing was changed"),
                                     suggestion: "check that the server runs and is not held by a long transaction")
        } catch {
            throw storeError(error, place: place, doing: doing)
        }
    }

    private struct TimedOut: Error {}

    /// A PostgresNIO error as a `CalendarStoreError`, never with a password.
    static func storeError(_ error: any Error, place: String, doing: String) -> CalendarStoreError {
        if let error = error as? CalendarStoreError { return error }
        if error is CancellationError {
            return CalendarStoreError(.cancelled, doing == "write" ? "cancelled while a change was committed; it was made whole or not at all" : "cancelled; nothing was changed")
        }
        if let error = error as? PostgresTransactionError, let inside = error.closureError ?? error.beginError ?? error.commitError ?? error.rollbackError {
            return storeError(inside, place: place, doing: doing)
        }
        guard let error = error as? PSQLError else {
            return CalendarStoreError(.io, "\(place): could not \(doing) the book (\(error)); nothing was changed")
        }
        let server = error.serverInfo?[.message].map { ": \($0)" } ?? ""
        switch error.code {
        case .server:
            let state = error.serverInfo?[.sqlState] ?? ""
            switch state {
            case "28P01", "28000":
                return CalendarStoreError(.unauthorized, "\(place) refused the login\(server); nothing was changed",
                                          suggestion: "check the user and password (a password goes in the URL, postgres://USER:PASSWORD@HOST/DB; it is never printed)")
            case "3D000":
                return CalendarStoreError(.notFound, "\(place): the database does not exist\(server); nothing was changed", suggestion: "create it (createdb), or name another")
            case "40001", "40P01", "55P03":
                return CalendarStoreError(.busy, "\(place) was held by another session past the deadline\(server); nothing was changed",
                                          suggestion: "try again; a session left open in a transaction holds the book until it ends")
            case "57014":
                return CalendarStoreError(.busy, "\(place) stopped a statement at the deadline\(server); nothing was changed", suggestion: "try again when it is less busy")
            case "53100":
                return CalendarStoreError(.io, "\(place): the server's disk is full\(server); nothing was changed", suggestion: "free space on the server")
            case "25006":
                return CalendarStoreError(.io, "\(place) is read-only\(server); nothing was changed", suggestion: "connect to the primary server")
            default:
                return CalendarStoreError(.io, "\(place) could not \(doing) the book (SQLSTATE \(state)\(server)); nothing was changed")
            }
        case .connectionError where doing == "write", .serverClosedConnection where doing == "write", .uncleanShutdown where doing == "write":
            return CalendarStoreError(.transport, "\(place): the connection was lost while a change was committed; it was made whole or not at all, and which is not known yet",
                                      suggestion: "ask the store (BookStore does, with hasCommitted) before trying again")
        case .connectionError:
            return CalendarStoreError(.transport, "\(place) cannot be reached; nothing was changed", suggestion: "check that the server runs and the host and port are right")
        case .serverClosedConnection, .uncleanShutdown, .clientClosedConnection:
            return CalendarStoreError(.transport, "\(place) closed the connection in the middle (could not \(doing) the book)",
                                      suggestion: "try again once the server is back; a change is made whole or not at all")
        case .poolClosed:
            return CalendarStoreError(.cancelled, "\(place): the connection pool was closed; nothing was changed")
        case .queryCancelled:
            return CalendarStoreError(.cancelled, "cancelled; nothing was changed")
        case .sslUnsupported:
            return CalendarStoreError(.transport, "\(place) does not speak TLS, which the URL requires; nothing was changed", suggestion: "use sslmode=disable on a network you trust")
        case .authMechanismRequiresPassword:
            return CalendarStoreError(.unauthorized, "\(place) asks for a password and none was given; nothing was changed", suggestion: "give the password in the URL")
        default:
            return CalendarStoreError(.io, "\(place) could not \(doing) the book (\(String(describing: error.code))); nothing was changed")
        }
    }
}
#endif
