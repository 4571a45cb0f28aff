import CalendarCore
import CalendarScheduling
import Foundation

/// A gym's scheduling book kept in a ``BookStorage``: SQLite
/// (``SQLiteBookStorage``), memory (``MemoryBookStorage``), or an app's own
/// backend.
///
/// Every change reads the book, runs on it, and commits the records it
/// changed and the messages it owes in one commit, made only if no other
/// change was committed since the read; otherwise it runs again on the book
/// as it is then. So a class's capacity and a member's weekly limit hold
/// whatever the desks, processes or machines racing, and a message is owed
/// exactly when its change landed.
///
/// ```swift
/// let gym = BookStore(try SQLiteBookStorage(path: "gym.sqlite"), newBookZone: "Europe/Madrid")
/// let monday = try LocalDate(year: 2026, month: 11, day: 30)
/// let told = try await gym.changeTelling(gym: nil) { book in
///     try book.book(member: "marta", classID: "yoga", on: monday, now: Date())
/// }
/// print(told.notices.notices.count, "messages owed")
/// let sent = try await gym.deliver { message in print("to", message.notice.recipient.email) }
/// ```
public struct BookStore<Storage: BookStorage>: Sendable {
    /// Where the book lives.
    public let storage: Storage
    /// The zone a book is made on when the store holds none yet.
    public let newBookZone: String
    /// The time of a change, given the book's zone: what is past, and each owed message's date.
    public let now: @Sendable (_ bookZone: String) throws -> Date
    /// How many times a change runs again after losing a race before it gives up.
    public let attempts: Int

    /// A book store.
    /// - Parameters:
    ///   - storage: where the book lives.
    ///   - newBookZone: the IANA zone of a new book; default the system's.
    ///   - attempts: how many times a change is tried when others keep committing first; default 200.
    ///   - now: the time of a change; default the system clock.
    public init(_ storage: Storage, newBookZone: String? = nil, attempts: Int = 200,
                now: @escaping @Sendable (_ bookZone: String) throws -> Date = { _ in Date() }) {
        self.storage = storage
        self.newBookZone = newBookZone ?? TimeZone.current.identifier
        self.attempts = max(1, attempts)
        self.now = now
    }

    /// The book as the store holds it now (an empty book on ``newBookZone``
    /// when it holds none).
    /// - Throws: ``SchedulingStoreError``: `.store` when the storage fails
    ///   or its records do not make a book.
    public func load() async throws(SchedulingStoreError) -> SchedulingBook {
        let snapshot = try await snapshot()
        return try read(snapshot)
    }

    /// Changes the book with `body` and commits what changed, as one
    /// commit; a refusal (anything `body` throws) commits nothing.
    ///
    /// `body` runs again, on the book as it is then, when another change
    /// was committed between the read and the commit: it must change
    /// nothing but the book.
    /// - Parameter body: the change.
    /// - Returns: what `body` returned.
    /// - Throws: ``SchedulingStoreError``: `.refused` for a `SchedulingError`
    ///   from `body`, `.failed` for anything else it throws, `.store` when
    ///   the storage fails (its error, or any other in a `CalendarStoreError`
    ///   `.io`) or the change lost ``attempts`` races in a row.
    nonisolated(nonsending) public func change<T: Sendable>(_ body: (inout SchedulingBook) throws -> T) async throws(SchedulingStoreError) -> T {
        try await commit(.whole) { book, _ throws -> (T, [OwedMessage]) in (try body(&book), []) }
    }

    /// ``change(_:)``, committing with it the messages it owes people
    /// (`SchedulingBook.telling(now:_:)`), to be delivered with
    /// ``deliver(_:)``: a crash at any moment loses none, and none is owed
    /// for a change that was not committed.
    /// - Parameters:
    ///   - gym: who sends a class's messages.
    ///   - body: the change.
    /// - Returns: what `body` returned, the notices, the book's clocks.
    nonisolated(nonsending) public func changeTelling<T: Sendable>(gym: SchedulingNotice.Person?, _ body: (inout SchedulingBook) throws -> T) async throws(SchedulingStoreError) -> Told<T> {
        try await commit(.whole) { book, commitID throws -> (Told<T>, [OwedMessage]) in try telling(gym: gym, &book, commitID, body) }
    }

