import Foundation

/// A recurrence set (RFC 5545 §3.8.5): a start, rules that repeat it, extra
/// dates that add to it and dates excluded from it.
///
/// ```swift
/// let start = CalendarTime.zoned(try LocalDateTime(year: 2026, month: 3, day: 2, hour: 9), "Europe/Madrid")
/// var set = RecurrenceSet(start: start, rules: [try RecurrenceRule(parsing: "FREQ=WEEKLY;BYDAY=MO,WE")])
/// set.exclusions = [.zoned(try LocalDateTime(year: 2026, month: 3, day: 4, hour: 9), "Europe/Madrid")]
/// let firstFive = try set.instances(limit: 5)
/// ```
///
/// Semantics:
/// - `DTSTART` is always the first instance (§3.8.5.3), and counts toward each
///   rule's `COUNT`, even when the rule would not produce it.
/// - Instances are computed on the wall clock of the start's zone, then
///   resolved to instants: a wall time in a DST gap moves forward by the gap
///   and is still counted; a repeated wall time takes its first instant.
/// - `RDATE`s add, `EXDATE`s remove (an exclusion in another zone or in UTC is
///   compared by instant; an all-day exclusion of a timed series — a common
///   real-world deviation — removes every instance on that date).
/// - `UNTIL` is inclusive. A UTC `UNTIL` is compared by instant; a date `UNTIL`
///   of a timed series (invalid, but common) is the start of that day on the
///   series' clock, as every peer reads it; any other `UNTIL` is compared on
///   the wall clock.
/// - An instance is identified by its *recurrence ID*: the wall time the rule
///   produced, in the series' zone, before any gap shift.
public struct RecurrenceSet: Hashable, Sendable, Codable {
    /// `DTSTART`: the first instance, and the source of the rule's defaults.
    public var start: CalendarTime
    /// `RRULE`s (more than one is deprecated by RFC 5545 but still read).
    public var rules: [RecurrenceRule]
    /// `RDATE`s: extra instances.
    public var additions: [CalendarTime]
    /// `EXDATE`s: instances removed.
    public var exclusions: [CalendarTime]

    /// Creates a set.
    public init(start: CalendarTime, rules: [RecurrenceRule] = [], additions: [CalendarTime] = [], exclusions: [CalendarTime] = []) {
        self.start = start
        self.rules = rules
        self.additions = additions
        self.exclusions = exclusions
    }

    /// Whether the set has finitely many instances (every rule has `COUNT` or `UNTIL`).
    public var isBounded: Bool { rules.allSatisfy(\.isBounded) }

    /// Checks the rules against the start (RFC 5545 §3.3.10).
    ///
    /// - Throws: ``RecurrenceRuleError``: a rule is invalid, a date start has a
    ///   `BYHOUR`/`BYMINUTE`/`BYSECOND` part or a sub-daily `FREQ`, or `UNTIL`
    ///   has the wrong value type for the start.
    public func validate() throws(RecurrenceRuleError) {
        for rule in rules {
            try rule.validate()
            if start.isDate {
                if !(rule.byHour.isEmpty && rule.byMinute.isEmpty && rule.bySecond.isEmpty) {
                    throw RecurrenceRuleError(.partNotAllowed, part: "BYHOUR", "BYHOUR, BYMINUTE and BYSECOND must not be used with an all-day (DATE) start")
                }
                if rule.frequency < .daily {
                    throw RecurrenceRuleError(.partNotAllowed, part: "FREQ", "FREQ=\(rule.frequency.rawValue) needs a start with a time, not an all-day date")
                }
            }
            if let until = rule.until {
                switch (start, until) {
                case (.date, .date), (.floating, .floating), (.zoned, .utc), (.utc, .utc): break
                default:
                    throw RecurrenceRuleError(.untilTypeMismatch, part: "UNTIL", "UNTIL \(until.icalValue) must be \(start.isDate ? "a date" : start.zoneIdentifier != nil ? "a UTC date-time (ending in Z)" : "of the same kind as DTSTART") to match DTSTART \(start.icalValue)")
                }
            }
        }
    }

    /// One instance of a recurrence set.
    public struct Instance: Hashable, Sendable, Comparable {
        /// The recurrence ID: the wall time the rule produced, in the start's zone.
        public let recurrenceID: CalendarTime
        /// The actual start: the recurrence ID, moved forward when it falls in a DST gap.
        public let start: CalendarTime
        /// Seconds since the Unix epoch of ``start``.
        public let epochSeconds: Int64

