import CalendarCore
import Foundation

/// Who holds the places of one occurrence, and who waits, in order.
package struct Roster: Hashable, Sendable {
    package var confirmed: [String] = []
    package var waitlist: [String] = []
    /// How many changes of the occurrence its members were told of
    /// (`SEQUENCE`, RFC 5546 §2.1.4; Notices.swift): kept when the last
    /// member leaves, so that one who books again is told with a higher one.
    package var sequence = 0
    /// The sequence of the last message each member holding a place was
    /// sent about the occurrence: an answer to an older one is refused.
    package var told: [String: Int] = [:]
    package init(confirmed: [String] = [], waitlist: [String] = [], sequence: Int = 0, told: [String: Int] = [:]) {
        self.confirmed = confirmed
        self.waitlist = waitlist
        self.sequence = sequence
        self.told = told
    }
    /// ``told``, for the members who hold a place or wait (a record of
    /// one who left without being told is not kept).
    package var toldOnRoster: [String: Int] {
        let on = Set(confirmed + waitlist)
        return told.filter { on.contains($0.key) && $0.value > 0 }
    }
    /// Whether anyone holds a place or waits.
    package var hasMembers: Bool { !confirmed.isEmpty || !waitlist.isEmpty }
    /// Whether there is nothing to keep: no members, and no one was ever told of the occurrence.
    package var isEmpty: Bool { !hasMembers && sequence == 0 }
}

// MARK: - Reading the rosters

extension ClassTimetable {
    /// Who holds the places of an occurrence and who waits, in order.
    /// - Parameters:
    ///   - classID: the class.
    ///   - date: the occurrence's date by the series.
    /// - Throws: ``SchedulingError/notAnOccurrence(classID:title:date:meets:)`` and the like.
    package func roster(classID: String, on date: LocalDate) throws(SchedulingError) -> (confirmed: [String], waitlist: [String]) {
        let r = rosters[try occurrenceKey(classID, date)] ?? Roster()
        return (r.confirmed, r.waitlist)
    }

    /// The occurrences a member holds a place in, by start.
    /// - Parameter memberID: the member.
    package func bookings(member memberID: String) -> [ClassOccurrence] {
        occurrences(ofMember: memberID).filter { rosters[$0.id]?.confirmed.contains(memberID) == true }
    }

    /// The occurrences a member waits for, by start, with their place in each queue.
    /// - Parameter memberID: the member.
    package func waitlists(member memberID: String) -> [(occurrence: ClassOccurrence, position: Int)] {
        occurrences(ofMember: memberID).compactMap { o in
            rosters[o.id]?.waitlist.firstIndex(of: memberID).map { (o, $0 + 1) }
        }
    }

    /// Everything a member is in, by start, with their place in each.
    /// - Parameter memberID: the member.
    package func agenda(member memberID: String) -> [MemberBooking] {
        occurrences(ofMember: memberID).compactMap { o in place(of: memberID, in: o.id).map { MemberBooking(occurrence: o, place: $0) } }
    }

    /// One week of the timetable, each date's occurrences with their places
    /// left and, for a member, their own place in each.
    /// - Parameters:
    ///   - date: any date in the week.
    ///   - firstWeekday: the day a week starts on.
    ///   - memberID: the member whose places to show, if any.
    package func week(of date: LocalDate, firstWeekday: Weekday = .monday, member memberID: String? = nil) -> [TimetableDate] {
        let first = date.adding(days: -((date.weekday.rawValue - firstWeekday.rawValue + 7) % 7))
        let found = occurrences(from: first, through: first.adding(days: 6))
        return (0..<7).map { i in
            let day = first.adding(days: i)
            let entries = found.filter { $0.start.date == day }.map { o in
                TimetableEntry(occurrence: o, series: classesByID[o.id.classID], place: memberID.flatMap { place(of: $0, in: o.id) })
            }
            return TimetableDate(date: day, entries: entries)
        }
    }

