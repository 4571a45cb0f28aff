import CalendarCore
import CalendarScheduling
import Foundation

// Every scheduling operation of `horari`, on a store: each one call of the
// book's own (whose documentation says what it checks), made as a change
// of the whole book or, for a class's occurrence, of the records it
// touches. "Now" is the store's clock (`Settings.now`).

extension SchedulingStore {
    /// The request's time, on the book's clock.
    private func now(_ book: SchedulingBook) throws -> Date { try settings.now(book.timeZone.identifier) }

    // MARK: - People

    /// Adds a coach (`SchedulingBook.addCoach(_:)`).
    public func addCoach(_ coach: Coach) async throws(SchedulingStoreError) {
        try await change { book in try book.addCoach(coach) }
    }

    /// Replaces a coach's details (`SchedulingBook.updateCoach(_:)`).
    public func updateCoach(_ coach: Coach) async throws(SchedulingStoreError) {
        try await change { book in try book.updateCoach(coach) }
    }

    /// Removes a coach who has no clients left (`SchedulingBook.removeCoach(_:)`).
    public func removeCoach(_ id: String) async throws(SchedulingStoreError) {
        try await change { book in try book.removeCoach(id) }
    }

    /// Adds a client to their coach (`SchedulingBook.addClient(_:)`).
    public func addClient(_ client: Client) async throws(SchedulingStoreError) {
        try await change { book in try book.addClient(client) }
    }

    /// Removes a coach's client and their sessions, returned (`SchedulingBook.removeClient(_:coach:)`).
    public func removeClient(_ id: String, coach: String) async throws(SchedulingStoreError) -> [Session] {
        try await change { book in try book.removeClient(id, coach: coach) }
    }

    /// Adds a gym member (`SchedulingBook.addMember(_:)`).
    public func addMember(_ member: Member) async throws(SchedulingStoreError) {
        try await change { book in try book.addMember(member) }
    }

    /// Removes a member, giving up their places; the cancellations by
    /// occurrence (`SchedulingBook.removeMember(_:now:)`).
    public func removeMember(_ id: String) async throws(SchedulingStoreError) -> [ClassOccurrence.ID: Cancellation] {
        try await change { book in try book.removeMember(id, now: try now(book)) }
    }

    // MARK: - Sessions

    /// Books a session of a coach with one of their clients at an instant;
    /// a clash is refused naming the session it clashes with
    /// (`SchedulingBook.addSession(id:coach:client:startingAt:duration:location:notes:color:workoutType:now:)`).
    public func addSession(id: String? = nil, coach: String, client: String, startingAt start: Date, duration: Duration,
                           location: String? = nil, notes: String? = nil) async throws(SchedulingStoreError) -> Session {
        try await change { book in
            try book.addSession(id: id, coach: coach, client: client, startingAt: start, duration: duration, location: location, notes: notes, now: try now(book))
        }
    }

    /// Moves a coach's session to an instant, and to a new length if given
    /// (`SchedulingBook.moveSession(_:coach:toInstant:duration:now:)`).
    public func moveSession(_ id: String, coach: String, to start: Date, duration: Duration? = nil) async throws(SchedulingStoreError) -> Session {
        try await change { book in try book.moveSession(id, coach: coach, toInstant: start, duration: duration, now: try now(book)) }
    }

    /// Cancels, completes or marks as a no-show one of a coach's sessions
    /// (`SchedulingBook.setStatus(_:ofSession:coach:now:)`).
    public func setStatus(_ status: SessionStatus, ofSession id: String, coach: String) async throws(SchedulingStoreError) -> Session {
        try await change { book in try book.setStatus(status, ofSession: id, coach: coach, now: try now(book)) }
    }

    // MARK: - Classes

    /// Adds a weekly class to the timetable (`SchedulingBook.addClass(_:)`).
    public func addClass(_ series: ClassSeries) async throws(SchedulingStoreError) {
        try await change { book in try book.addClass(series) }
    }

