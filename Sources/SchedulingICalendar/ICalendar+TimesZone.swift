import CalendarCore
import ICalendarKit

extension ICalendar {
    /// The zone a calendar's times are read and typed on: its own (the
    /// book's `X-HORARI-TIMEZONE`, else `X-WR-TIMEZONE`:
    /// ``bookZoneProperties``), else the zone most of its items start in,
    /// else UTC — a calendar of only all-day, floating and UTC times reads
    /// the same on every clock.
    public var timesZoneName: String {
        calendarZone(namedBy: Self.bookZoneProperties) ?? Schedule.predominantZone(of: items, zones: zones)?.identifier ?? "UTC"
    }
}
