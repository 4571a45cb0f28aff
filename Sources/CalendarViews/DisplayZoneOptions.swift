import CalendarCore

/// The display zone every view's options share: where a view places its items.
///
/// `MonthView`, `WeekView`, `DayView` and `ListView` options all conform, so
/// the zone is chosen one way everywhere: ``timeZone``, else the schedule's
/// own calendar zone, else UTC — never the machine's, unless the caller
/// passes it.
public protocol DisplayZoneOptions {
    /// The zone the view is placed in; `nil` takes the schedule's.
    var timeZone: ZoneRules? { get set }
}

extension DisplayZoneOptions {
    /// The zone a view of `schedule` is placed in: ``timeZone``, else the
    /// schedule's calendar zone, else UTC.
    /// - Parameter schedule: the schedule shown.
    public func timeZone(for schedule: Schedule) -> ZoneRules { timeZone ?? schedule.timeZone ?? .utc }
}
