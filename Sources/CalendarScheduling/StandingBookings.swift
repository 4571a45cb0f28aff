import CalendarCore
import Foundation

// Standing bookings (issue 44, 1): a member who comes to Yoga every Monday
// and Wednesday books every date of it in a range at once, and gives them up
// from a date on. A standing booking is nothing the book keeps beside the
// places it books: each date is a booking of its own, under every rule a
// booking keeps (places, the waitlist, the booking window, the weekly
// limit, a date that is cancelled or closed), made or refused by date in one
// change, so a refused date never stops the others and the report says why.

/// What a standing booking or its cancellation did on one date.
public struct StandingDate: Hashable, Sendable {
    /// What happened to the date.
    public enum Outcome: Hashable, Sendable {
        /// A place is the member's.
        case booked
        /// The class was full; the member is this number on its waitlist.
        case waitlisted(position: Int)
        /// The member held a place already: nothing changed.
        case alreadyHeld
        /// The member was waiting already, this number on the waitlist: nothing changed.
        case alreadyWaiting(position: Int)
        /// Given up: whether a place was held, and who moved up into it.
        case cancelled(Cancellation)
        /// Not done, and why: full (without the waitlist), in the past,
        /// cancelled, beyond the booking window, over the weekly limit, too
        /// late to give up.
        case refused(SchedulingError)
    }

    /// The occurrence's date by the series (its identity, even if moved;
    /// ``occurrence`` says when it meets).
    public var date: LocalDate
    /// The occurrence as it stands after the change, when the class has one that date.
    public var occurrence: ClassOccurrence?
    /// What happened.
    public var outcome: Outcome

    /// Creates a date's report.
    /// - Parameters:
    ///   - date: the occurrence's date by the series.
    ///   - occurrence: the occurrence, if any.
    ///   - outcome: what happened.
    public init(date: LocalDate, occurrence: ClassOccurrence? = nil, outcome: Outcome) {
        self.date = date
        self.occurrence = occurrence
        self.outcome = outcome
    }
}

extension SchedulingBook {
    /// The longest range a standing booking covers: a year (`classes add
    /// --until` can run longer; a standing booking is renewed).
    public static let standingBookingMaxDays = 366

    /// Books a member into every occurrence of a class that meets from one
    /// date through another (the day it meets, a moved one's new day),
    /// each as ``book(member:classID:on:now:whenFull:)`` books it; a date
    /// that cannot be booked is reported, not thrown, and the others are
    /// booked. One the member holds or waits for already is said so, even
    /// in the past.
    ///
    /// ```swift
    /// let dates = try book.bookStanding(member: "marta", classID: "yoga", from: "2026-11-30", through: "2026-12-31", now: now)
    /// for d in dates { print(d.date, d.outcome) }  // 2026-11-30 booked …
    /// ```
    /// - Parameters:
    ///   - memberID: the member.
    ///   - classID: the class.
    ///   - first: the first date.
    ///   - last: the last date, included (as `classes add --until`).
    ///   - now: the time of the request.
    ///   - whenFull: refuse a full date (the default) or join its waitlist.
    /// - Returns: each occurrence that meets in the range, by its start.
    /// - Throws: an unknown member or class;
    ///   ``SchedulingError/invalid(field:reason:)`` (``SchedulingError/Field/lastDate``)
    ///   for a last date before the first or more than
    ///   ``standingBookingMaxDays`` after it. Nothing is booked then.
    public mutating func bookStanding(member memberID: String, classID: String, from first: LocalDate, through last: LocalDate,
                                      now: Date, whenFull: WhenFull = .refuse) throws(SchedulingError) -> [StandingDate] {
        let member = try people.member(memberID).id
        let occurrences = try standingOccurrences(classID, from: first, through: last)
        var report: [StandingDate] = []
        for o in occurrences {
            let date = o.id.date
            // Held or waited for already: said before any rule (a past date she holds is hers, not refused).
            if let roster = classTimetable.rosters[o.id] {
                if roster.confirmed.contains(member) { report.append(StandingDate(date: date, occurrence: o, outcome: .alreadyHeld)); continue }
                if let i = roster.waitlist.firstIndex(of: member) {
                    report.append(StandingDate(date: date, occurrence: o, outcome: .alreadyWaiting(position: i + 1)))
                    continue
                }
            }
            do {
                let outcome: StandingDate.Outcome
                switch try book(member: member, classID: classID, on: date, now: now, whenFull: whenFull) {
                case .confirmed: outcome = .booked
                case .waitlisted(let position): outcome = .waitlisted(position: position)
                }
                report.append(StandingDate(date: date, occurrence: try? classTimetable.occurrence(classID: classID, on: date), outcome: outcome))
            } catch {
                report.append(StandingDate(date: date, occurrence: o, outcome: .refused(error)))
            }
        }
        return report
    }

