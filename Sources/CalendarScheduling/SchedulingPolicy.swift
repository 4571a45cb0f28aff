import CalendarCore
import Foundation

/// The rules a book applies to every session it books or moves, on top of
/// clashes: within the coach's working hours, not in the past, with some
/// notice, and never at a wall time the clocks skip.
///
/// A new book has every rule on (``SchedulingBook/policy`` is
/// `SchedulingPolicy()`), as an app that books for people needs; a book
/// whose policy is `nil` takes any time that does not clash, as a
/// back-office tool importing old sessions needs. The policy is kept with
/// the book in every store. Records read from a file or from JSON are taken
/// as they are; the policy applies to the next change.
///
/// ```swift
/// book.policy = SchedulingPolicy(minimumNotice: .hours(2))
/// try book.addSession(coach: "marc", client: "anna", start: "2026-11-26T18:00", duration: .minutes(60), now: .now)
/// ```
public struct SchedulingPolicy: Hashable, Sendable, Codable {
    /// Whether a session must lie inside one stretch of its coach's working
    /// hours. A coach with no hours at all (no weekday and no date set) has
    /// hours nobody has told the book, and is not limited.
    public var withinWorkingHours: Bool
    /// Whether a session must start after `now`.
    public var notInPast: Bool
    /// How long before its start a session must be booked or moved to (zero for none).
    public var minimumNotice: Duration
    /// Whether a wall time the clocks skip (02:30 on the night they go
    /// forward) is refused, rather than moved forward by the gap as RFC 5545
    /// §3.3.5 reads it.
    public var refuseSkippedTimes: Bool

    /// Creates a policy; by default every rule is on and no notice is asked.
    /// - Parameters:
    ///   - withinWorkingHours: keep sessions within the coach's hours.
    ///   - notInPast: refuse a start before `now`.
    ///   - minimumNotice: the least time between `now` and the start.
    ///   - refuseSkippedTimes: refuse a wall time the clocks skip.
    public init(withinWorkingHours: Bool = true, notInPast: Bool = true, minimumNotice: Duration = .zero, refuseSkippedTimes: Bool = true) {
        self.withinWorkingHours = withinWorkingHours
        self.notInPast = notInPast
        self.minimumNotice = minimumNotice
        self.refuseSkippedTimes = refuseSkippedTimes
    }

    /// Every rule off: what a book with no policy (`nil`) keeps to.
    package static let nothingRefused = SchedulingPolicy(withinWorkingHours: false, notInPast: false, refuseSkippedTimes: false)

    /// The longest notice a policy asks: a year (366 days).
    public static let longestNotice: Duration = .seconds(366 * 86_400)

    /// Refuses a notice below zero or over ``longestNotice``.
    /// - Throws: ``SchedulingError/invalid(field:reason:)``.
    public func validate() throws(SchedulingError) {
        guard minimumNotice >= .zero, minimumNotice <= Self.longestNotice else {
            throw .invalid(field: .duration, reason: "a notice is from none to a year (366 days), not \(ISOText.duration(minimumNotice))")
        }
    }

    private enum CodingKeys: String, CodingKey { case withinWorkingHours, notInPast, minimumNotice, refuseSkippedTimes }

    /// Decodes the policy; the notice is ISO 8601 text (`PT2H`).
    /// - Parameter decoder: the decoder.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            withinWorkingHours: try c.decode(Bool.self, forKey: .withinWorkingHours), notInPast: try c.decode(Bool.self, forKey: .notInPast),
            minimumNotice: try c.decodeDuration(.minimumNotice), refuseSkippedTimes: try c.decode(Bool.self, forKey: .refuseSkippedTimes))
        do { try validate() } catch { throw DecodingError.dataCorruptedError(forKey: .minimumNotice, in: c, debugDescription: error.description) }
    }

    /// Encodes the policy.
    /// - Parameter encoder: the encoder.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(withinWorkingHours, forKey: .withinWorkingHours)
        try c.encode(notInPast, forKey: .notInPast)
        try c.encode(ISOText.duration(minimumNotice), forKey: .minimumNotice)
        try c.encode(refuseSkippedTimes, forKey: .refuseSkippedTimes)
    }
}