        /// The instant of ``start``.
        public var instant: Date { Date(timeIntervalSince1970: TimeInterval(epochSeconds)) }

        /// Orders instances by recurrence ID, then instant.
        public static func < (a: Instance, b: Instance) -> Bool {
            (a.recurrenceID.wallTime.localSeconds, a.epochSeconds) < (b.recurrenceID.wallTime.localSeconds, b.epochSeconds)
        }
    }

    /// The instances whose start lies in `[from, to)`, at most `limit` of them,
    /// in order of their recurrence IDs.
    ///
    /// At least one bound is required when the set has no end: a rule without
    /// `COUNT` or `UNTIL` is never expanded without a window or a limit.
    ///
    /// Without a `limit`, at most ``maxInstances`` are returned: a window of
    /// years over `FREQ=SECONDLY` (or `COUNT=2000000000`) would otherwise
    /// fill memory; past it the expansion throws
    /// ``RecurrenceError/Code/tooManyInstances``. A `limit` you pass is
    /// yours to choose, and may be larger.
    ///
    /// - Parameters:
    ///   - from: the earliest start, inclusive (`nil`: from `DTSTART`).
    ///   - to: the latest start, exclusive (`nil`: no upper bound).
    ///   - limit: the most instances to return.
    ///   - floatingZone: the zone in which all-day and floating times are read; by default the machine's (`ZoneRules.current`): RFC 5545 §3.3.5 reads a floating time on the clock of whoever reads it.
    ///   - zones: the zones the set's calendar defines for itself (its own
    ///     `VTIMEZONE`s), looked up before the system's; empty by default.
    /// - Throws: ``RecurrenceError``.
    /// - Complexity: proportional to the rule's periods between the window's
    ///   start and end; for a rule with no `COUNT` the walk starts at the
    ///   window, whatever the age of the series.
    public func instances(from: Date? = nil, to: Date? = nil, limit: Int? = nil, floatingZone: ZoneRules = .current,
                          zones: ZoneTable = ZoneTable()) throws(RecurrenceError) -> [Instance] {
        if to == nil && limit == nil && !isBounded {
            throw RecurrenceError(.unbounded, "the recurrence has no COUNT or UNTIL", suggestion: "give a window end or a limit")
        }
        if let limit, limit <= 0 { return [] }
        var iterator = try makeIterator(from: from, floatingZone: floatingZone, zones: zones)
        let toSeconds = to.map(\.clampedEpochSecondsRoundedUp)
        let fromSeconds = from.map(\.clampedEpochSeconds)
        var out: [Instance] = []
        while let instance = iterator.next() {
            if let toSeconds {
                // Gap-shifted instances can run up to a few hours ahead of their
                // neighbours: look a day past the end before stopping.
                if instance.epochSeconds >= toSeconds {
                    if instance.epochSeconds >= toSeconds + 86_400 { break }
                    continue
                }
            }
            if let fromSeconds, instance.epochSeconds < fromSeconds { continue }
            if limit == nil, out.count == Self.maxInstances {
                throw RecurrenceError(.tooManyInstances, "the recurrence has more than \(Self.maxInstances) instances in the window (RecurrenceSet.maxInstances)", suggestion: "narrow the window or pass a limit")
            }
            out.append(instance)
            if let limit, out.count >= limit { break }
        }
        return out
    }

    /// The most instances ``instances(from:to:limit:floatingZone:zones:)`` returns
    /// when it is given no `limit`: 1,000,000 (about 40 MB of instances; a
    /// daily series over 2,700 years, or a minutely one over two years).
    public static let maxInstances = 1_000_000

    /// A lazy iterator over every instance, from `from` on (all when `nil`).
    ///
    /// The iterator may run forever for an unbounded set: bound it yourself.
    /// - Parameters:
    ///   - from: the earliest start (`nil`: from `DTSTART`).
    ///   - floatingZone: the zone in which all-day and floating times are read; by default the machine's (`ZoneRules.current`): RFC 5545 §3.3.5 reads a floating time on the clock of whoever reads it.
    ///   - zones: the zones the set's calendar defines for itself, looked up
    ///     before the system's; empty by default.
    /// - Throws: ``RecurrenceError`` when the start's zone is unknown.
    public func makeIterator(from: Date? = nil, floatingZone: ZoneRules = .current, zones: ZoneTable = ZoneTable()) throws(RecurrenceError) -> Iterator {
        var iterator = try compiledIterator(floatingZone: floatingZone, zones: zones)
        iterator.begin(from: from)
        return iterator
    }