    /// ``changeOccurrence(of:on:members:_:)``, committing with it the
    /// messages it owes people, as ``changeTelling(gym:_:)`` does: a booking
    /// or a cancellation that tells the member, reading and writing only
    /// the occurrence's records.
    /// - Parameters:
    ///   - classID: the class.
    ///   - date: the occurrence's date by the series.
    ///   - members: the members `body` needs besides those on the roster.
    ///   - gym: who sends a class's messages.
    ///   - body: the change.
    /// - Returns: what `body` returned, the notices, the book's clocks.
    nonisolated(nonsending) public func changeOccurrenceTelling<T: Sendable>(of classID: String, on date: LocalDate, members: [String] = [],
                                                                             gym: SchedulingNotice.Person?,
                                                                             _ body: (inout SchedulingBook) throws -> T) async throws(SchedulingStoreError) -> Told<T> {
        try await commit(.occurrence(classID: classID, date: date, members: members)) { book, commitID throws -> (Told<T>, [OwedMessage]) in
            try telling(gym: gym, &book, commitID, body)
        }
    }

    /// Runs `body` telling (`SchedulingBook.telling(now:_:)`), and the messages its notices owe.
    private func telling<T>(gym: SchedulingNotice.Person?, _ book: inout SchedulingBook, _ commitID: String,
                            _ body: (inout SchedulingBook) throws -> T) throws -> (Told<T>, [OwedMessage]) {
        let made = try now(book.timeZone.identifier)
        let told = try book.telling(now: made, body)
        let owed = told.notices.notices.enumerated().map { i, notice in
            OwedMessage(id: "\(commitID)-\(i + 1)", commitID: commitID, notice: notice, gym: gym ?? told.gym, madeAt: made, timeZone: book.timeZone.identifier)
        }
        return (told, owed)
    }

    /// Changes one occurrence of a class — its roster, its time, whether it
    /// meets — reading and writing only the records it touches: the gym's
    /// own, the class, the occurrence's roster (and its neighbours'), and
    /// the members on them and in `members`. A booking so costs the same in
    /// a book of twenty years as in one of a week. When those records
    /// cannot stand alone (a weekly limit counts the member's other
    /// classes; no such class), it is a change of the whole book, as
    /// ``change(_:)``.
    ///
    /// The book `body` gets holds just those records: it must read and
    /// change nothing else.
    /// - Parameters:
    ///   - classID: the class.
    ///   - date: the occurrence's date by the series (its identity, even if moved).
    ///   - members: the members `body` needs besides those on the roster.
    ///   - body: the change.
    /// - Returns: what `body` returned.
    nonisolated(nonsending) public func changeOccurrence<T: Sendable>(of classID: String, on date: LocalDate, members: [String] = [],
                                                                      _ body: (inout SchedulingBook) throws -> T) async throws(SchedulingStoreError) -> T {
        try await commit(.occurrence(classID: classID, date: date, members: members)) { book, _ throws -> (T, [OwedMessage]) in (try body(&book), []) }
    }

    /// The messages owed and not yet delivered, oldest first.
    public func owed() async throws(SchedulingStoreError) -> [OwedMessage] {
        do { return try await storage.owedMessages() } catch { throw Self.storageFailure(error) }
    }

    /// Delivers every owed message with `send`, one at a time, marking each
    /// delivered once `send` returns. A message `send` throws for stays
    /// owed, and delivery stops there with the error: the next call starts
    /// from it; one it throws ``StaysOwed`` for stays owed, and delivery
    /// goes on with the next. Delivery is at least once: a crash after `send` and before
    /// the mark sends that message again, with the same bytes
    /// (``OwedMessage``), which mail clients and calendars take once. Run
    /// one deliverer at a time: two at once both send what is owed.
    /// - Parameter send: delivers one message (writes its `.eml`, hands it to a mailer).
    /// - Returns: how many were delivered.
    @discardableResult
    nonisolated(nonsending) public func deliver(_ send: (OwedMessage) async throws -> Void) async throws(SchedulingStoreError) -> Int {
        let storage = storage
        return try await Self.deliver(try await owed(), send: send) { id in try await storage.markDelivered([id]) }
    }

    /// The delivery loop every store shares (a database's here, a
    /// calendar's in `SchedulingStore`): each message sent, then marked
    /// with `mark`; ``StaysOwed`` skips one, any other error stops there.
    nonisolated(nonsending) static func deliver(_ owed: [OwedMessage], send: (OwedMessage) async throws -> Void,
                                                mark: (String) async throws -> Void) async throws(SchedulingStoreError) -> Int {
        var delivered = 0
        for message in owed {
            do { try await send(message) } catch is StaysOwed { continue } catch { throw .from(error) }
            do { try await mark(message.id) } catch {
                let inner = (error as? CalendarStoreError) ?? { if case .store(let e) = error as? SchedulingStoreError { return e }; return nil }()
                throw .store(CalendarStoreError(inner?.code ?? .io,
                                                "message \(message.id) was delivered, and could not be marked so (\(inner?.message ?? describe(error))); it stays owed and will be delivered again, with the same bytes"))
            }
            delivered += 1
        }
        return delivered
    }