    /// The number of places taken across every occurrence.
    package var bookingCount: Int { rosters.values.reduce(0) { $0 + $1.confirmed.count } }

    /// The occurrences a member holds a place in or waits for, by start.
    func occurrences(ofMember memberID: String) -> [ClassOccurrence] {
        (occurrencesByMember[memberID] ?? []).compactMap { try? occurrence($0) }.sorted { ($0.startSeconds, $0.id) < ($1.startSeconds, $1.id) }
    }

    /// A member's place in an occurrence, if they have one.
    func place(of memberID: String, in key: ClassOccurrence.ID) -> MemberPlace? {
        guard let roster = rosters[key] else { return nil }
        if roster.confirmed.contains(memberID) { return .booked }
        return roster.waitlist.firstIndex(of: memberID).map { .waitlisted(position: $0 + 1) }
    }
}

// MARK: - Booking and cancelling

extension ClassTimetable {
    /// Books a member (known to the book) a place; see ``SchedulingBook/book(member:classID:on:now:whenFull:)``.
    mutating func book(member memberID: String, classID: String, on date: LocalDate, now: Date, whenFull: WhenFull) throws(SchedulingError) -> BookingOutcome {
        let occurrence = try bookable(classID, date, now: now)
        let key = occurrence.id
        var roster = rosters[key] ?? Roster()
        if occurrencesByMember[memberID]?.contains(key) == true {
            if let i = roster.waitlist.firstIndex(of: memberID) {
                throw .alreadyWaitlisted(member: memberID, title: occurrence.title, date: date, position: i + 1)
            }
            throw .alreadyBooked(member: memberID, title: occurrence.title, date: date)
        }
        let outcome: BookingOutcome
        if roster.confirmed.count < occurrence.capacity {
            roster.confirmed.append(memberID)
            outcome = .confirmed
        } else if whenFull == .joinWaitlist {
            roster.waitlist.append(memberID)
            outcome = .waitlisted(position: roster.waitlist.count)
        } else {
            throw .classFull(title: occurrence.title, date: date, capacity: occurrence.capacity, waiting: roster.waitlist.count)
        }
        rosters[key] = roster
        occurrencesByMember[memberID, default: []].insert(key)
        return outcome
    }

    /// Gives up a member's place or place in the queue; see ``SchedulingBook/cancelBooking(member:classID:on:now:)``.
    mutating func cancelBooking(member memberID: String, classID: String, on date: LocalDate, now: Date) throws(SchedulingError) -> Cancellation {
        let occurrence = try occurrence(occurrenceKey(classID, date))
        try Self.checkNotStarted(occurrence, now: now)
        let key = occurrence.id
        guard var roster = rosters[key] else { throw .notBooked(member: memberID, title: occurrence.title, date: date) }
        var result = Cancellation(heldPlace: false, promoted: nil)
        if let i = roster.confirmed.firstIndex(of: memberID) {
            roster.confirmed.remove(at: i)
            result.heldPlace = true
            if roster.confirmed.count < occurrence.capacity, !roster.waitlist.isEmpty {
                let next = roster.waitlist.removeFirst()
                roster.confirmed.append(next)
                result.promoted = next
            }
        } else if let i = roster.waitlist.firstIndex(of: memberID) {
            roster.waitlist.remove(at: i)
        } else {
            throw .notBooked(member: memberID, title: occurrence.title, date: date)
        }
        rosters[key] = roster.isEmpty ? nil : roster
        occurrencesByMember[memberID]?.remove(key)
        return result
    }

