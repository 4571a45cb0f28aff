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
    /// - Parameter body: the change; it may run more than once (see ``change(_:)``).
    /// - Returns: what `body` returned, the notices, the book's clocks.
    public func changeTelling<T: Sendable>(_ body: (inout SchedulingBook) throws -> T) async throws(SchedulingStoreError) -> Told<T> {
        try await change { book in try book.telling(now: try settings.now(book.timeZone.identifier), body) }
    }

    /// ``changeOccurrence(of:on:members:_:)``, returning the messages the change owes.
    /// - Parameters:
    ///   - classID: the class.
    ///   - date: the occurrence's date by the series.
    ///   - members: the members `body` needs besides those on the roster.
    ///   - body: the change.
    /// - Returns: what `body` returned, the notices, the book's clocks.
    public func changeOccurrenceTelling<T: Sendable>(of classID: String, on date: LocalDate, members: [String] = [],
                                                     _ body: (inout SchedulingBook) throws -> T) async throws(SchedulingStoreError) -> Told<T> {
        try await changeOccurrence(of: classID, on: date, members: members) { book in try book.telling(now: try settings.now(book.timeZone.identifier), body) }
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
        try await change { book in try book.applyTelling(reply, gym: gym, now: try settings.now(book.timeZone.identifier)) }
    }
}
