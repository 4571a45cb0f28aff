import CalendarCore
import CalendarScheduling

// The desks' schedules are the book's records as calendar items (sessions
// with their ORGANIZER and ATTENDEE, a member's places as the member's
// export writes them): the mapping's, so they live here.

extension CoachDesk {
    /// This coach's sessions as a schedule the views draw.
    public func schedule() async throws(SchedulingError) -> Schedule {
        try await run { book, coach throws(SchedulingError) in try book.coachSchedule(coach: coach) }
    }
}

extension ClientDesk {
    /// The client's sessions as a schedule the views draw.
    public func schedule() async throws(SchedulingError) -> Schedule {
        try await run { book, id throws(SchedulingError) in try book.clientSchedule(client: id) }
    }
}

extension MemberDesk {
    /// This member's classes as a schedule for the views: places held as
    /// confirmed events, waitlist places as tentative ones.
    public func schedule() async throws(SchedulingError) -> Schedule {
        try await run { book, member throws(SchedulingError) in try book.memberSchedule(member: member) }
    }
}

extension SchedulingBook {
    /// A client's own sessions (cancelled ones too) as a schedule the views draw.
    /// - Parameter clientID: the client.
    /// - Throws: `SchedulingError.noSuchClient(_:)`.
    public func clientSchedule(client clientID: String) throws(SchedulingError) -> Schedule {
        Schedule(items: try sessions(client: clientID).map(calendarItem(for:)), onBookZone: timeZone)
    }
}

extension Schedule {
    /// A schedule of the book's own items, on the book's zone: the zone is
    /// given as a definition too, so a book on a zone of its own (a fixed
    /// offset, a calendar's `VTIMEZONE`) still places every item.
    /// - Parameters:
    ///   - items: the book's items, whose `TZID` is the book zone's identifier.
    ///   - zone: the book's zone.
    package init(items: [CalendarItem], onBookZone zone: ZoneRules) {
        self.init(items: items, timeZone: zone, zones: ZoneTable([zone.identifier: zone]), compilingSeries: true)
    }
}