    /// Gives up every place and waitlist place a member holds: a place in an
    /// occurrence that has not started by `now` goes to the first member
    /// waiting; places in occurrences that have started are simply removed.
    mutating func release(member id: String, now: Date) throws(SchedulingError) -> [ClassOccurrence.ID: Cancellation] {
        var result: [ClassOccurrence.ID: Cancellation] = [:]
        for key in (occurrencesByMember[id] ?? []).sorted() {
            if let o = try? occurrence(key), o.startSeconds > SchedulingBook.seconds(now) {
                result[key] = try cancelBooking(member: id, classID: key.classID, on: key.date, now: now)
            } else if var roster = rosters[key] {
                let held = roster.confirmed.contains(id)
                roster.confirmed.removeAll { $0 == id }
                roster.waitlist.removeAll { $0 == id }
                rosters[key] = roster.isEmpty ? nil : roster
                result[key] = Cancellation(heldPlace: held, promoted: nil)
            }
        }
        occurrencesByMember[id] = nil
        return result
    }

    private func bookable(_ classID: String, _ date: LocalDate, now: Date) throws(SchedulingError) -> ClassOccurrence {
        let occurrence = try occurrence(occurrenceKey(classID, date))
        if let c = occurrence.closure { throw .gymClosed(what: occurrence.title, date: date, closure: c) }
        if occurrence.isCancelled { throw .occurrenceCancelled(classID: classID, title: occurrence.title, date: date) }
        try Self.checkNotStarted(occurrence, now: now)
        return occurrence
    }

    /// Refuses an occurrence that has started by `now`.
    private static func checkNotStarted(_ o: ClassOccurrence, now: Date) throws(SchedulingError) {
        if o.startSeconds <= SchedulingBook.seconds(now) {
            throw .occurrenceInPast(classID: o.id.classID, title: o.title, date: o.id.date, start: o.start)
        }
    }
}

// MARK: - Restoring rosters as read

extension ClassTimetable {
    /// Stores who holds the places of an occurrence and who waits, as the
    /// JSON form reads them, refusing members `people` does not know, a
    /// member listed twice and a second roster of the occurrence (naming the
    /// JSON roster's `date` and `booked` fields).
    mutating func restoreRoster(classID: String, date: LocalDate, booked: [String], waiting: [String], sequence: Int, told: [String: Int],
                                people: PeopleDirectory) throws(SchedulingError) {
        let key = try occurrenceKey(classID, date)
        guard rosters[key] == nil else {
            throw .invalid(field: SchedulingError.Field(rawValue: "date"), reason: "the occurrence \(key) has two rosters; keep one, with every member in it")
        }
        for id in booked + waiting {
            _ = try people.member(id)
            guard occurrencesByMember[id]?.insert(key).inserted ?? true else {
                throw .invalid(field: SchedulingError.Field(rawValue: "booked"), reason: "member ‘\(id)’ appears twice in the roster of \(key)")
            }
            occurrencesByMember[id, default: []].insert(key)
        }
        var roster = Roster(confirmed: booked, waitlist: waiting, sequence: sequence, told: told)
        roster.told = roster.toldOnRoster
        if !roster.isEmpty { rosters[key] = roster }
    }

    /// Stores a roster read from a calendar, whose members the reader checked.
    mutating func setRoster(_ roster: Roster, of key: ClassOccurrence.ID) {
        for id in roster.confirmed + roster.waitlist { occurrencesByMember[id, default: []].insert(key) }
        rosters[key] = roster.isEmpty ? nil : roster
    }
}

// MARK: - The book's calls on its rosters, forwarded

extension SchedulingBook {
    /// Books a member a place in one occurrence of a class.
    ///
    /// - Parameters:
    ///   - memberID: the member.
    ///   - classID: the class series.
    ///   - date: the occurrence's date by the series (its identity, even if moved).
    ///   - now: the time of the request; an occurrence that has started is refused.
    ///   - whenFull: refuse (the default) or join the waitlist when every place is taken.
    /// - Returns: ``BookingOutcome/confirmed`` or the place on the waitlist.
    /// - Throws: ``SchedulingError/notAnOccurrence(classID:title:date:meets:)``,
    ///   ``SchedulingError/occurrenceCancelled(classID:title:date:)``,
    ///   ``SchedulingError/occurrenceInPast(classID:title:date:start:)``,
    ///   ``SchedulingError/alreadyBooked(member:title:date:)``,
    ///   ``SchedulingError/alreadyWaitlisted(member:title:date:position:)``,
    ///   ``SchedulingError/classFull(title:date:capacity:waiting:)``, or an unknown member or class;
    ///   under a ``classPolicy``, ``SchedulingError/beyondBookingWindow(title:date:days:opens:)`` and
    ///   ``SchedulingError/weeklyLimitReached(member:limit:weekOf:)``.
    @discardableResult
    public mutating func book(member memberID: String, classID: String, on date: LocalDate, now: Date, whenFull: WhenFull = .refuse) throws(SchedulingError) -> BookingOutcome {
        let member = try people.member(memberID).id
        if let classPolicy { try checkBooking(member: member, classID: classID, on: date, now: now, classPolicy) }
        return try classTimetable.book(member: member, classID: classID, on: date, now: now, whenFull: whenFull)
    }