    // MARK: - Inside

    private func snapshot() async throws(SchedulingStoreError) -> BookSnapshot {
        do { return try await storage.load() } catch { throw Self.storageFailure(error) }
    }

    /// What a storage call threw, as the store's failure: its own
    /// `CalendarStoreError`, else the error (an app backend's `URLError`, say) in one.
    static func storageFailure(_ error: any Error) -> SchedulingStoreError {
        if let error = error as? CalendarStoreError { return .store(error) }
        // A calendar's storage says what keeps its book from being read as the scheduling store does.
        if let error = error as? SchedulingStoreError { return error }
        if error is CancellationError { return .store(CalendarStoreError(.cancelled, "cancelled; nothing was changed")) }
        return .store(CalendarStoreError(.io, "the book's store failed (\(describe(error))); nothing was changed"))
    }

    /// After a commit threw `error`: `nil` when the store says it was made
    /// all the same (its answer was lost on the way back), else the failure
    /// to report. A cancellation before it was sent and a lock not had in
    /// time (`.busy`, `BookStorage.commit`'s contract) are certainly not
    /// made and not asked about; anything else is asked
    /// (``BookStorage/hasCommitted(_:)``) before it is said not to be made.
    /// Shared by every change that commits: this store's and the database calendar's.
    static func settle(_ error: any Error, commitID: String, in storage: some BookStorage) async -> CalendarStoreError? {
        // Cancelled before it was sent (GRDB checks first): nothing was written.
        if error is CancellationError { return CalendarStoreError(.cancelled, "cancelled; nothing was changed") }
        if let error = error as? CalendarStoreError, error.code == .busy { return error }
        guard let landed = await askHasCommitted(commitID, in: storage) else {
            return CalendarStoreError(.transport, "the store did not answer whether the change was made (\(describe(error))); look before trying again")
        }
        if landed { return nil }
        if let error = error as? CalendarStoreError { return notMade(error) }
        return CalendarStoreError(.io, "the book's store failed (\(describe(error))); nothing was changed")
    }

    /// ``BookStorage/hasCommitted(_:)``, asked up to three times (after
    /// 0.25 s and 1 s): right after a connection is lost, a pool may hand
    /// the question to the connection that is going, and it fails too (a
    /// PostgreSQL desk cut mid-commit was told "not known" about one run in
    /// three on a loaded machine). `nil` when no answer came.
    private static func askHasCommitted(_ commitID: String, in storage: some BookStorage) async -> Bool? {
        for pause in [0, 250, 1000] {
            if pause > 0 {
                do { try await Task.sleep(for: .milliseconds(pause)) } catch { return nil }
            }
            if let landed = try? await storage.hasCommitted(commitID) { return landed }
        }
        return nil
    }

    /// A commit that failed, which the store then said it did not make
    /// (``BookStorage/hasCommitted(_:)``): the error's code, and a message
    /// that says so, whatever the error guessed (a connection lost mid-commit
    /// cannot tell by itself).
    private static func notMade(_ error: CalendarStoreError) -> CalendarStoreError {
        let said = error.message.components(separatedBy: "; ").first ?? error.message
        return CalendarStoreError(error.code, status: error.status, "\(said); the store says the change was not made: nothing was changed", suggestion: "try again")
    }

    private func read(_ snapshot: BookSnapshot) throws(SchedulingStoreError) -> SchedulingBook {
        do { return try BookRecords.book(from: snapshot.records, newZone: newBookZone) } catch {
            throw .store(CalendarStoreError(.badResponse, "the store's records do not make a book (\(Self.describe(error))); nothing was changed"))
        }
    }

    private static func describe(_ error: any Error) -> String {
        if case DecodingError.dataCorrupted(let context) = error { return context.debugDescription }
        return String(describing: error)
    }

    /// After another change came first: a random pause whose bound doubles
    /// at each loss, from 1 ms to 128 ms, so racing desks spread out
    /// instead of all reading again at once.
    static func pause(afterLosing attempt: Int) async {
        try? await Task.sleep(for: .microseconds(Int.random(in: 0...(1000 << min(attempt, 7)))))
    }

    /// What a change reads: the whole book, or the records of one class occurrence.
    enum Scope: Sendable {
        case whole
        case occurrence(classID: String, date: LocalDate, members: [String])
    }