    /// An iterator compiled but not started: call ``Iterator/begin(from:)`` on a copy.
    ///
    /// For a start in UTC or a named zone it does not depend on
    /// `floatingZone`, so a ``Schedule`` compiles each series once and copies
    /// it for every query, instead of compiling it again each time.
    /// The zone of a zoned start is resolved here, once, through `zones`
    /// (the calendar's own first): every instance is then placed with it.
    func compiledIterator(floatingZone: ZoneRules = .utc, zones: ZoneTable = ZoneTable()) throws(RecurrenceError) -> Iterator {
        let zone: ZoneRules
        do throws(TimeValueError) {
            switch start {
            case .utc: zone = .utc
            case .zoned(_, let id): zone = try zones.rules(forTZID: id)
            case .date, .floating: zone = floatingZone
            }
        } catch {
            throw RecurrenceError(.unknownTimeZone, error.message)
        }
        return try Iterator(compiling: self, zone: zone, floatingZone: floatingZone, zones: zones)
    }

    /// Walks a recurrence set in order, merging rules and extra dates.
    public struct Iterator: IteratorProtocol, Sendable {
        let start: CalendarTime
        /// `start`'s wall reading in seconds, read once.
        private let startWall: Int64
        let zone: ZoneRules
        private var streams: [(iterator: RuleIterator, untilWall: Int64?, untilInstant: Int64?, head: Int64?)]
        private var additions: [Int64]
        private var additionIndex = 0
        private let excluded: Set<Int64>
        private let excludedDays: Set<Int>
        private var last: Int64?
        private var startPending: Bool

        /// Compiles the set's rules and dates; iteration starts with ``begin(from:)``.
        init(compiling set: RecurrenceSet, zone: ZoneRules, floatingZone: ZoneRules, zones: ZoneTable) throws(RecurrenceError) {
            start = set.start
            self.zone = zone
            let startWall = set.start.wallTime
            self.startWall = startWall.localSeconds

            func wallInSeriesZone(_ t: CalendarTime) throws(RecurrenceError) -> Int64 {
                switch (set.start, t) {
                case (.zoned, .utc), (.zoned, .zoned), (.utc, .zoned), (.floating, .utc), (.date, .utc):
                    do throws(TimeValueError) {
                        return zone.wall(atInstant: try t.epochSeconds(floatingZone: floatingZone, zones: zones))
                    } catch {
                        throw RecurrenceError(.unknownTimeZone, error.message)
                    }
                default: return t.wallTime.localSeconds
                }
            }

            var streams: [(RuleIterator, Int64?, Int64?, Int64?)] = []
            for rule in set.rules {
                let it = RuleIterator(rule: rule, start: startWall, isDate: set.start.isDate)
                var untilWall: Int64?
                var untilInstant: Int64?
                switch (set.start, rule.until) {
                case (_, nil): break
                case (.date, .some(let u)): untilWall = Int64(u.localDate.dayNumber) * 86_400
                // A date UNTIL on a timed series (invalid by RFC 5545 §3.3.10, and
                // common): the start of that day on the series' clock, as
                // dateutil, recurring-ical-events and libical read it.
                case (_, .some(.date(let d))): untilWall = Int64(d.dayNumber) * 86_400
                case (.zoned, .some(.utc(let t))), (.utc, .some(.utc(let t))): untilInstant = t.localSeconds
                case (_, .some(let u)): untilWall = try wallInSeriesZone(u)
                }
                streams.append((it, untilWall, untilInstant, nil))
            }
            self.streams = streams
            var adds: [Int64] = []
            for a in set.additions { adds.append(try wallInSeriesZone(a)) }
            additions = adds.sorted()
            var ex = Set<Int64>()
            var exDays = Set<Int>()
            for e in set.exclusions {
                if e.isDate && !set.start.isDate {
                    exDays.insert(e.localDate.dayNumber)
                } else {
                    ex.insert(try wallInSeriesZone(e))
                }
            }
            excluded = ex
            excludedDays = exDays
            startPending = true
        }

        /// Starts a freshly compiled iterator at the instances from `from` on
        /// (all when `nil`): rules without `COUNT` seek straight to it.
        mutating func begin(from: Date?) {
            if let from {
                let seekWall = zone.wall(atInstant: from.clampedEpochSeconds) - 86_400
                for i in streams.indices { streams[i].iterator.seek(toWall: seekWall) }
                additionIndex = additions.firstIndex { $0 >= seekWall } ?? additions.count
                startPending = seekWall <= startWall
            }
            for i in streams.indices { advance(i) }
        }