    /// The ``ClassBookingPolicy``'s window and weekly limit for a booking
    /// (an occurrence the member holds already, or one that cannot be
    /// booked, is left to the booking to say).
    private func checkBooking(member: String, classID: String, on date: LocalDate, now: Date, _ rules: ClassBookingPolicy) throws(SchedulingError) {
        let occurrence = try classTimetable.occurrence(classID: classID, on: date)
        let held = classTimetable.occurrencesByMember[member] ?? []
        guard !held.contains(occurrence.id), !occurrence.isCancelled else { return }
        let day = occurrence.start.date
        if let days = rules.bookingWindowDays {
            let today = LocalDateTime(localSeconds: zone.wall(atInstant: Self.seconds(now))).date
            if day.dayNumber - today.dayNumber > days {
                throw .beyondBookingWindow(title: occurrence.title, date: date, days: days, opens: LocalDate(dayNumber: day.dayNumber - days))
            }
        }
        if let limit = rules.weeklyLimit {
            // Monday to Sunday, by the dates the occurrences take place.
            let monday = day.dayNumber - (day.weekday.rawValue - Weekday.monday.rawValue + 7) % 7
            let inWeek = held.filter { key in
                guard let o = try? classTimetable.occurrence(classID: key.classID, on: key.date), !o.isCancelled else { return false }
                return (monday..<monday + 7).contains(o.start.date.dayNumber)
            }
            if inWeek.count >= limit { throw .weeklyLimitReached(member: member, limit: limit, weekOf: LocalDate(dayNumber: monday)) }
        }
    }

    /// Gives up a member's place, or their place in the queue. A freed
    /// place goes to the first member on the waitlist.
    /// - Parameters:
    ///   - memberID: the member.
    ///   - classID: the class.
    ///   - date: the occurrence's date by the series.
    ///   - now: the time of the request.
    /// - Throws: ``SchedulingError/notBooked(member:title:date:)``,
    ///   ``SchedulingError/occurrenceInPast(classID:title:date:start:)`` once it has started, and the like;
    ///   under a ``classPolicy`` with a cut-off, ``SchedulingError/cancellationTooLate(member:title:date:start:cutoff:)``
    ///   for a held place (a waiting place can always be given up).
    @discardableResult
    public mutating func cancelBooking(member memberID: String, classID: String, on date: LocalDate, now: Date) throws(SchedulingError) -> Cancellation {
        let member = try people.member(memberID).id
        if let cutoff = classPolicy?.cancellationCutoff, cutoff > .zero,
           let occurrence = try? classTimetable.occurrence(classID: classID, on: date), !occurrence.isCancelled,
           (try? classTimetable.roster(classID: classID, on: date))?.confirmed.contains(member) == true {
            let left = occurrence.startSeconds - Self.seconds(now)
            if left > 0, left < cutoff.components.seconds {
                throw .cancellationTooLate(member: member, title: occurrence.title, date: date, start: occurrence.start, cutoff: cutoff)
            }
        }
        return try classTimetable.cancelBooking(member: member, classID: classID, on: date, now: now)
    }

