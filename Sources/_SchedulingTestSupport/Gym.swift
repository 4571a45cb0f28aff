import CalendarCore
import CalendarScheduling
import Foundation
import Testing

/// A small gym in Madrid: two coaches with two clients each, three members,
/// Yoga on Mondays and Wednesdays at 18:30 (3 places), Spinning on Fridays at 07:00.
///
/// Not API: the book the scheduling tests and the integration tests start from.
public enum Gym {
    /// The gym's zone; every wall time below is on its clocks.
    public static let zone = "Europe/Madrid"

    /// A date written `2026-11-26`.
    ///
    /// - Parameter text: the date, `YYYY-MM-DD`.
    public static func day(_ text: String) throws -> LocalDate { try CalendarTime(icalValue: text.replacingOccurrences(of: "-", with: "")).localDate }

    /// "2026-11-26 18:00" on Madrid's clocks.
    ///
    /// - Parameter text: the wall time, `YYYY-MM-DD HH:MM`.
    public static func at(_ text: String) throws -> LocalDateTime {
        try CalendarTime(icalValue: text.replacingOccurrences(of: "-", with: "").replacingOccurrences(of: ":", with: "").replacingOccurrences(of: " ", with: "T") + "00").wallTime
    }

    /// The instant of a Madrid wall time.
    ///
    /// - Parameter text: the wall time, `YYYY-MM-DD HH:MM`.
    public static func now(_ text: String) throws -> Date { try CalendarTime.zoned(at(text), zone).instant(floatingZone: .utc) }

    /// The domain of the gym's UIDs (`yoga@gym.example`).
    public static let uidDomain = "gym.example"

    /// The gym's book: its coaches, clients, members and two class series,
    /// with no session or booking yet; its UIDs are `ID@gym.example`.
    public static func book() throws -> SchedulingBook {
        // A back-office book: its fixed dates are in the past by now, and the
        // tests of the session policy set one of their own.
        var book = SchedulingBook(timeZone: try .named(zone), policy: nil)
        try book.setUIDDomain(uidDomain)
        var hours = WorkingHours()
        try hours.set([TimeRange(parsing: "09:00-13:00"), TimeRange(parsing: "16:00-20:00")], on: [.monday, .tuesday, .wednesday, .thursday, .friday])
        try book.addCoach(Coach(id: "marc", name: "Marc Soler", email: "marc@gym.example", workingHours: hours))
        try book.addCoach(Coach(id: "laia", name: "Laia Vidal", email: "laia@gym.example", workingHours: hours, buffer: .minutes(15)))
        try book.addClient(Client(id: "anna", coachID: "marc", name: "Anna Puig", email: "anna@example.com"))
        try book.addClient(Client(id: "pau", coachID: "marc", name: "Pau Ferrer, Jr.", email: "pau@example.com"))
        try book.addClient(Client(id: "joan", coachID: "laia", name: "Joan Serra", email: "joan@example.com"))
        try book.addClient(Client(id: "rosa", coachID: "laia", name: "Rosa Martí"))
        for (id, name) in [("marta", "Marta Roig"), ("oriol", "Oriol Camps"), ("nuria", "Núria Pons")] {
            try book.addMember(Member(id: id, name: name, email: "\(id)@example.com"))
        }
        try book.addClass(ClassSeries(
            id: "yoga", title: "Yoga", weekdays: [.wednesday, .monday], time: TimeOfDay(hour: 18, minute: 30), duration: .minutes(60), capacity: 3,
            location: "Sala 2", instructor: "Laia Vidal", color: try ItemColor.named("teal"), firstDate: try day("2026-09-05")))
        try book.addClass(ClassSeries(
            id: "spin", title: "Spinning", weekdays: [.friday], time: TimeOfDay(hour: 7), duration: .minutes(45), capacity: 20,
            firstDate: try day("2026-09-04"), lastDate: try day("2026-12-31")))
        return book
    }
}

/// What a call threw, if it threw a `SchedulingError` (anything else fails the test).
///
/// - Parameter body: the call that should be refused.
public func refusal(_ body: () throws -> Void) -> SchedulingError? {
    do {
        try body()
        return nil
    } catch let error as SchedulingError {
        return error
    } catch {
        Issue.record("not a SchedulingError: \(error)")
        return nil
    }
}
