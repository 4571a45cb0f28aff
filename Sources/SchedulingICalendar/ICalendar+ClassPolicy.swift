import CalendarCore
import CalendarScheduling
import Foundation
import ICalendarKit

/// A gym's rules for booking its classes (`ClassBookingPolicy`), kept in the
/// calendar that holds its book, so that every program booking into it
/// keeps them — `schedulingBook(defaultTimeZone:)` reads them into the
/// book's `classPolicy` and `setScheduling(_:)` writes the book's back, so a
/// `SchedulingStore` applies the calendar's own rules to every change —:
/// `X-HORARI-BOOKING-WINDOW` (days, an integer),
/// `X-HORARI-CANCELLATION-CUTOFF` (an RFC 5545 duration, `PT12H`) and
/// `X-HORARI-WEEKLY-LIMIT` (places, an integer). Other calendars ignore them.
///
/// ```swift
/// try calendar.setClassBookingPolicy(ClassBookingPolicy(bookingWindowDays: 14, weeklyLimit: 3))
/// let rules = try calendar.schedulingBook().classPolicy  // the same rules
/// ```
extension ICalendar {
    /// The calendar properties that record the policy, by rule.
    package static let bookingWindowProperty = "X-HORARI-BOOKING-WINDOW"
    package static let cancellationCutoffProperty = "X-HORARI-CANCELLATION-CUTOFF"
    package static let weeklyLimitProperty = "X-HORARI-WEEKLY-LIMIT"

    /// The policy these calendar properties record (as `ICalendarOutline`
    /// reads a file's, without reading its components); `nil` when they
    /// record none.
    /// - Parameter values: calendar properties' values by name.
    /// - Throws: `SchedulingError.invalid(field:reason:)` naming the property
    ///   whose value is not a number or a duration, or is out of range.
    public static func classBookingPolicy(in values: [String: [String]]) throws(SchedulingError) -> ClassBookingPolicy? {
        func integer(_ name: String) throws(SchedulingError) -> Int? {
            guard let text = values[name]?.first else { return nil }
            guard let n = Int(text.trimmingCharacters(in: .whitespaces)) else {
                throw .invalid(field: .property(name), reason: "‘\(text.prefix(40))’ is not a whole number; set it again with `horari classes policy`")
            }
            return n
        }
        var policy = ClassBookingPolicy(bookingWindowDays: try integer(bookingWindowProperty), weeklyLimit: try integer(weeklyLimitProperty))
        if let text = values[cancellationCutoffProperty]?.first {
            do throws(TimeValueError) { policy.cancellationCutoff = try ISOText.duration(text) } catch {
                throw .invalid(field: .property(cancellationCutoffProperty), reason: "‘\(text.prefix(40))’ is not a duration such as PT12H; set it again with `horari classes policy`")
            }
        }
        guard policy != ClassBookingPolicy() else { return nil }
        try policy.validate()
        return policy
    }

    /// The policy this calendar records, if any.
    /// - Throws: as ``classBookingPolicy(in:)``.
    public func classBookingPolicy() throws(SchedulingError) -> ClassBookingPolicy? {
        try Self.classBookingPolicy(in: properties.reduce(into: [:]) { $0[$1.name, default: []].append($1.value) })
    }

    /// Records a policy in place of the one recorded before; `nil` removes it.
    /// - Parameter policy: the gym's rules.
    /// - Throws: `SchedulingError.invalid(field:reason:)` for a rule out of range.
    public mutating func setClassBookingPolicy(_ policy: ClassBookingPolicy?) throws(SchedulingError) {
        try policy?.validate()
        writeClassBookingPolicy(policy)
    }

    /// Records a policy as it is (``setScheduling(_:)`` writes the book's:
    /// a rule out of range is then named when the calendar is read).
    mutating func writeClassBookingPolicy(_ policy: ClassBookingPolicy?) {
        let names = [Self.bookingWindowProperty, Self.cancellationCutoffProperty, Self.weeklyLimitProperty]
        properties.removeAll { names.contains($0.name) }
        guard let policy else { return }
        if let days = policy.bookingWindowDays { properties.append(ContentLine(name: Self.bookingWindowProperty, value: String(days))) }
        if let cutoff = policy.cancellationCutoff { properties.append(ContentLine(name: Self.cancellationCutoffProperty, value: ISOText.duration(cutoff))) }
        if let limit = policy.weeklyLimit { properties.append(ContentLine(name: Self.weeklyLimitProperty, value: String(limit))) }
    }
}

extension ICalendar {
    /// The calendar property that holds a desk's lease on the whole book
    /// (CalendarStore's `SchedulingStore`, on a CalDAV collection under a
    /// weekly limit): `TOKEN UNTIL`, `UNTIL` a UTC date-time.
    package static let leaseProperty = "X-HORARI-LEASE"

    /// The lease the calendar records, if any: who holds it and until when.
    package var bookLease: (token: String, until: Date)? {
        guard let value = properties.first(where: { $0.name == Self.leaseProperty })?.value else { return nil }
        let parts = value.split(separator: " ")
        guard parts.count == 2, let until = try? CalendarTime(icalValue: parts[1]).instant(floatingZone: .utc) else { return nil }
        return (String(parts[0]), until)
    }

    /// Records a lease in place of any other; `nil` removes it.
    package mutating func setBookLease(_ lease: (token: String, until: Date)?) {
        properties.removeAll { $0.name == Self.leaseProperty }
        guard let lease else { return }
        let until = CalendarTime.utc(LocalDateTime(localSeconds: Int64(lease.until.timeIntervalSince1970.rounded(.up))))
        properties.append(ContentLine(name: Self.leaseProperty, value: lease.token + " " + until.icalValue))
    }
}

extension ICalendar {
    /// The calendar property that holds the state of the book's storage on
    /// a calendar (CalendarStore's `CalendarBookStorage`: the revision, the
    /// last commits, each record's version and digest), as text that storage
    /// writes and reads.
    package static let bookStateProperty = "X-HORARI-BOOK-STATE"

    /// The book storage's state as the calendar records it, if any.
    package var bookStateText: String? {
        properties.first { $0.name == Self.bookStateProperty }?.value
    }

    /// Records the book storage's state in place of any other.
    package mutating func setBookStateText(_ text: String) {
        properties.removeAll { $0.name == Self.bookStateProperty }
        properties.append(ContentLine(name: Self.bookStateProperty, value: text))
    }
}