/// Why a ``SchedulingPolicy`` refused a session's time.
public enum PolicyRefusal: Hashable, Sendable, CustomStringConvertible {
    /// The session does not lie inside one stretch of the coach's hours that day.
    case outsideWorkingHours(coach: String, start: LocalDateTime, end: LocalDateTime, hours: [TimeRange])
    /// The session would start before now.
    case inThePast(start: LocalDateTime)
    /// The session would start sooner than the notice the policy asks.
    case tooSoon(start: LocalDateTime, notice: Duration)
    /// The clocks skip that wall time (the night they go forward).
    case skippedTime(LocalDateTime, zone: String, movedTo: LocalDateTime)

    /// What is wrong and what to do, in one sentence.
    public var description: String {
        switch self {
        case .outsideWorkingHours(let coach, let start, let end, let hours):
            let worked = hours.isEmpty ? "does not work that day" : "works \(hours.map(\.description).joined(separator: " and ")) that day"
            return "\(start.spanText(to: end)) is outside the working hours of coach ‘\(coach)’, who \(worked); pick a time within them"
        case .inThePast(let start):
            return "\(start.dayTimeText) is in the past; pick a later time"
        case .tooSoon(let start, let notice):
            return "\(start.dayTimeText) is less than \(Self.text(notice)) from now; book at least that far ahead"
        case .skippedTime(let wall, let zone, let movedTo):
            return "\(wall.date) \(wall.timeText) does not exist in \(zone) (the clocks skip it; it would be \(movedTo.timeText)); pick another time"
        }
    }

    private static func text(_ d: Duration) -> String {
        let m = d.wholeMinutes
        if m % 60 == 0 { return "\(m / 60) hour\(m == 60 ? "" : "s")" }
        return "\(m) minutes"
    }
}

extension KeyedDecodingContainer {
    /// An ISO 8601 length (`PT1H30M`) under a key.
    func decodeDuration(_ key: Key) throws -> Duration {
        let text = try decode(String.self, forKey: key)
        do { return try ISOText.duration(text) } catch {
            throw DecodingError.dataCorruptedError(forKey: key, in: self, debugDescription: error.message)
        }
    }
}

extension SchedulingBook {
    /// Checks a session's time against the policy, if the book has one.
    func enforcePolicy(_ session: Session, start: Int64, end: Int64, now: Date) throws(SchedulingError) {
        guard let policy else { return }
        if policy.refuseSkippedTimes, case .skipped = zone.reading(ofWall: session.start.localSeconds) {
            throw .refusedByPolicy(.skippedTime(session.start, zone: timeZone.identifier, movedTo: wall(start)))
        }
        let t = Self.seconds(now)
        if policy.notInPast, start < t { throw .refusedByPolicy(.inThePast(start: session.start)) }
        // Saturating: a notice is at most a year when read, but an app may set any.
        if policy.minimumNotice > .zero, start < t.addingReportingOverflow(policy.minimumNotice.components.seconds).partialValue {
            throw .refusedByPolicy(.tooSoon(start: session.start, notice: policy.minimumNotice))
        }
        if policy.withinWorkingHours, let coach = people.coachesByID[session.coachID], !coach.workingHours.isUnset {
            let date = session.start.date
            let hours = coach.workingHours.hours(on: date)
            let inside = hours.contains { instant($0.start.on(date)) <= start && end <= instant($0.end.on(date)) }
            if !inside {
                throw .refusedByPolicy(.outsideWorkingHours(coach: coach.id, start: session.start, end: wall(end), hours: hours))
            }
        }
    }
}

extension WorkingHours {
    /// Whether no weekday and no date has hours or a day off.
    var isUnset: Bool { weekly.isEmpty && exceptions.isEmpty }
}