    /// Gives up a member's places (and places on the waitlist) in a class
    /// from a date on, each as ``cancelBooking(member:classID:on:now:)``
    /// gives one up, those that meet on that date or later (a moved one by
    /// its new day): a freed place goes to the first on the waitlist; a
    /// date that cannot be given up (it has started, or is within the
    /// cancellation cut-off) is reported, not thrown.
    /// - Parameters:
    ///   - memberID: the member.
    ///   - classID: the class.
    ///   - first: the first date given up.
    ///   - now: the time of the request.
    /// - Returns: each date the member held or waited for, by date.
    /// - Throws: an unknown member or class.
    public mutating func cancelStanding(member memberID: String, classID: String, from first: LocalDate, now: Date) throws(SchedulingError) -> [StandingDate] {
        let member = try people.member(memberID).id
        let series = try classTimetable.classSeries(classID)
        let ids = Set([classID] + classTimetable.classesByID.values.filter { $0.partOf == series.id }.map(\.id))
        let held = (classTimetable.occurrencesByMember[member] ?? []).filter { ids.contains($0.classID) }
            .compactMap { key in try? classTimetable.occurrence(classID: key.classID, on: key.date) }
            .filter { $0.start.date >= first }
            .sorted { ($0.startSeconds, $0.id) < ($1.startSeconds, $1.id) }
        var report: [StandingDate] = []
        for o in held {
            do {
                report.append(StandingDate(date: o.id.date, occurrence: o, outcome: .cancelled(try cancelBooking(member: member, classID: classID, on: o.id.date, now: now))))
            } catch {
                report.append(StandingDate(date: o.id.date, occurrence: o, outcome: .refused(error)))
            }
        }
        return report
    }

    /// The occurrences of a class (its earlier parts too, issue 41, 1) that
    /// meet in a range — by the day they meet, a moved one's new day —
    /// cancelled ones included, which a booking then reports; by start.
    private func standingOccurrences(_ classID: String, from first: LocalDate, through last: LocalDate) throws(SchedulingError) -> [ClassOccurrence] {
        let series = try classTimetable.classSeries(classID)
        guard last >= first else {
            throw .invalid(field: .lastDate, reason: "the standing booking ends on \(last), before it starts on \(first)")
        }
        guard last.dayNumber - first.dayNumber < Self.standingBookingMaxDays else {
            throw .invalid(field: .lastDate, reason: "a standing booking covers at most \(Self.standingBookingMaxDays) days, and \(first) to \(last) is \(last.dayNumber - first.dayNumber + 1); book a year at a time")
        }
        let ids = [series.id] + classTimetable.classesByID.values.filter { $0.partOf == series.id }.map(\.id)
        // A moved occurrence may meet in the range from a date outside it: the dates a year either side are asked.
        let wide = (LocalDate(dayNumber: first.dayNumber - Self.standingBookingMaxDays), LocalDate(dayNumber: last.dayNumber + Self.standingBookingMaxDays))
        var found: [ClassOccurrence.ID: ClassOccurrence] = [:]
        for id in ids {
            for o in classTimetable.occurrences(classID: id, from: wide.0, through: wide.1) where o.start.date >= first && o.start.date <= last {
                found[o.id] = o
            }
        }
        return found.values.sorted { ($0.startSeconds, $0.id) < ($1.startSeconds, $1.id) }
    }
}
