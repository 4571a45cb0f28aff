import CalendarCore
import CalendarScheduling
import Foundation
import SchedulingICalendar

// Changes that return the messages they owe people (issue 32): the same
// changes as `change(_:)` and `changeOccurrence(of:on:members:_:)`, whose
// notices are found on the book the change was made on (the whole book, or
// the records of one occurrence) and whose raised SEQUENCEs are written
// with it, in the same write.

extension SchedulingStore {
    /// ``change(_:)``, returning the messages the change owes
    /// (`SchedulingBook.recordNotices(since:now:)`); write them with
    /// `SchedulingNotice.email(onClocks:gym:date:)` and send them.
    ///
    /// ```swift
    /// let told = try await store.changeTelling { book in
    ///     try book.setStatus(.cancelled, ofSession: "s1", coach: "marc", now: Date())
    /// }
    /// for notice in told.notices.notices { /* e-mail it */ }
    /// ```
    ///
    /// From the main actor (a SwiftUI view model), write the closure
    /// `{ @Sendable book in … }`: the store's calls run off the caller's
    /// actor, and an unmarked closure formed there belongs to it.
    /// - Parameters:
    ///   - gym: who sends a class's messages, kept with them where they stay owed (a database).
    ///   - body: the change; it may run more than once (see ``change(_:)``).
    /// - Returns: what `body` returned, the notices, the book's clocks.
    public func changeTelling<T: Sendable>(gym: SchedulingNotice.Person? = nil, _ body: (inout SchedulingBook) throws -> T) async throws(SchedulingStoreError) -> Told<T> {
        if store.isDatabase { return try await changeOwing(gym: gym) { book in try book.telling(now: try settings.now(book.timeZone.identifier), body) } }
        return try await change { book in try book.telling(now: try settings.now(book.timeZone.identifier), body) }
    }

    /// ``changeOccurrence(of:on:members:_:)``, returning the messages the change owes.
    /// - Parameters:
    ///   - classID: the class.
    ///   - date: the occurrence's date by the series.
    ///   - members: the members `body` needs besides those on the roster.
    ///   - gym: who sends a class's messages, kept with them where they stay owed (a database).
    ///   - body: the change.
    /// - Returns: what `body` returned, the notices, the book's clocks.
    public func changeOccurrenceTelling<T: Sendable>(of classID: String, on date: LocalDate, members: [String] = [], gym: SchedulingNotice.Person? = nil,
                                                     _ body: (inout SchedulingBook) throws -> T) async throws(SchedulingStoreError) -> Told<T> {
        if store.isDatabase {
            return try await changeOwing(gym: gym, scope: .occurrence(classID: classID, date: date, members: members)) { book in
                try book.telling(now: try settings.now(book.timeZone.identifier), body)
            }
        }
        return try await changeOccurrence(of: classID, on: date, members: members) { book in try book.telling(now: try settings.now(book.timeZone.identifier), body) }
    }
}

extension SchedulingStore {
    /// Applies an answer that came back (`SchedulingBook.applyTelling(_:gym:now:)`)
    /// and returns the messages it owes: a member's decline that frees a
    /// place invites the first on the waitlist. The one who answered is not
    /// sent a cancellation of what they declined themselves.
    ///
    /// ```swift
    /// let reply = try SchedulingReply(reading: ICalendarImporter().importCalendar(from: data).calendar)
    /// let told = try await store.apply(reply, gym: gym)
    /// print(told.result.promoted ?? "no one was waiting")
    /// ```
    /// - Parameters:
    ///   - reply: the answer.
    ///   - gym: who sends the gym's messages (a class's answer names them as organizer).
    /// - Returns: what the answer did, and the messages it owes.
    /// - Throws: ``SchedulingStoreError``: `.failed` with a `ReplyError` for an
    ///   answer the book refuses; nothing is changed.
    public func apply(_ reply: SchedulingReply, gym: SchedulingNotice.Person?) async throws(SchedulingStoreError) -> Told<ReplyOutcome> {
        if store.isDatabase {
            return try await changeOwing(gym: gym) { book in try book.applyTelling(reply, gym: gym, now: try settings.now(book.timeZone.identifier)) }
        }
        return try await change { book in try book.applyTelling(reply, gym: gym, now: try settings.now(book.timeZone.identifier)) }
    }
}

extension SchedulingStore {
    /// A change of a book in a database whose messages are committed with it
    /// (`BookStore`'s guarantee, Docs/Storage.md): the change and what it
    /// owes land together or not at all, and stay owed until delivered
    /// (``owedMessages()``, ``deliver(_:)``).
    private func changeOwing<T: Sendable>(gym: SchedulingNotice.Person? = nil, scope: BookStore<SomeCalendarDatabase>.Scope = .whole,
                                          _ body: (inout SchedulingBook) throws -> Told<T>) async throws(SchedulingStoreError) -> Told<T> {
        try await turns.run { () async throws(SchedulingStoreError) in try await changeInDatabase(scope: scope, body) { told, commitID in
            let made = (try? settings.now(told.timeZone.identifier)) ?? Date()
            return told.notices.notices.enumerated().map { i, notice in
                OwedMessage(id: "\(commitID)-\(i + 1)", commitID: commitID, notice: notice, gym: gym, madeAt: made, timeZone: told.timeZone.identifier)
            }
        } }
    }

    /// The messages changes owe and nobody has delivered, oldest first: on
    /// a database (`CalendarLocation.database`, `.server`); none elsewhere,
    /// where the caller sends what a change returns.
    public func owedMessages() async throws(SchedulingStoreError) -> [OwedMessage] {
        guard let storage = try openedDatabase() else { return [] }
        do { return try await storage.owedMessages() } catch { throw BookStore<SomeCalendarDatabase>.storageFailure(error) }
    }

    /// Delivers what is owed on a database with `send`, one message at a
    /// time, marking each delivered once `send` returns
    /// (`BookStore.deliver(_:)`); none elsewhere.
    /// - Returns: how many were delivered.
    @discardableResult
    nonisolated(nonsending) public func deliver(_ send: (OwedMessage) async throws -> Void) async throws(SchedulingStoreError) -> Int {
        guard let storage = try openedDatabase() else { return 0 }
        return try await BookStore(storage).deliver(send)
    }
}