/// The rules a gym sets for booking its classes (issue 31, 4): how far ahead
/// a member may book, how late a place may be given up, and how many places
/// a member may hold in one week.
///
/// It is kept with the book, as ``SchedulingPolicy`` is: a book
/// without one (``SchedulingBook/classPolicy`` is `nil`) refuses nothing of
/// this, and the front desk's own changes (removing a member, cancelling an
/// occurrence) never meet it.
///
/// **A place given up too late is refused, not recorded.** Cal.com's most
/// asked-for booking rule is a minimum cancellation notice that refuses;
/// a gym's "late cancellation" fee is the same rule with a price. A place
/// freed an hour before a class rarely reaches the waitlist's first member
/// in time, so refusing keeps the place honest: the member either comes or
/// is a no-show the gym can see. Giving up a place *on the waitlist* takes
/// nothing from anyone and is always allowed.
///
/// ```swift
/// book.classPolicy = ClassBookingPolicy(bookingWindowDays: 14, cancellationCutoff: .seconds(12 * 3600), weeklyLimit: 3)
/// ```
public struct ClassBookingPolicy: Hashable, Sendable, Codable {
    /// How many days ahead a place may be booked: an occurrence on today's
    /// date plus this many days at the latest (on the book's clock); `nil`
    /// for no limit.
    public var bookingWindowDays: Int?
    /// How long before its start a held place can no longer be given up;
    /// `nil` for until it starts.
    public var cancellationCutoff: Duration?
    /// The most places, booked or waiting, a member may hold in the
    /// classes of one week (Monday to Sunday, by the occurrence's date);
    /// `nil` for no limit. A waiting place counts: once promoted it is a place.
    public var weeklyLimit: Int?

    /// Creates a policy; every rule is off unless given.
    /// - Parameters:
    ///   - bookingWindowDays: how many days ahead a place may be booked.
    ///   - cancellationCutoff: how long before the start a place can no longer be given up.
    ///   - weeklyLimit: the most places a member may hold in one week.
    public init(bookingWindowDays: Int? = nil, cancellationCutoff: Duration? = nil, weeklyLimit: Int? = nil) {
        self.bookingWindowDays = bookingWindowDays
        self.cancellationCutoff = cancellationCutoff
        self.weeklyLimit = weeklyLimit
    }

    /// Checks the rules' own values: a window of 0…3,660 days, a cut-off of
    /// 0…30 days, a limit of 1…1,000 places.
    /// - Throws: ``SchedulingError/invalid(field:reason:)`` naming the rule.
    public func validate() throws(SchedulingError) {
        if let days = bookingWindowDays, !(0...3660).contains(days) {
            throw .invalid(field: .bookingWindow, reason: "a booking window of \(days) days is outside 0 to 3660 days")
        }
        if let cutoff = cancellationCutoff, cutoff < .zero || cutoff > .seconds(30 * 86_400) {
            throw .invalid(field: .cancellationCutoff, reason: "a cancellation cut-off of \(cutoff.components.seconds / 3600) hours is outside 0 to 720 hours")
        }
        if let limit = weeklyLimit, !(1...1000).contains(limit) {
            throw .invalid(field: .weeklyLimit, reason: "a weekly limit of \(limit) places is outside 1 to 1000")
        }
    }

    private enum CodingKeys: String, CodingKey { case bookingWindowDays, cancellationCutoff, weeklyLimit }

    /// Decodes the policy; the cut-off is ISO 8601 text (`PT12H`).
    /// - Parameter decoder: the decoder.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(bookingWindowDays: try c.decodeIfPresent(Int.self, forKey: .bookingWindowDays),
                  cancellationCutoff: c.contains(.cancellationCutoff) ? try c.decodeDuration(.cancellationCutoff) : nil,
                  weeklyLimit: try c.decodeIfPresent(Int.self, forKey: .weeklyLimit))
    }

    /// Encodes the policy, leaving out the rules that are off.
    /// - Parameter encoder: the encoder.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(bookingWindowDays, forKey: .bookingWindowDays)
        try c.encodeIfPresent(cancellationCutoff.map(ISOText.duration), forKey: .cancellationCutoff)
        try c.encodeIfPresent(weeklyLimit, forKey: .weeklyLimit)
    }
}
