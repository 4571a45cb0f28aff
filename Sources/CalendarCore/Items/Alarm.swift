import Foundation

/// A reminder on an item (`VALARM`, RFC 5545 §3.6.6): when it goes off, how
/// many times, and what it says.
///
/// An alarm is typed values; ICalendarKit reads and writes its `VALARM`
/// (`Alarm(component:)`, `Alarm.component`). One read from a file keeps the
/// component as the file wrote it, and is written back byte for byte until
/// one of its fields changes (then it is written from its fields, with the
/// lines it does not model kept). The alarm queries read the fields
/// (``CalendarItem/alarms``, `Schedule.alarms(in:floatingZone:defaults:)`).
///
/// ```swift
/// let reminder = try Alarm(.before(.minutes(15)), message: "Yoga in 15 minutes")
/// try item.addAlarm(reminder)
/// ```
///
/// How a trigger is counted (RFC 5545 §3.3.6, §3.8.6.3): hours, minutes and
/// seconds are exact (`-PT1H` is 3,600 seconds before, whatever the clocks
/// do); days and weeks are nominal (`-P1D` is the same wall time the day
/// before, 23 or 25 hours across a clock change), counted on the clock of
/// the time they are relative to.
public struct Alarm: Hashable, Sendable, Codable {
    /// A signed length: nominal days, then exact seconds (`-P1DT2H` is
    /// `days: -1, seconds: -7200`). Negative is before.
    public struct Offset: Hashable, Sendable, Codable, CustomStringConvertible {
        /// Nominal days (a week is 7).
        public var days: Int
        /// Exact seconds.
        public var seconds: Int

        /// Creates an offset.
        public init(days: Int = 0, seconds: Int = 0) {
            self.days = days
            self.seconds = seconds
        }

        /// An exact offset of `duration` (whole seconds).
        public init(_ duration: Duration) {
            self.init(seconds: Int(duration.components.seconds))
        }

        /// `duration` before: the offset of a reminder ahead of its time.
        public static func before(_ duration: Duration) -> Offset { Offset(seconds: -Int(duration.components.seconds)) }

        /// `duration` after.
        public static func after(_ duration: Duration) -> Offset { Offset(seconds: Int(duration.components.seconds)) }

        /// `days` nominal days before (the same wall time, `days` dates earlier).
        public static func daysBefore(_ days: Int) -> Offset { Offset(days: -days) }

        /// The iCalendar `DURATION` value: `-PT15M`, `P1D`, `-P1DT2H`, `PT0S`.
        public var icalValue: String {
            let negative = days < 0 || (days == 0 && seconds < 0)
            let d = abs(days), s = abs(seconds)
            var text = negative ? "-P" : "P"
            if d > 0 { text += d % 7 == 0 && s == 0 ? "\(d / 7)W" : "\(d)D" }
            if s > 0 || d == 0 {
                text += "T"
                let (h, m, sec) = (s / 3600, s % 3600 / 60, s % 60)
                if h > 0 { text += "\(h)H" }
                if m > 0 { text += "\(m)M" }
                if sec > 0 || (h == 0 && m == 0) { text += "\(sec)S" }
            }
            return text
        }

        /// The ``icalValue``.
        public var description: String { icalValue }

        /// At most this far either way: a year (RFC 5545 sets no bound; a
        /// reminder further away than the calendar's own horizon is a typo,
        /// and every alarm query widens its window by its alarms' reach).
        public static let limitSeconds: Int64 = 366 * 86_400

        /// The reach in seconds, counting a nominal day as 86,400.
        var roughSeconds: Int64 { Int64(days) * 86_400 + Int64(seconds) }
    }

    /// What a relative trigger is counted from (`RELATED`, RFC 5545 §3.2.14).
    public enum Edge: String, Hashable, Sendable, Codable {
        /// The item's start (`DTSTART`); the default.
        case start = "START"
        /// The item's end (`DTEND`, a task's `DUE`, or its start and `DURATION`).
        case end = "END"
    }

