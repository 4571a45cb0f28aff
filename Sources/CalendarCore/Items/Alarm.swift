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
            let d = days.magnitude, s = seconds.magnitude
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

        /// The reach in seconds, counting a nominal day as 86,400 (saturating:
        /// a reach past any calendar's is past the limit, not a crash).
        var roughSeconds: Int64 {
            let (dayPart, over) = Int64(days).multipliedReportingOverflow(by: 86_400)
            let (sum, overAgain) = dayPart.addingReportingOverflow(Int64(seconds))
            return over || overAgain ? (days < 0 ? .min : .max) : sum
        }
    }

    /// What a relative trigger is counted from (`RELATED`, RFC 5545 §3.2.14).
    public enum Edge: String, Hashable, Sendable, Codable {
        /// The item's start (`DTSTART`); the default.
        case start = "START"
        /// The item's end (`DTEND`, a task's `DUE`, or its start and `DURATION`).
        case end = "END"
    }

    /// When the alarm first goes off (`TRIGGER`). Its JSON is
    /// `{"relative": {"offset": {"days": 0, "seconds": -900}, "to": "START"}}`
    /// or `{"absolute": "2026-11-24T08:00:00Z"}`.
    public enum Trigger: Hashable, Sendable, Codable {
        /// An offset from the start or end of each occurrence.
        case relative(Offset, to: Edge)
        /// One instant (`TRIGGER;VALUE=DATE-TIME:…Z`), for a series as for a single item.
        case absolute(CalendarTime)

        /// `offset` from the start: `.before(.minutes(15))` is fifteen minutes before.
        public static func fromStart(_ offset: Offset) -> Trigger { .relative(offset, to: .start) }

        /// `duration` before the start.
        public static func before(_ duration: Duration) -> Trigger { .relative(.before(duration), to: .start) }

        private enum CodingKeys: String, CodingKey { case relative, absolute, offset, to }

        /// Decodes `{"relative": {"offset": …, "to": "START"}}` or `{"absolute": …}`.
        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            if let time = try c.decodeIfPresent(CalendarTime.self, forKey: .absolute) {
                self = .absolute(time)
            } else {
                let r = try c.nestedContainer(keyedBy: CodingKeys.self, forKey: .relative)
                self = .relative(try r.decode(Offset.self, forKey: .offset), to: try r.decode(Edge.self, forKey: .to))
            }
        }

        /// Encodes `{"relative": {"offset": …, "to": "START"}}` or `{"absolute": …}`.
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            switch self {
            case .absolute(let time): try c.encode(time, forKey: .absolute)
            case .relative(let offset, let edge):
                var r = c.nestedContainer(keyedBy: CodingKeys.self, forKey: .relative)
                try r.encode(offset, forKey: .offset)
                try r.encode(edge, forKey: .to)
            }
        }
    }

    /// What the alarm does (`ACTION`): `DISPLAY`, `AUDIO`, `EMAIL`, or another value as written.
    public var action: String { didSet { changed(.action, action != oldValue, cleared: false) } }
    /// When it first goes off.
    public var trigger: Trigger { didSet { changed(.trigger, trigger != oldValue, cleared: false) } }
    /// How many more times it goes off after the first (`REPEAT`), ``repeatInterval`` apart.
    public var repeatCount: Int { didSet { changed(.repeatCount, repeatCount != oldValue, cleared: false) } }
    /// The time between repetitions (`DURATION`); `nil` when it does not repeat.
    public var repeatInterval: Offset? { didSet { changed(.repeatInterval, repeatInterval != oldValue, cleared: repeatInterval == nil) } }
    /// The text shown (`DESCRIPTION`), unescaped.
    public var message: String? { didSet { changed(.message, message != oldValue, cleared: message == nil) } }
    /// The subject of an e-mail alarm (`SUMMARY`), unescaped.
    public var summary: String? { didSet { changed(.summary, summary != oldValue, cleared: summary == nil) } }

    /// Notes a field's change; one cleared takes with it what the file wrote
    /// about it besides (another language's text, its parameters).
    private mutating func changed(_ field: Kept.Field, _ isChange: Bool, cleared: Bool) {
        guard isChange else { return }
        edited = true
        if cleared {
            kept.parameters[field.rawValue] = nil
            kept.duplicates[field.rawValue] = nil
        }
    }

    /// What a file wrote that the fields above do not hold, kept as written
    /// (ICalendarKit fills and writes them): its other lines (`ATTACH`,
    /// `X-WR-ALARMUID`, `ACKNOWLEDGED`, a second `DESCRIPTION`…), its
    /// components (RFC 9074's `VLOCATION`), and the parameters of the
    /// lines the fields hold that they do not model (`DESCRIPTION;LANGUAGE=ca`).
    package private(set) var kept = Kept()
    /// The `VALARM` a file wrote, which ICalendarKit writes back byte for
    /// byte while no field has changed. `nil` for an alarm an app built.
    package private(set) var source: ContentComponent?
    /// Whether a field has changed since the alarm was read from ``source``.
    package private(set) var edited = false

    /// What an alarm read from a file keeps that its fields do not hold.
    package struct Kept: Hashable, Sendable, Codable {
        /// A field, by the name of its Swift property (the codec knows its line).
        package enum Field: String, Hashable, Sendable, CaseIterable {
            case action, trigger, repeatCount, repeatInterval, message, summary
        }
        /// Its lines the fields do not hold, in file order.
        package var lines: [ContentLine] = []
        /// Its components, in file order.
        package var components: [ContentComponent] = []
        /// The parameters of a field's line that the field does not model, by ``Field`` raw value.
        package var parameters: [String: [ContentLine.Parameter]] = [:]
        /// Lines after the first of a field's (another language's text), by ``Field`` raw value.
        package var duplicates: [String: [ContentLine]] = [:]

        /// Keeps nothing.
        package init() {}

        var isEmpty: Bool { lines.isEmpty && components.isEmpty && parameters.isEmpty && duplicates.isEmpty }
    }

    /// Whether the trigger counts from the end (`RELATED=END`: a task's due time).
    public var relatesToEnd: Bool { if case .relative(_, .end) = trigger { true } else { false } }

    /// At most this many repetitions (RFC 5545 sets no bound): each one is an
    /// instant every query computes.
    public static let repeatLimit = 1000

    /// An alarm of fields a reader has checked, with the component it read
    /// them from (ICalendarKit's `Alarm(component:)`).
    package init(reading source: ContentComponent, action: String, trigger: Trigger, repeatCount: Int, repeatInterval: Offset?, message: String?, summary: String?,
                 kept: Kept) {
        (self.action, self.trigger, self.repeatCount, self.repeatInterval, self.message, self.summary) = (action, trigger, repeatCount, repeatInterval, message, summary)
        (self.source, self.kept) = (source, kept)
    }

    /// Equal when they say the same: the fields and what a file wrote
    /// besides, whether or not one was read from a file or changed since.
    public static func == (a: Alarm, b: Alarm) -> Bool {
        (a.action, a.trigger, a.repeatCount, a.repeatInterval, a.message, a.summary) == (b.action, b.trigger, b.repeatCount, b.repeatInterval, b.message, b.summary)
            && a.kept == b.kept
    }

    /// Hashes what `==` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(action)
        hasher.combine(trigger)
        hasher.combine(repeatCount)
        hasher.combine(repeatInterval)
        hasher.combine(message)
        hasher.combine(summary)
        hasher.combine(kept)
    }

    private enum CodingKeys: String, CodingKey { case action, trigger, repeatCount, repeatInterval, message, summary, kept, asWritten }

    /// Decodes an alarm's JSON (its fields; what a file wrote besides, and
    /// the component as written, when it was read from one).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        action = try c.decode(String.self, forKey: .action)
        trigger = try c.decode(Trigger.self, forKey: .trigger)
        repeatCount = try c.decodeIfPresent(Int.self, forKey: .repeatCount) ?? 0
        repeatInterval = try c.decodeIfPresent(Offset.self, forKey: .repeatInterval)
        message = try c.decodeIfPresent(String.self, forKey: .message)
        summary = try c.decodeIfPresent(String.self, forKey: .summary)
        kept = try c.decodeIfPresent(Kept.self, forKey: .kept) ?? Kept()
        source = try c.decodeIfPresent(ContentComponent.self, forKey: .asWritten)
    }

    /// Encodes the fields, and what a file wrote besides when there is any:
    /// the component as written while no field has changed.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(action, forKey: .action)
        try c.encode(trigger, forKey: .trigger)
        if repeatCount != 0 { try c.encode(repeatCount, forKey: .repeatCount) }
        try c.encodeIfPresent(repeatInterval, forKey: .repeatInterval)
        try c.encodeIfPresent(message, forKey: .message)
        try c.encodeIfPresent(summary, forKey: .summary)
        if !kept.isEmpty { try c.encode(kept, forKey: .kept) }
        if !edited { try c.encodeIfPresent(source, forKey: .asWritten) }
    }

    /// Why the alarm cannot go off as its fields stand, if it cannot: more
    /// than ``repeatLimit`` repetitions or fewer than none, repetitions
    /// without a positive interval, a trigger or a last repetition more than
    /// a year from its item. The queries report such an alarm rather than
    /// ring it (its fields are an app's to set, and its JSON's to say).
    package var fieldProblem: AlarmError? {
        if case .absolute(let time) = trigger, time.isDate {
            return AlarmError(.malformedTrigger, property: nil, "an alarm's own time is a date and a time, not the date \(time.icalValue) alone")
        }
        if case .relative(let offset, _) = trigger, let problem = Self.offsetProblem(offset, "the alarm's length") { return problem }
        if let every = repeatInterval, let problem = Self.offsetProblem(every, "the time between repetitions") { return problem }
        guard (0...Self.repeatLimit).contains(repeatCount) else {
            return AlarmError(.tooManyRepeats, property: nil, "an alarm repeats between 0 and \(Self.repeatLimit) times, not \(repeatCount)")
        }
        if repeatCount > 0 {
            guard let every = repeatInterval else {
                return AlarmError(.repeatWithoutInterval, property: nil, "an alarm that repeats \(repeatCount) times needs the time between repetitions")
            }
            guard every.days >= 0, every.seconds >= 0, every.roughSeconds > 0 else {
                return AlarmError(.malformedRepeat, property: nil, "the time between repetitions must be positive, not \(every.icalValue)")
            }
        }
        return Self.triggerReachProblem(trigger) ?? Self.repetitionReachProblem(trigger, repeatCount, repeatInterval)
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
    /// - Throws: ``AlarmError`` for a trigger more than a year away or on a
    ///   date without a time, a length of two signs, a repetition without an
    ///   interval, more than ``repeatLimit`` repetitions.
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
        if let problem = fieldProblem { throw problem }
    }

    /// Why a length cannot be written as one (RFC 5545 §3.3.6 gives a
    /// duration one sign), or is out of every bound, if it is.
    private static func offsetProblem(_ offset: Offset, _ what: String) -> AlarmError? {
        if (offset.days < 0 && offset.seconds > 0) || (offset.days > 0 && offset.seconds < 0) {
            return AlarmError(.malformedTrigger, property: nil, "\(what) has days and seconds of opposite signs (\(offset.days) days, \(offset.seconds) seconds); a length has one sign")
        }
        guard offset.days.magnitude <= 366, offset.seconds.magnitude <= UInt(Offset.limitSeconds) else {
            return AlarmError(.triggerTooFar, property: nil, "\(what) is more than a year; an alarm goes off at most a year (366 days) before or after its item")
        }
        return nil
    }

    /// Why the first time the alarm goes off is more than a year from its item, if it is.
    package static func triggerReachProblem(_ trigger: Trigger) -> AlarmError? {
        guard case .relative(let offset, _) = trigger, offset.roughSeconds.magnitude > UInt64(Offset.limitSeconds) else { return nil }
        return AlarmError(.triggerTooFar, property: nil, "the alarm \(offset.icalValue) goes off \(offset.roughSeconds.magnitude / 86_400) days from its item; an alarm goes off at most a year (366 days) before or after it")
    }

    /// Why the alarm's last repetition is more than a year from its item, if it is.
    package static func repetitionReachProblem(_ trigger: Trigger, _ count: Int, _ interval: Offset?) -> AlarmError? {
        guard case .relative(let offset, _) = trigger else { return nil }
        let (span, over) = Int64(count).multipliedReportingOverflow(by: interval?.roughSeconds ?? 0)
        let (reach, overAgain) = offset.roughSeconds.addingReportingOverflow(span)
        guard over || overAgain || reach.magnitude > UInt64(Offset.limitSeconds) else { return nil }
        return AlarmError(.triggerTooFar, property: nil, "the alarm's \(count) repetitions \(interval?.icalValue ?? "") apart end \(over || overAgain ? "more than a year" : "\(reach.magnitude / 86_400) days") from its item; an alarm goes off at most a year (366 days) before or after it")
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
            if let problem = alarm.fieldProblem ?? whyNeverRings(alarm, dueNeeded: false) { problems.append(problem) } else { found.append(alarm) }
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
        if let problem = alarm.fieldProblem ?? whyNeverRings(alarm, dueNeeded: true) { throw problem }
        alarms.append(alarm)
    }

    /// Why an alarm can never go off on this item, if it cannot: counted from
    /// a start or due time the item does not have. (`dueNeeded`: a task's
    /// alarm counted from a due time it lacks; a file's such alarm is still
    /// read, counted from its start, as before — RFC 5545 §3.8.6.3 requires
    /// the DUE, and what peers ring for it is for the alarms check to settle.)
    package func whyNeverRings(_ alarm: Alarm, dueNeeded: Bool) -> AlarmError? {
        guard case .relative(_, let edge) = alarm.trigger, kind == .task else { return nil }
        if isUndated {
            return AlarmError(.noStart, property: nil, "the task ‘\(title)’ has no date, so an alarm counted from its start or due time cannot go off; give the alarm a date and time of its own or give the task a date")
        }
        if edge == .start, !hasStart {
            return AlarmError(.noStart, property: nil, "the task ‘\(title)’ has no start, so an alarm counted from its start cannot go off; count it from its due time or give the task a start")
        }
        if dueNeeded, edge == .end, end == nil {
            return AlarmError(.noStart, property: nil, "the task ‘\(title)’ has no due time, so an alarm counted from its due time cannot go off; count it from its start or give the task a due time")
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
