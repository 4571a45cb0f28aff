import CalendarCore
import CalendarScheduling
import Foundation

// The changes a store makes on one class's occurrence: each one call of the
// book's own (whose documentation says what it checks), made on the records
// it touches (the class's, and its roster's members) rather than the whole
// book, so that it costs the same in a gym of ten members as in one of ten
// thousand. Every other change is `change { book in … }`, one call of the
// book's; there is one place for each verb (issue 43, 3). "Now" is the
// store's clock (`Settings.now`).

extension SchedulingStore {
    /// The request's time on this store's clock (``Settings/now``), on the
    /// book's zone: what a change passes as `now:`, so that a store made
    /// with a fixed clock (a test, a script) changes the book as of then.
    ///
    /// ```swift
    /// try await gym.change { book in try book.close(closure, now: try gym.now(for: book)) }
    /// ```
    /// - Parameter book: the book being changed.
    public func now(for book: SchedulingBook) throws -> Date { try settings.now(book.timeZone.identifier) }

    /// Cancels one occurrence of a class; the bookings it removes, for the
    /// members to be told (`SchedulingBook.cancelOccurrence(classID:on:)`).
    public func cancelOccurrence(classID: String, on date: LocalDate) async throws(SchedulingStoreError) -> AffectedBookings {
        try await changeOccurrence(of: classID, on: date) { book in try book.cancelOccurrence(classID: classID, on: date) }
    }

    /// Moves one occurrence of a class to another wall time on the book's
    /// clock; its bookings go with it (`SchedulingBook.moveOccurrence(classID:on:to:duration:)`).
    public func moveOccurrence(classID: String, on date: LocalDate, to start: LocalDateTime,
                               duration: Duration? = nil) async throws(SchedulingStoreError) -> ClassOccurrence {
        try await changeOccurrence(of: classID, on: date) { book in try book.moveOccurrence(classID: classID, on: date, to: start, duration: duration) }
    }

    // MARK: - Bookings

    /// Books a member a place in one dated occurrence of a class, or a
    /// place on its waitlist when it is full and `whenFull` says so
    /// (`SchedulingBook.book(member:classID:on:now:whenFull:)`). When this
    /// returns, the calendar holds the booking: on a server, its answer
    /// said so.
    public func book(member: String, classID: String, on date: LocalDate,
                     whenFull: WhenFull = .refuse) async throws(SchedulingStoreError) -> BookingOutcome {
        try await changeOccurrence(of: classID, on: date, members: [member]) { book in
            try book.book(member: member, classID: classID, on: date, now: try now(for: book), whenFull: whenFull)
        }
    }

    /// Gives up a member's place, or place on the waitlist; the first
    /// waiting moves up (`SchedulingBook.cancelBooking(member:classID:on:now:)`).
    public func cancelBooking(member: String, classID: String, on date: LocalDate) async throws(SchedulingStoreError) -> Cancellation {
        try await changeOccurrence(of: classID, on: date, members: [member]) { book in
            try book.cancelBooking(member: member, classID: classID, on: date, now: try now(for: book))
        }
    }
}