    /// A snapshot of what `scope` needs, with the `gym` record's class
    /// sequences of classes it did not read; `nil` when the change must
    /// read the whole book (no book yet, no such class, a weekly limit that
    /// counts the member's other classes, a roster that kept changing).
    private func read(_ scope: Scope) async throws(SchedulingStoreError) -> (snapshot: BookSnapshot, book: SchedulingBook, aside: [String: Any])? {
        guard case .occurrence(let classID, let date, let members) = scope else {
            let snapshot = try await snapshot()
            return (snapshot, try read(snapshot), [:])
        }
        let rosters = (-1...1).map { RecordKey(kind: "roster", id: "\(classID) \(date.adding(days: $0))") }
        var keys = Set([BookRecords.gymKey, RecordKey(kind: "class", id: classID)] + rosters + members.map { RecordKey(kind: "member", id: $0) })
        for _ in 0..<5 {
            let snapshot: BookSnapshot
            do { snapshot = try await storage.load(keys) } catch { throw Self.storageFailure(error) }
            let held = Set(snapshot.records.map(\.key))
            guard held.contains(BookRecords.gymKey), held.contains(RecordKey(kind: "class", id: classID)) else { return nil }
            // The members on the rosters read: read again with them, until none is missing.
            var named: Set<RecordKey> = []
            for record in snapshot.records where record.key.kind == "roster" {
                guard let roster = try? JSONSerialization.jsonObject(with: record.body) as? [String: Any] else { return nil }
                for field in ["booked", "waiting"] {
                    for case let id as String in roster[field] as? [Any] ?? [] { named.insert(RecordKey(kind: "member", id: id)) }
                }
            }
            guard named.isSubset(of: keys) else {
                keys.formUnion(named)
                continue
            }
            let partial: (book: SchedulingBook, aside: [String: Any])
            do { partial = try BookRecords.partialBook(from: snapshot.records, newZone: newBookZone) } catch { return nil }
            if partial.book.classPolicy?.weeklyLimit != nil { return nil }
            return (snapshot, partial.book, partial.aside)
        }
        return nil
    }

    /// Reads what `scope` needs (the whole book when it must), runs `body`,
    /// commits what changed; again while another commit came first.
    nonisolated(nonsending) func commit<T: Sendable>(_ scope: Scope = .whole,
                                                     _ body: (inout SchedulingBook, _ commitID: String) throws -> (T, [OwedMessage])) async throws(SchedulingStoreError) -> T {
        var scope = scope
        for attempt in 0..<attempts {
            var read = try await read(scope)
            if read == nil { read = try await self.read(.whole) }
            guard let (snapshot, before, aside) = read else { throw .store(CalendarStoreError(.io, "the book could not be read")) }
            var book = before
            let commitID = UUID().uuidString.lowercased()
            let (result, owed): (T, [OwedMessage])
            do { (result, owed) = try body(&book, commitID) } catch { throw .from(error) }
            let records: [RecordKey: Data]
            do { records = try BookRecords.records(of: book, aside: aside) } catch { throw Self.storageFailure(error) }
            let writes = BookRecords.writes(from: snapshot.records, to: records)
            // A change of one occurrence may write its class's rosters and what
            // it read, and remove none of the records others refer to; else
            // it is made again on the whole book.
            if case .occurrence(let classID, _, _) = scope {
                let read = Set(snapshot.records.map(\.key))
                let fits = writes.allSatisfy { write in
                    write.key.kind == "roster" && write.key.id.hasPrefix(classID + " ")
                        || (read.contains(write.key) && (write.body != nil || !["member", "class", "coach", "client"].contains(write.key.kind)))
                }
                if !fits {
                    scope = .whole
                    continue
                }
            }
            if writes.isEmpty, owed.isEmpty { return result }
            let change = BookCommit(id: commitID, basedOn: snapshot.revision, writes: writes, owed: owed)
            let made: Bool
            do {
                made = try await storage.commit(change)
            } catch {
                // A calendar's storage refused (damage, a record the book refuses): said as it is, once the store
                // says the commit was not made.
                if let refused = error as? SchedulingStoreError, await Self.askHasCommitted(commitID, in: storage) == false { throw refused }
                if let failure = await Self.settle(error, commitID: commitID, in: storage) { throw .store(failure) }
                return result
            }
            if made { return result }
            if Task.isCancelled { throw .store(CalendarStoreError(.cancelled, "cancelled while other changes were committed first; nothing was changed")) }
            await Self.pause(afterLosing: attempt)
        }
        throw .store(CalendarStoreError(.conflict, "other changes were committed first \(attempts) times in a row; nothing was changed, try again"))
    }
}