    /// When the alarm first goes off (`TRIGGER`).
    public enum Trigger: Hashable, Sendable, Codable {
        /// An offset from the start or end of each occurrence.
        case relative(Offset, to: Edge)
        /// One instant (`TRIGGER;VALUE=DATE-TIME:…Z`), for a series as for a single item.
        case absolute(CalendarTime)

        /// `offset` from the start: `.before(.minutes(15))` is fifteen minutes before.
        public static func fromStart(_ offset: Offset) -> Trigger { .relative(offset, to: .start) }

        /// `duration` before the start.
        public static func before(_ duration: Duration) -> Trigger { .relative(.before(duration), to: .start) }
    }

    /// What the alarm does (`ACTION`): `DISPLAY`, `AUDIO`, `EMAIL`, or another value as written.
    public var action: String { didSet { edited = true } }
    /// When it first goes off.
    public var trigger: Trigger { didSet { edited = true } }
    /// How many more times it goes off after the first (`REPEAT`), ``repeatInterval`` apart.
    public var repeatCount: Int { didSet { edited = true } }
    /// The time between repetitions (`DURATION`); `nil` when it does not repeat.
    public var repeatInterval: Offset? { didSet { edited = true } }
    /// The text shown (`DESCRIPTION`), unescaped.
    public var message: String? { didSet { edited = true } }
    /// The subject of an e-mail alarm (`SUMMARY`), unescaped.
    public var summary: String? { didSet { edited = true } }
    /// The `VALARM` a file wrote, which ICalendarKit writes back as it was
    /// while no field above has changed, and takes the lines it does not
    /// model (`ATTACH`, `X-WR-ALARMUID`…) from once one has. `nil` for an
    /// alarm an app built.
    package private(set) var source: ContentComponent?
    /// Whether a field has changed since the alarm was read from ``source``.
    package private(set) var edited = false

    /// Whether the trigger counts from the end (`RELATED=END`: a task's due time).
    public var relatesToEnd: Bool { if case .relative(_, .end) = trigger { true } else { false } }

    /// At most this many repetitions (RFC 5545 sets no bound): each one is an
    /// instant every query computes.
    public static let repeatLimit = 1000

    /// An alarm of fields a reader has checked, with the component it read
    /// them from (ICalendarKit's `Alarm(component:)`).
    package init(reading source: ContentComponent, action: String, trigger: Trigger, repeatCount: Int, repeatInterval: Offset?, message: String?, summary: String?) {
        (self.action, self.trigger, self.repeatCount, self.repeatInterval, self.message, self.summary) = (action, trigger, repeatCount, repeatInterval, message, summary)
        self.source = source
    }

    /// Creates an alarm (ICalendarKit writes its `VALARM`).
    ///
    /// - Parameters:
    ///   - trigger: when it first goes off.
    ///   - action: `DISPLAY` (the default), `AUDIO` or `EMAIL`.
    ///   - message: the text shown (`DESCRIPTION`); `DISPLAY` alarms need
    ///     one, and get "Reminder" when it is `nil`.
    ///   - repeatCount: how many more times it goes off.
    ///   - every: the time between repetitions; required when `repeatCount` is more than 0.
    /// - Throws: ``AlarmError`` for a trigger more than a year away, a
    ///   repetition without an interval, more than ``repeatLimit`` repetitions.
    public init(_ trigger: Trigger, action: String = "DISPLAY", message: String? = nil, repeatCount: Int = 0, every: Offset? = nil) throws(AlarmError) {
        guard repeatCount >= 0, repeatCount <= Self.repeatLimit else {
            throw AlarmError(.tooManyRepeats, property: nil, "an alarm repeats between 0 and \(Self.repeatLimit) times, not \(repeatCount)")
        }
        if repeatCount > 0, every == nil {
            throw AlarmError(.repeatWithoutInterval, property: nil, "an alarm that repeats \(repeatCount) times needs the time between repetitions (every:)")
        }
        if let every, every.days < 0 || every.seconds < 0 || every.roughSeconds <= 0 {
            throw AlarmError(.malformedRepeat, property: nil, "the time between repetitions must be positive, not \(every.icalValue)")
        }
        if let far = Self.triggerReachProblem(trigger) ?? Self.repetitionReachProblem(trigger, repeatCount, every) { throw far }
        self.trigger = trigger
        self.action = action.uppercased()
        self.message = message ?? (action.uppercased() == "DISPLAY" ? "Reminder" : nil)
        self.repeatCount = repeatCount
        repeatInterval = repeatCount > 0 ? every : nil
    }