        private mutating func advance(_ i: Int) {
            guard let value = streams[i].iterator.next() else {
                streams[i].head = nil
                return
            }
            if let u = streams[i].untilWall, value > u {
                streams[i].head = nil
                return
            }
            if let u = streams[i].untilInstant, zone.instant(forWall: value) > u {
                streams[i].head = nil
                return
            }
            streams[i].head = value
        }

        /// The next instance, or `nil` at the end of the set.
        public mutating func next() -> Instance? {
            nextWall().map { makeInstance(LocalDateTime(localSeconds: $0)) }
        }

        /// The next instance's recurrence ID as a wall reading in seconds (its
        /// instant is `zone.instant(forWall:)` of it), without making the
        /// instance: for summaries that only need when (a month's markers).
        mutating func nextWall() -> Int64? {
            while true {
                var best: Int64?
                if startPending { best = startWall }
                // By index: a loop over the elements would copy each stream's iterator.
                for i in streams.indices { if let h = streams[i].head, best.map({ h < $0 }) ?? true { best = h } }
                if additionIndex < additions.count, best.map({ additions[additionIndex] < $0 }) ?? true {
                    best = additions[additionIndex]
                }
                guard let value = best else { return nil }
                // Consume `value` from every source that holds it.
                if startPending, value == startWall { startPending = false }
                for i in streams.indices where streams[i].head == value { advance(i) }
                while additionIndex < additions.count, additions[additionIndex] == value { additionIndex += 1 }
                if let last, value <= last { continue }
                last = value
                if excluded.contains(value) { continue }
                if !excludedDays.isEmpty {
                    let day = Int(value >= 0 ? value / 86_400 : (value - 86_399) / 86_400)
                    if excludedDays.contains(day) { continue }
                }
                return value
            }
        }

        /// The instance at a wall reading ``nextWall()`` returned.
        func makeInstance(_ wall: LocalDateTime) -> Instance {
            let id = start.withWallTime(wall)
            let instant = zone.instant(forWall: wall.localSeconds)
            let actual: CalendarTime
            if case .zoned = start {
                let shifted = zone.wall(atInstant: instant)
                actual = shifted == wall.localSeconds ? id : start.withWallTime(LocalDateTime(localSeconds: shifted))
            } else {
                actual = id
            }
            return Instance(recurrenceID: id, start: actual, epochSeconds: instant)
        }
    }
}

/// An error expanding a recurrence.
public struct RecurrenceError: CodedError, Hashable, Sendable {
    /// What kind of problem it is.
    public struct Code: ErrorCode {
        /// The error type whose kinds these are.
        public typealias Coded = RecurrenceError
        /// The code's name.
        public let rawValue: String
        /// Names a code.
        /// - Parameter rawValue: the name.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// Every code in the order of its table, numbered from 1 (Docs/Errors.md).
        public static let numbered: [Code] = [.unbounded, .unknownTimeZone, .invalidRule, .tooManyInstances]

        /// The set has no end and neither a window end nor a limit was given.
        public static let unbounded = Code(rawValue: "unbounded")
        /// The start's time zone is not known.
        public static let unknownTimeZone = Code(rawValue: "unknownTimeZone")
        /// A rule is invalid for its start.
        public static let invalidRule = Code(rawValue: "invalidRule")
        /// An expansion without a `limit` reached ``RecurrenceSet/maxInstances``.
        public static let tooManyInstances = Code(rawValue: "tooManyInstances")
    }

    /// The kind of problem.
    public let code: Code
    /// What went wrong and, when there is something to do, what to do: one sentence a person can act on.
    public let message: String
    /// What to do about it, when the message has a remedy: the end of ``message``.
    public let recoverySuggestion: String?

    /// Creates an error.
    /// - Parameters:
    ///   - code: the kind of problem.
    ///   - message: what went wrong.
    ///   - suggestion: what to do about it; ``message`` is then the two, joined by a semicolon.
    public init(_ code: Code, _ message: String, suggestion: String? = nil) {
        self.code = code
        self.message = suggestion.map { "\(message); \($0)" } ?? message
        self.recoverySuggestion = suggestion
    }

    /// The message.
    public var description: String { message }

}
