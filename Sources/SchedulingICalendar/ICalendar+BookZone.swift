import CalendarCore
import ICalendarKit

/// The zone a scheduling book keeps its clock in, recorded in the calendar
/// that holds it (`X-HORARI-TIMEZONE`).
///
/// ICalendarKit knows no application's properties: it reads a calendar's
/// clock from the properties it is told of, then from `X-WR-TIMEZONE`. Hand
/// it `bookZoneProperties` so that views, listings and merges of a
/// calendar that keeps a book read the book's clock, as bookings do.
///
/// ```swift
/// let zone = calendar.calendarZone(namedBy: ICalendar.bookZoneProperties)
/// let week = calendar.schedule(zoneNamedBy: ICalendar.bookZoneProperties)
/// calendar.merge(incoming, zoneNamedBy: ICalendar.bookZoneProperties)
/// ```
extension ICalendar {
    /// The calendar property that records a scheduling book's zone.
    package static let bookZoneProperty = "X-HORARI-TIMEZONE"

    /// The calendar properties that name the clock of a calendar that may
    /// keep a scheduling book, first first: the book's zone.
    ///
    /// The book's zone comes before `X-WR-TIMEZONE`, as in
    /// ``schedulingBook(defaultTimeZone:)``, so that views and bookings read
    /// one clock.
    public static let bookZoneProperties: [String] = [bookZoneProperty]
    /// The calendar property of the month a sample calendar was written for
    /// (`YYYY-MM`), which `horari sample` moves to the current month.
    package static let sampleMonthProperty = "X-HORARI-SAMPLE-MONTH"

    /// Records `zone` as the clock of this calendar's book, in place of any
    /// it recorded before; other calendars ignore it, so it moves none of
    /// their floating times (as writing `X-WR-TIMEZONE` would).
    /// - Parameter zone: an IANA zone name (or a `TZID` the calendar defines).
    public mutating func setBookZone(_ zone: String) {
        properties.removeAll { $0.name == Self.bookZoneProperty }
        properties.append(ContentLine(name: Self.bookZoneProperty, value: zone))
    }
}