    /// Why the first time the alarm goes off is more than a year from its item, if it is.
    package static func triggerReachProblem(_ trigger: Trigger) -> AlarmError? {
        guard case .relative(let offset, _) = trigger, abs(offset.roughSeconds) > Offset.limitSeconds else { return nil }
        return AlarmError(.triggerTooFar, property: nil, "the alarm \(offset.icalValue) goes off \(abs(offset.roughSeconds) / 86_400) days from its item; an alarm goes off at most a year (366 days) before or after it")
    }

    /// Why the alarm's last repetition is more than a year from its item, if it is.
    package static func repetitionReachProblem(_ trigger: Trigger, _ count: Int, _ interval: Offset?) -> AlarmError? {
        guard case .relative(let offset, _) = trigger else { return nil }
        let reach = offset.roughSeconds + Int64(count) * (interval?.roughSeconds ?? 0)
        guard abs(reach) > Offset.limitSeconds else { return nil }
        return AlarmError(.triggerTooFar, property: nil, "the alarm's \(count) repetitions \(interval?.icalValue ?? "") apart end \(abs(reach) / 86_400) days from its item; an alarm goes off at most a year (366 days) before or after it")
    }
}

/// A `VALARM` a file wrote that cannot go off: why, and the component as
/// written, which an export writes back unchanged (the file's author may
/// read it otherwise; nothing is lost by reading it here).
public struct UnreadableAlarm: Hashable, Sendable, Codable {
    /// Why it cannot go off.
    public let problem: AlarmError
    /// The `VALARM` as the file wrote it.
    public let component: ContentComponent

    /// Pairs a component with why it cannot go off.
    /// - Parameters:
    ///   - problem: why it cannot go off.
    ///   - component: the component as written.
    public init(problem: AlarmError, component: ContentComponent) {
        self.problem = problem
        self.component = component
    }
}

extension CalendarItem {
    /// Why each of the item's alarms that cannot go off cannot: the file's
    /// ``unreadableAlarms``, and an alarm counted from a start the item does
    /// not have (a task with only a due time: RFC 5545 §3.8.6.3). Empty when
    /// every alarm can go off.
    public func alarmProblems() -> [AlarmError] {
        readAlarms().problems
    }

    /// The alarms that can go off, and why each other one cannot: one bad
    /// alarm does not silence its item's good ones.
    package func readAlarms() -> (alarms: [Alarm], problems: [AlarmError]) {
        var found: [Alarm] = []
        var problems = unreadableAlarms.map(\.problem)
        for alarm in alarms {
            if let never = whyNeverRings(alarm, dueNeeded: false) { problems.append(never) } else { found.append(alarm) }
        }
        return (found, problems)
    }

    /// Whether the item has alarms of its own (any, readable or not).
    public var hasAlarms: Bool { !alarms.isEmpty || !unreadableAlarms.isEmpty }

    /// Adds an alarm, after the item's others.
    ///
    /// - Throws: ``AlarmError/Code/noStart`` for an alarm that could never
    ///   go off on this item (issue 41, 9): one counted from the start of a
    ///   task that has none (a task with a due time only: count it from the
    ///   due time, `.relative(…, to: .end)`, RFC 5545's `RELATED=END`), one
    ///   counted from the due time of a task that has none, or one counted
    ///   from either on a task with no date at all. The item is unchanged.
    public mutating func addAlarm(_ alarm: Alarm) throws(AlarmError) {
        if let never = whyNeverRings(alarm, dueNeeded: true) { throw never }
        alarms.append(alarm)
    }