    /// Who holds the places of an occurrence and who waits, in order.
    /// - Parameters:
    ///   - classID: the class.
    ///   - date: the occurrence's date by the series.
    /// - Throws: ``SchedulingError/notAnOccurrence(classID:title:date:meets:)`` and the like.
    public func roster(classID: String, on date: LocalDate) throws(SchedulingError) -> (confirmed: [String], waitlist: [String]) {
        try classTimetable.roster(classID: classID, on: date)
    }

    /// The occurrences a member holds a place in, by start.
    /// - Parameter memberID: the member.
    /// - Throws: ``SchedulingError/unknownMember(_:)``.
    public func bookings(member memberID: String) throws(SchedulingError) -> [ClassOccurrence] { classTimetable.bookings(member: try people.member(memberID).id) }

    /// The occurrences a member waits for, by start, with their place in each queue.
    /// - Parameter memberID: the member.
    /// - Throws: ``SchedulingError/unknownMember(_:)``.
    public func waitlists(member memberID: String) throws(SchedulingError) -> [(occurrence: ClassOccurrence, position: Int)] {
        classTimetable.waitlists(member: try people.member(memberID).id)
    }

    /// Everything a member is in, by start: each occurrence with their
    /// place (held, or their position on the waitlist) and its places left.
    /// - Parameter memberID: the member.
    /// - Throws: ``SchedulingError/unknownMember(_:)``.
    public func agenda(member memberID: String) throws(SchedulingError) -> [MemberBooking] { classTimetable.agenda(member: try people.member(memberID).id) }

    /// The number of places taken across every occurrence.
    public var bookingCount: Int { classTimetable.bookingCount }
}

/// A member's place in one occurrence.
public enum MemberPlace: Hashable, Sendable, Codable {
    /// They hold a place.
    case booked
    /// They wait; 1 is next.
    case waitlisted(position: Int)

    /// Decodes `{"kind": "booked"}` or `{"kind": "waitlisted", "position": 2}`.
    /// - Parameter decoder: the decoder.
    public init(from decoder: any Decoder) throws {
        self = try PlaceForm.decode(decoder, held: "booked").map { .waitlisted(position: $0) } ?? .booked
    }

    /// Encodes the place with a `kind`.
    /// - Parameter encoder: the encoder.
    public func encode(to encoder: any Encoder) throws {
        let position: Int? = if case .waitlisted(let p) = self { p } else { nil }
        try PlaceForm.encode(waitlisted: position, held: "booked", to: encoder)
    }
}

/// An occurrence a member is in, and their place in it.
public struct MemberBooking: Hashable, Sendable, Codable {
    /// The occurrence, with its capacity and places left.
    public var occurrence: ClassOccurrence
    /// Their place: held, or a position on the waitlist.
    public var place: MemberPlace
}

/// One dated entry of a week's timetable.
public struct TimetableEntry: Hashable, Sendable, Codable {
    /// The occurrence, with its capacity, places taken and left, and waiting.
    public var occurrence: ClassOccurrence
    /// Where it meets.
    public var location: String?
    /// Who teaches it.
    public var instructor: String?
    /// The colour to draw it in: the class's own, or `ItemColor.redStandIn`
    /// for one of the red family, which marks busy days (`ItemColor.displayed`;
    /// ``SchedulingBook/addClass(_:)`` refuses such a colour, and a book read
    /// from elsewhere may still hold one).
    public var color: ItemColor?
    /// The member's own place in it, when the timetable was asked for a member.
    public var place: MemberPlace?

    init(occurrence: ClassOccurrence, series: ClassSeries?, place: MemberPlace?) {
        self.occurrence = occurrence
        location = series?.location
        instructor = series?.instructor
        color = series?.color?.displayed
        self.place = place
    }
}

/// One date of a week's timetable.
public struct TimetableDate: Hashable, Sendable, Codable {
    /// The date.
    public var date: LocalDate
    /// Its occurrences by start, cancelled ones too.
    public var entries: [TimetableEntry]
}