    /// Changes a class from a date on, keeping the bookings that still fit
    /// (`SchedulingBook.changeClass(_:from:_:)`).
    public func changeClass(_ id: String, from date: LocalDate, _ change: ClassChange) async throws(SchedulingStoreError) -> ClassChangeReport {
        try await self.change { book in try book.changeClass(id, from: date, change) }
    }

    /// Ends a class after a date; the bookings it releases
    /// (`SchedulingBook.endClass(_:on:)`).
    public func endClass(_ id: String, on lastDate: LocalDate) async throws(SchedulingStoreError) -> [AffectedBookings] {
        try await change { book in try book.endClass(id, on: lastDate) }
    }

    /// Cancels one occurrence of a class; the bookings it removes, for the
    /// members to be told (`SchedulingBook.cancelOccurrence(classID:on:)`).
    public func cancelOccurrence(classID: String, on date: LocalDate) async throws(SchedulingStoreError) -> AffectedBookings {
        try await changeOccurrence(of: classID, on: date) { book in try book.cancelOccurrence(classID: classID, on: date) }
    }

    /// Closes the gym on some dates: their class occurrences are cancelled
    /// and their places released; the report names the members to tell
    /// (`SchedulingBook.close(_:now:)`).
    @discardableResult
    public func close(_ closure: GymClosure) async throws(SchedulingStoreError) -> ClosureReport {
        try await change { book in try book.close(closure, now: try now(book)) }
    }

    /// Opens the gym again on dates it was closed; the classes meet, with no
    /// places booked (`SchedulingBook.open(from:through:)`).
    @discardableResult
    public func open(from first: LocalDate, through last: LocalDate) async throws(SchedulingStoreError) -> [GymClosure] {
        try await change { book in try book.open(from: first, through: last) }
    }

    /// Sets the gym's opening hours (`nil` for none), which new classes and
    /// sessions must fit; refused, naming them, when a class, a moved
    /// occurrence or a session still to come would fall outside them
    /// (`SchedulingBook.setOpeningHours(_:now:)`, at the settings' `now`).
    public func setOpeningHours(_ hours: WorkingHours?) async throws(SchedulingStoreError) {
        try await change { book in try book.setOpeningHours(hours, now: try now(book)) }
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
            try book.book(member: member, classID: classID, on: date, now: try now(book), whenFull: whenFull)
        }
    }

    /// Gives up a member's place, or place on the waitlist; the first
    /// waiting moves up (`SchedulingBook.cancelBooking(member:classID:on:now:)`).
    public func cancelBooking(member: String, classID: String, on date: LocalDate) async throws(SchedulingStoreError) -> Cancellation {
        try await changeOccurrence(of: classID, on: date, members: [member]) { book in
            try book.cancelBooking(member: member, classID: classID, on: date, now: try now(book))
        }
    }

    // MARK: - Reading

    /// A coach's next sessions, from now on (`SchedulingBook.upcomingSessions(coach:after:limit:)`).
    public func upcomingSessions(coach: String, limit: Int = 10) async throws(SchedulingStoreError) -> [Session] {
        let book = try await book()
        do { return try book.upcomingSessions(coach: coach, after: try now(book), limit: limit) } catch { throw .from(error) }
    }

    /// A member's own schedule: their places and waitlists, in time order
    /// (`SchedulingBook.agenda(member:)`).
    public func agenda(member: String) async throws(SchedulingStoreError) -> [MemberBooking] {
        do { return try await book().agenda(member: member) } catch { throw .from(error) }
    }

    /// A week's dated classes with places left, and a member's place in
    /// each when a member asks (`SchedulingBook.timetable(weekOf:firstWeekday:member:)`).
    public func timetable(weekOf date: LocalDate, member: String? = nil) async throws(SchedulingStoreError) -> [TimetableDate] {
        do { return try await book().timetable(weekOf: date, member: member) } catch { throw .from(error) }
    }
}
