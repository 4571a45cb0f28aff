import CalendarCore
import CalendarScheduling
import Foundation
import SchedulingICalendar

// Changes that return the messages they owe people (issue 32): the same
// changes as `change(_:)` and `changeOccurrence(of:on:members:_:)`, whose
// notices are found on the book the change was made on (the whole book, or
// the records of one occurrence) and whose raised SEQUENCEs are written
// with it, in the same write. The store keeps those messages owed, in the
// same commit or save as the change (Docs/Storage.md), until `deliver(_:)`
// hands each to a sender: a crash between the change and the e-mail loses
// none, on any store.

extension SchedulingStore {
    /// ``change(_:)``, returning the messages the change owes
    /// (`SchedulingBook.recordNotices(since:now:)`) and keeping them owed,
    /// with the change, until ``deliver(_:)`` sends them (each written with
    /// `SchedulingNotice.email(timeZone:gym:date:)`, say).
    ///
    /// ```swift
    /// let told = try await store.changeTelling { book in
    ///     try book.setStatus(.cancelled, ofSession: "s1", coach: "marc", now: Date())
    /// }
    /// print("\(told.notices.notices.count) to tell")
    /// try await store.deliver { message in /* e-mail message.notice */ }
    /// ```
    ///
    /// From the main actor (a SwiftUI view model), write the closure
    /// `{ @Sendable book in … }`: the store's calls run off the caller's
    /// actor, and an unmarked closure formed there belongs to it.
    /// - Parameters:
    ///   - gym: who sends a class's messages, kept with the messages, which the store keeps owed until delivered;
    ///     `nil` for the address the book keeps (`SchedulingBook.gymAddress`).
    ///   - body: the change; it may run more than once (see ``change(_:)``).
    /// - Returns: what `body` returned, the notices, the book's clocks.
    public func changeTelling<T: Sendable>(gym: SchedulingNotice.Person? = nil, _ body: (inout SchedulingBook) throws -> T) async throws(SchedulingStoreError) -> Told<T> {
        try await changeOwing(gym: gym) { book in try book.telling(now: try settings.now(book.timeZone.identifier), body) }
    }

    /// ``changeOccurrence(of:on:members:_:)``, returning the messages the change owes.
    /// - Parameters:
    ///   - classID: the class.
    ///   - date: the occurrence's date by the series.
    ///   - members: the members `body` needs besides those on the roster.
    ///   - gym: who sends a class's messages, kept with the messages, which the store keeps owed until delivered;
    ///     `nil` for the address the book keeps (`SchedulingBook.gymAddress`).
    ///   - body: the change.
    /// - Returns: what `body` returned, the notices, the book's clocks.
    public func changeOccurrenceTelling<T: Sendable>(of classID: String, on date: LocalDate, members: [String] = [], gym: SchedulingNotice.Person? = nil,
                                                     _ body: (inout SchedulingBook) throws -> T) async throws(SchedulingStoreError) -> Told<T> {
        try await changeOwing(gym: gym, scope: .occurrence(classID: classID, date: date, members: members)) { book in
            try book.telling(now: try settings.now(book.timeZone.identifier), body)
        }
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
    ///   - gym: who sends the gym's messages (a class's answer names them as organizer);
    ///     `nil` for the address the book keeps (`SchedulingBook.gymAddress`).
    /// - Returns: what the answer did, and the messages it owes.
    /// - Throws: ``SchedulingStoreError``: `.failed` with a `ReplyError` for an
    ///   answer the book refuses; nothing is changed.
    public func apply(_ reply: SchedulingReply, gym: SchedulingNotice.Person?) async throws(SchedulingStoreError) -> Told<ReplyOutcome> {
        try await changeOwing(gym: gym) { book in try book.applyTelling(reply, gym: gym, now: try settings.now(book.timeZone.identifier)) }
    }
}

extension SchedulingStore {
    /// A change whose messages are kept with it (Docs/Storage.md): the
    /// change and what it owes land together or not at all, and stay owed
    /// until delivered (``owedMessages()``, ``deliver(_:)``). In a database,
    /// in one commit (`BookStore`); in a calendar, in the same save, as
    /// journals of the calendar's own; a change of one occurrence is then
    /// made on the whole calendar, which those journals are written into.
    private func changeOwing<T: Sendable>(gym: SchedulingNotice.Person? = nil, scope: BookStore<SomeCalendarDatabase>.Scope = .whole,
                                          _ body: (inout SchedulingBook) throws -> Told<T>) async throws(SchedulingStoreError) -> Told<T> {
        try await turns.run { () async throws(SchedulingStoreError) in
            if store.isDatabase {
                do throws(SchedulingStoreError) {
                    return try await changeInDatabase(scope: scope, body, owing: owing(gym: gym))
                } catch where Self.mayBeInAPart(error) {
                    if case .whole = scope { throw error }
                    return try await changeInDatabase(scope: .whole, body, owing: owing(gym: gym))
                }
            }
            return try await changeWhole(body, owing: owing(gym: gym))
        }
    }

    /// The messages changes owe and nobody has delivered, oldest first,
    /// wherever the book lives: a database's, or the journals a calendar
    /// keeps them in.
    public func owedMessages() async throws(SchedulingStoreError) -> [OwedMessage] {
        guard store.isDatabase else { return try await turns.run { () async throws(SchedulingStoreError) in try await owedInCalendar() } }
        guard let storage = try openedDatabase() else { return [] }
        do { return try await storage.owedMessages() } catch { throw BookStore<SomeCalendarDatabase>.storageFailure(error) }
    }

    /// Delivers what is owed with `send`, one message at a time, marking
    /// each delivered once `send` returns (`BookStore.deliver(_:)`; in a
    /// calendar, its journal is removed). A `send` that throws ``StaysOwed``
    /// leaves its message owed and goes on with the next.
    /// - Returns: how many were delivered.
    @discardableResult
    nonisolated(nonsending) public func deliver(_ send: (OwedMessage) async throws -> Void) async throws(SchedulingStoreError) -> Int {
        guard store.isDatabase else { return try await deliverFromCalendar(send) }
        guard let storage = try openedDatabase() else { return 0 }
        return try await BookStore(storage).deliver(send)
    }
}