    /// Why an alarm can never go off on this item, if it cannot: counted from
    /// a start or due time the item does not have. (`dueNeeded`: a task's
    /// alarm counted from a due time it lacks; a file's such alarm is still
    /// read, counted from its start, as before — RFC 5545 §3.8.6.3 requires
    /// the DUE, and what peers ring for it is for the alarms check to settle.)
    func whyNeverRings(_ alarm: Alarm, dueNeeded: Bool) -> AlarmError? {
        guard case .relative(_, let edge) = alarm.trigger, kind == .task else { return nil }
        if isUndated {
            return AlarmError(.noStart, property: nil, "the task ‘\(title)’ has no date, so an alarm counted from its start or due time cannot go off; give the alarm a date and time of its own (TRIGGER;VALUE=DATE-TIME:…) or give the task a date")
        }
        if edge == .start, !hasStart {
            return AlarmError(.noStart, property: nil, "the task ‘\(title)’ has no DTSTART, so an alarm counted from its start cannot go off; count it from its due time (TRIGGER;RELATED=END:…) or give the task a start")
        }
        if dueNeeded, edge == .end, end == nil {
            return AlarmError(.noStart, property: nil, "the task ‘\(title)’ has no DUE, so an alarm counted from its due time cannot go off; count it from its start (TRIGGER:…, RELATED=START) or give the task a due time")
        }
        return nil
    }
}

/// Why an alarm cannot go off: its `TRIGGER`, `REPEAT` or `DURATION`, or the
/// item it is on.
public struct AlarmError: CodedError, Hashable, Sendable, Codable {
    /// What kind of problem it is.
    public struct Code: ErrorCode {
        /// The error type whose kinds these are.
        public typealias Coded = AlarmError
        /// The code's name.
        public let rawValue: String
        /// Names a code.
        /// - Parameter rawValue: the name.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// Every code in the order of its table, numbered from 1 (Docs/Errors.md).
        public static let numbered: [Code] = [.notAnAlarm, .missingTrigger, .malformedTrigger, .triggerTooFar, .malformedRepeat, .repeatWithoutInterval, .tooManyRepeats, .noStart]

        /// The component is not a `VALARM`.
        public static let notAnAlarm = Code(rawValue: "notAnAlarm")
        /// There is no `TRIGGER`.
        public static let missingTrigger = Code(rawValue: "missingTrigger")
        /// The `TRIGGER` is neither a duration nor a date-time.
        public static let malformedTrigger = Code(rawValue: "malformedTrigger")
        /// The alarm goes off more than a year from its item.
        public static let triggerTooFar = Code(rawValue: "triggerTooFar")
        /// `REPEAT` or the alarm's `DURATION` is not a usable value.
        public static let malformedRepeat = Code(rawValue: "malformedRepeat")
        /// `REPEAT` without `DURATION`, or `DURATION` without `REPEAT`.
        public static let repeatWithoutInterval = Code(rawValue: "repeatWithoutInterval")
        /// More than ``Alarm/repeatLimit`` repetitions.
        public static let tooManyRepeats = Code(rawValue: "tooManyRepeats")
        /// Counted from a start the item does not have.
        public static let noStart = Code(rawValue: "noStart")
    }

    /// The kind of problem.
    public let code: Code
    /// The property at fault (`TRIGGER`, `REPEAT`, `DURATION`), for a reader to find its line; `nil` for the component as a whole.
    public let property: String?
    /// A sentence describing the problem.
    public let message: String

    /// Creates an error.
    public init(_ code: Code, property: String?, _ message: String) {
        self.code = code
        self.property = property
        self.message = message
    }

    /// The message.
    public var description: String { message }

}
