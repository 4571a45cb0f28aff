import CalendarCore
import Foundation

/// The rules a book applies to every session it books or moves, on top of
/// clashes: within the coach's working hours, not in the past, with some
/// notice, and never at a wall time the clocks skip.
///
/// A book without a policy (``SchedulingBook/policy`` is `nil`) takes any
/// time that does not clash, as a back-office tool importing old sessions
/// needs; an app that books for people sets one. Records read from a file or
/// from JSON are taken as they are; the policy applies to the next change.
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

    private enum CodingKeys: String, CodingKey { case withinWorkingHours, notInPast, minimumNotice, refuseSkippedTimes }

    /// Decodes the policy; the notice is ISO 8601 text (`PT2H`).
    /// - Parameter decoder: the decoder.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            withinWorkingHours: try c.decode(Bool.self, forKey: .withinWorkingHours), notInPast: try c.decode(Bool.self, forKey: .notInPast),
            minimumNotice: try c.decodeDuration(.minimumNotice), refuseSkippedTimes: try c.decode(Bool.self, forKey: .refuseSkippedTimes))
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
            return "\(start.date) \(start.timeText)-\(end.timeText) is outside the working hours of coach ‘\(coach)’, who \(worked); pick a time within them"
        case .inThePast(let start):
            return "\(start.date) at \(start.timeText) is in the past; pick a later time"
        case .tooSoon(let start, let notice):
            return "\(start.date) at \(start.timeText) is less than \(Self.text(notice)) from now; book at least that far ahead"
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
        if policy.minimumNotice > .zero, start < t + policy.minimumNotice.components.seconds {
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
