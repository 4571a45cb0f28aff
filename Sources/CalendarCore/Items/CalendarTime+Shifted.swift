import Foundation

extension CalendarTime {
    /// This kind of time at another instant: a zoned time shows that instant's
    /// wall time in its zone, a UTC time the UTC reading, a floating time the
    /// reading in the floating zone, a date the date there.
    func shifted(toInstant t: Int64, floatingZone: ZoneRules, zones: ZoneTable) -> CalendarTime {
        switch self {
        case .utc: return .utc(LocalDateTime(localSeconds: t))
        case .zoned(_, let id):
            let zone = (try? zones.rules(forTZID: id)) ?? .utc
            return .zoned(LocalDateTime(localSeconds: zone.wall(atInstant: t)), id)
        case .floating: return .floating(LocalDateTime(localSeconds: floatingZone.wall(atInstant: t)))
        case .date: return .date(LocalDateTime(localSeconds: floatingZone.wall(atInstant: t)).date)
        }
    }
}
