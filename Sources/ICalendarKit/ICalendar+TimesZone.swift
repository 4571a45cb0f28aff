import CalendarCore

extension ICalendar {
    /// The zone a calendar's times are read and typed on: its own
    /// (``calendarZone``), else the zone most of its items start in, else
    /// UTC — a calendar of only all-day, floating and UTC times reads the
    /// same on every clock.
    public var timesZoneName: String {
        calendarZone ?? Schedule.predominantZone(of: items, zones: zones)?.identifier ?? "UTC"
    }
}
