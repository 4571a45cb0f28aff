import CalendarCore
import Foundation

/// An iCalendar object (`VCALENDAR`) as the library models it: the items,
/// the calendar's own properties, and everything else the file held, kept so
/// that writing it back loses nothing.
///
/// ```swift
/// let result = try ICalendarImporter().importCalendar(from: text)
/// for problem in result.diagnostics { print(problem) }
/// let week = result.calendar.schedule().occurrences(from: monday, to: nextMonday)
/// let back = ICalendarExporter().export(result.calendar)
/// ```
public struct ICalendar: Hashable, Sendable {
    /// The calendar's name (`X-WR-CALNAME`, or RFC 7986 `NAME`).
    public var name: String?
    /// The calendar's colour (RFC 7986 `COLOR`, or Apple's `X-APPLE-CALENDAR-COLOR`).
    public var color: ItemColor?
    /// Google's default zone (`X-WR-TIMEZONE`), applied to floating and UTC
    /// times of events by ``schedule(applyingCalendarTimeZone:)``.
    ///
    /// Text, not `ZoneRules` as elsewhere (issue 30's one vocabulary): it is
    /// what the file says, kept to be written back, and it may name a zone
    /// this system does not know; the rules it stands for are
    /// `zones.rules(forTZID:)`, asked when they are needed.
    public var timeZone: String?
    /// The product that wrote the file (`PRODID`).
    public var productID: String?
    /// The iTIP method (`METHOD`), if any.
    public var method: String?
    /// Every other calendar property, kept as written.
    public var properties: ContentLines
    /// The events and tasks, in file order.
    public var items: [CalendarItem]
    /// Components kept as written: journals, free/busy, `X-` components, and
    /// items that could not be mapped (each reported by a diagnostic).
    public var components: [ContentComponent]
    /// Components the importer could not turn into items (no usable
    /// `DTSTART`, a second master with the same `UID`, …), kept as written,
    /// each reported by a diagnostic. Export leaves them out unless
    /// ``ICalendarExporter/Options/includeRejected`` is set: they are not valid
    /// RFC 5545, and export is strict.
    public var rejected: [ContentComponent] = []
    /// `VTIMEZONE`s of zones known only from the file (custom `TZID`s),
    /// written back unchanged. Zones with an IANA name are not kept: export
    /// writes them afresh from the system's zone data.
    public var timeZoneDefinitions: [ContentComponent]
    /// The rules of the zones this calendar defines for itself: each custom
    /// `TZID` of ``timeZoneDefinitions`` with what its `VTIMEZONE` says, as
    /// the importer read it. Its items' zoned times are read with these first,
    /// then with the system's zone data (`ZoneTable.rules(forTZID:)`).
    ///
    /// The zones belong to this calendar, not to the process: another
    /// calendar read in the same process may define the same `TZID` with
    /// other rules, and each keeps its own. ``schedule(applyingCalendarTimeZone:)``
    /// hands them to the `Schedule`; ``merge(_:)`` keeps a clashing
    /// definition apart under a new name. Keep this table and
    /// ``timeZoneDefinitions`` in step when changing either: export writes the
    /// definitions, and writes a `VTIMEZONE` from these rules for a zone used
    /// that has none.
    public var zones: ZoneTable

    /// Creates a calendar.
    ///
    /// - Parameters:
    ///   - name: the calendar's name (``name``).
    ///   - color: its colour (``color``).
    ///   - timeZone: Google's default zone, `X-WR-TIMEZONE` (``timeZone``).
    ///   - productID: the product that wrote it (``productID``).
    ///   - method: the iTIP method (``method``).
    ///   - properties: every other calendar property (``properties``).
    ///   - items: the events and tasks (``items``).
    ///   - components: components kept as written (``components``).
    ///   - timeZoneDefinitions: `VTIMEZONE`s of custom zones, written back as they are (``timeZoneDefinitions``).
    ///   - zones: the rules of the zones the calendar defines (``zones``).
    public init(
        name: String? = nil, color: ItemColor? = nil, timeZone: String? = nil, productID: String? = nil,
        method: String? = nil, properties: ContentLines = [], items: [CalendarItem] = [],
        components: [ContentComponent] = [], timeZoneDefinitions: [ContentComponent] = [], zones: ZoneTable = ZoneTable()
    ) {
        self.name = name
        self.color = color
        self.timeZone = timeZone
        self.productID = productID
        self.method = method
        self.properties = properties
        self.items = items
        self.components = components
        self.timeZoneDefinitions = timeZoneDefinitions
        self.zones = zones
    }

    /// The items as a `Schedule`, ready for occurrence queries.
    ///
    /// - Parameter applyingCalendarTimeZone: when the calendar has an
    ///   `X-WR-TIMEZONE` (Google), read events' floating times as wall times in
    ///   that zone and show their UTC times in it, as recurring-ical-events
    ///   does through `x-wr-timezone`. All-day dates and tasks are left alone.
    ///
    /// The schedule's `Schedule.timeZone` is the calendar's own zone
    /// (``calendarZone``), so views of it show its clock, not the machine's,
    /// and its `Schedule.zones` are this calendar's ``zones``, so a custom
    /// `TZID` is read with this calendar's rules for it.
    public func schedule(applyingCalendarTimeZone: Bool = true) -> Schedule {
        schedule(applyingCalendarTimeZone: applyingCalendarTimeZone, zoneNamedBy: [], compilingSeries: true)
    }

    /// The items as a `Schedule`, on the clock named by the first of
    /// `zoneProperties` the calendar has, else by `X-WR-TIMEZONE`
    /// (``calendarZone(namedBy:)``).
    ///
    /// - Parameters:
    ///   - applyingCalendarTimeZone: as in ``schedule(applyingCalendarTimeZone:)``.
    ///   - zoneProperties: calendar properties an application records the
    ///     calendar's own clock in, first first.
    public func schedule(applyingCalendarTimeZone: Bool = true, zoneNamedBy zoneProperties: [String]) -> Schedule {
        schedule(applyingCalendarTimeZone: applyingCalendarTimeZone, zoneNamedBy: zoneProperties, compilingSeries: true)
    }

    /// The schedule, with each series' rules compiled up front or in each query
    /// (`Schedule.init(items:timeZone:zones:compilingSeries:)`).
    package func schedule(applyingCalendarTimeZone: Bool = true, zoneNamedBy zoneProperties: [String] = [], compilingSeries: Bool) -> Schedule {
        let own = calendarZone(namedBy: zoneProperties).flatMap { try? zones.rules(forTZID: $0) }
        guard applyingCalendarTimeZone, let zone = timeZone.flatMap(ZoneRules.ianaIdentifier(forTZID:)),
              let rules = try? ZoneRules.named(zone) else { return Schedule(items: items, timeZone: own, zones: zones, compilingSeries: compilingSeries) }
        return Schedule(items: items.map { $0.kind == .event ? $0.placingFloatingTimes(in: zone, rules) : $0 }, timeZone: own ?? rules, zones: zones,
                        compilingSeries: compilingSeries)
    }

    /// The zone whose clock this calendar keeps, as Google and Apple write
    /// it (`X-WR-TIMEZONE`, ``timeZone``), as an IANA name; `nil` when it
    /// names none. A calendar whose application records its clock in a
    /// property of its own is read with ``calendarZone(namedBy:)``.
    ///
    /// Every view and listing of the calendar shows times on this clock
    /// unless the caller asks for another: the machine's zone never changes
    /// what an existing calendar shows. A calendar that names no zone is
    /// shown on the clock most of its items start in
    /// (`Schedule.timeZone`). The repository's Docs/TimeZones.md says which
    /// zone each command uses and why.
    public var calendarZone: String? { calendarZone(namedBy: []) }

    /// The zone whose clock this calendar keeps: the value of the first of
    /// `zoneProperties` the calendar has (``properties``), else
    /// `X-WR-TIMEZONE` (``timeZone``), as an IANA name; `nil` when it names
    /// none.
    ///
    /// This module knows no application's property: one that records a
    /// calendar's clock in its own (SchedulingICalendar's book zone, say)
    /// names it here, and views and merges read that clock first.
    /// - Parameter zoneProperties: calendar property names, first first.
    public func calendarZone(namedBy zoneProperties: [String]) -> String? {
        let own = zoneProperties.lazy.compactMap { name in self.properties.first { $0.name == name }?.value }.first
        return (own ?? timeZone).map { ZoneRules.ianaIdentifier(forTZID: $0) ?? $0 }
    }
}

extension ICalendar {
    /// Whether this is an iTIP answer about an event (RFC 5546 §3.2: a
    /// `METHOD` of `REPLY`, `COUNTER`, `REFRESH` or `DECLINECOUNTER` with a
    /// `VEVENT`), which is applied to what it answers rather than merged; a
    /// free/busy or a task's answer is not.
    public var isAnswerAboutAnEvent: Bool {
        guard let method = method?.uppercased(), ["REPLY", "COUNTER", "REFRESH", "DECLINECOUNTER"].contains(method) else { return false }
        return items.contains { $0.kind == .event } || components.contains { $0.name == "VEVENT" }
    }

    /// Removes every `VALARM` outside any event or task (a bare alarm file:
    /// an alarm belongs inside the item it reminds of, RFC 5545 §3.6.6).
    /// - Returns: how many were removed.
    public mutating func removeStrayAlarms() -> Int {
        let before = components.count
        components.removeAll { $0.name == "VALARM" }
        return before - components.count
    }
}

extension CalendarItem {
    /// The item with floating and UTC times moved into `zone` (X-WR-TIMEZONE;
    /// like x-wr-timezone, `UNTIL` is left alone).
    func placingFloatingTimes(in zone: String, _ rules: ZoneRules) -> CalendarItem {
        mappingTimes(includingUntil: false) { t in
            switch t {
            case .floating(let wall): .zoned(wall, zone)
            case .utc(let wall):
                // The second of two equal wall times stays in UTC: as a zoned
                // time it would read as the first (RFC 5545 §3.3.5).
                rules.instant(forWall: rules.wall(atInstant: wall.localSeconds)) == wall.localSeconds
                    ? .zoned(LocalDateTime(localSeconds: rules.wall(atInstant: wall.localSeconds)), zone) : t
            case .date, .zoned: t
            }
        }
    }

    /// The item with `f` applied to every time it holds: start, end, `RDATE`s (and their periods' ends),
    /// `EXDATE`s, optionally rules' `UNTIL`, and its overrides' recurrence IDs and times.
    func mappingTimes(includingUntil: Bool, _ f: (CalendarTime) -> CalendarTime) -> CalendarItem {
        var copy = self
        copy.start = f(start)
        if case .at(let e) = end { copy.end = .at(f(e)) }
        copy.recurrenceDates = recurrenceDates.map(f)
        if !recurrenceDateEnds.isEmpty {
            copy.recurrenceDateEnds = recurrenceDateEnds.map { p in
                guard case .at(let e) = p.end else { return .init(start: f(p.start), end: p.end) }
                return .init(start: f(p.start), end: .at(f(e)))
            }
        }
        copy.exceptionDates = exceptionDates.map(f)
        if includingUntil {
            for i in copy.recurrenceRules.indices { copy.recurrenceRules[i].until = copy.recurrenceRules[i].until.map(f) }
        }
        copy.overrides = overrides.map { o in
            var o = o
            o.recurrenceID = f(o.recurrenceID)
            o.item = o.item.mappingTimes(includingUntil: includingUntil, f)
            return o
        }
        return copy
    }
}

/// A problem found while importing, with where it is and what to do.
public struct ICalendarDiagnostic: Hashable, Sendable, CustomStringConvertible {
    /// How serious a problem is.
    public enum Severity: String, Hashable, Sendable, Comparable {
        /// Valid iCalendar that is worth knowing about; nothing was repaired
        /// (changed instances whose series is elsewhere, as an invitation to
        /// one instance holds them). Strict mode lets notes pass.
        case note
        /// Repaired or worked around; the data is imported.
        case warning
        /// Something could not be imported as an item; it is kept as written
        /// where possible and reported.
        case error

        /// Notes sort before warnings, warnings before errors.
        public static func < (a: Severity, b: Severity) -> Bool { a.rank < b.rank }

        private var rank: Int {
            switch self {
            case .note: 0
            case .warning: 1
            case .error: 2
            }
        }
    }

    /// What kind of problem it is.
    public struct Code: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
        /// The code's name.
        public let rawValue: String
        /// Names a code.
        /// - Parameter rawValue: the name.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The name.
        public var description: String { rawValue }

        /// A line that is not `NAME;PARAMS:VALUE`.
        public static let malformedLine = Code(rawValue: "malformedLine")
        /// A line longer than ``ImportOptions/maxLineBytes``.
        public static let lineTooLong = Code(rawValue: "lineTooLong")
        /// Bytes that are not UTF-8.
        public static let invalidUTF8 = Code(rawValue: "invalidUTF8")
        /// `BEGIN`/`END` that do not pair up, or a file cut short.
        public static let unbalanced = Code(rawValue: "unbalanced")
        /// Components nested deeper than ``ImportOptions/maxDepth``.
        public static let tooDeep = Code(rawValue: "tooDeep")
        /// A component larger than ``ImportOptions/maxComponentBytes``.
        public static let componentTooLarge = Code(rawValue: "componentTooLarge")
        /// A component with more lines than ``ImportOptions/maxPropertiesPerComponent``.
        public static let tooManyProperties = Code(rawValue: "tooManyProperties")
        /// A required property is missing (`UID`, `DTSTAMP`, `DTSTART`).
        public static let missingProperty = Code(rawValue: "missingProperty")
        /// A value that cannot be read (a date, a duration, a rule).
        public static let invalidValue = Code(rawValue: "invalidValue")
        /// A `TZID` with no `VTIMEZONE` and no known name.
        public static let unknownTimeZone = Code(rawValue: "unknownTimeZone")
        /// Two components claim the same item.
        public static let duplicate = Code(rawValue: "duplicate")
        /// Changed instances with no series master.
        public static let orphanOverride = Code(rawValue: "orphanOverride")
        /// A changed instance whose `RECURRENCE-ID` names no instance its series has.
        public static let unmatchedOverride = Code(rawValue: "unmatchedOverride")
        /// libical's checks were asked for, and this build has none (the
        /// `LibICal` package trait is off; ``ImportOptions/libicalIsAvailable``).
        public static let libicalUnavailable = Code(rawValue: "libicalUnavailable")
        /// Something libical reported (`X-LIC-ERROR`).
        public static let libicalError = Code(rawValue: "libicalError")
        /// Anything else worth knowing.
        public static let other = Code(rawValue: "other")
    }

    /// Warning or error.
    public var severity: Severity
    /// The 1-based line the problem is on (the component's `BEGIN` line when
    /// the problem is the component's as a whole).
    public var line: Int
    /// The kind of problem.
    public var code: Code
    /// What is wrong and what to do, for a person.
    public var message: String

    /// How many problems this diagnostic stands for: 1, or, for the summary
    /// of the problems of one kind past ``ImportOptions/maxDiagnosticsPerKind``
    /// ("and 9,900 more like it"), how many it summarises.
    public var count = 1

    /// Whether the text this problem is about was kept as written (an end
    /// before its start, a rule in another calendar scale, a time zone that
    /// cannot be evaluated): see ``losesText``.
    var keptAsWritten = false

    /// Creates a diagnostic.
    public init(_ severity: Severity, line: Int, _ code: Code, _ message: String) {
        self.severity = severity
        self.line = line
        self.code = code
        self.message = message
    }

    /// `line 12: error: …`.
    public var description: String { "line \(line): \(severity.rawValue): \(message)" }

    /// Whether writing the calendar back would lose text this problem is
    /// about, or hide that the file was damaged: a line or value that was
    /// skipped or ignored (an error about a value), a component not imported
    /// (past a limit), bytes that were not UTF-8, `BEGIN`/`END` that did not
    /// pair up (an unclosed component, a file cut short). What the import
    /// keeps as written (a duplicate, an item without a usable start, what
    /// libical cannot read, an end before its start, a `CREATED` it cannot
    /// read) is not lost: a calendar file keeps it, and it would be said
    /// again after every save, so it never blocks one.
    ///
    /// A store that saves a calendar back where it was read (CalendarStore's
    /// `CalendarFile.update`) refuses to save over a file with such a
    /// problem unless asked to.
    public var losesText: Bool {
        switch code {
        case .malformedLine, .lineTooLong, .invalidUTF8, .unbalanced, .tooDeep, .componentTooLarge, .tooManyProperties: true
        case .invalidValue: severity == .error && !keptAsWritten
        default: false
        }
    }
}

extension ICalendarDiagnostic {
    /// The kind of a problem, for ``ImportOptions/maxDiagnosticsPerKind``:
    /// its code, its severity, and whether it loses text.
    private struct Kind: Hashable {
        var code: Code
        var severity: Severity
        var losesText: Bool
    }

    /// `diagnostics` (in line order) with at most `limit` of each kind (the
    /// same code and severity): the rest of a kind become one summary, in the
    /// place of the first left out, with their number (``count``), severity
    /// and code, and the lines they are on.
    static func bounded(_ diagnostics: [ICalendarDiagnostic], perKind limit: Int) -> [ICalendarDiagnostic] {
        let limit = max(limit, 1)
        guard diagnostics.count > limit else { return diagnostics }
        var seen: [Kind: Int] = [:]
        // Per kind: where its summary is in `out`, and the last line it covers.
        var summaries: [Kind: (index: Int, lastLine: Int)] = [:]
        var out: [ICalendarDiagnostic] = []
        for d in diagnostics {
            let kind = Kind(code: d.code, severity: d.severity, losesText: d.losesText)
            let n = seen[kind, default: 0]
            seen[kind] = n + 1
            if n < limit {
                out.append(d)
            } else if let summary = summaries[kind] {
                out[summary.index].count += d.count
                summaries[kind] = (summary.index, d.line)
            } else {
                summaries[kind] = (out.count, d.line)
                out.append(d)
            }
        }
        for (kind, summary) in summaries {
            let d = out[summary.index]
            let lines = d.line == summary.lastLine ? "on line \(d.line)" : "on lines \(Self.grouped(d.line)) to \(Self.grouped(summary.lastLine))"
            out[summary.index].message = "and \(Self.grouped(d.count)) more like it (\(kind.code)), \(lines): only the first \(Self.grouped(limit)) problems of a kind are listed; the first left out: \(d.message)"
        }
        return out
    }

    /// `12345` as `12,345`, whatever the locale.
    static func grouped(_ n: Int) -> String {
        let digits = String(n.magnitude)
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0, (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return (n < 0 ? "-" : "") + out
    }
}

/// Limits and strictness for an import.
///
/// The limits keep a hostile or broken file from taking the process's memory
/// or time; each is documented with what happens when a file reaches it, and
/// each has a test that reaches it (`ICalendarLimitTests`).
///
/// | limit | default | past it |
/// |---|---|---|
/// | ``maxFileBytes`` | 2 GiB | the import fails: ``ICalendarError/Code/tooLarge`` |
/// | ``maxComponents`` | 1,000,000 | the import fails: ``ICalendarError/Code/tooLarge`` |
/// | ``maxComponentBytes`` | 16 MiB | that component is not imported: ``ICalendarDiagnostic/Code/componentTooLarge`` |
/// | ``maxPropertiesPerComponent`` | 10,000 | that component is not imported: ``ICalendarDiagnostic/Code/tooManyProperties`` |
/// | ``maxLineBytes`` | 1 MiB | that property is not imported: ``ICalendarDiagnostic/Code/lineTooLong`` |
/// | ``maxDepth`` | 16 | that component is not imported: ``ICalendarDiagnostic/Code/tooDeep`` |
/// | ``maxDiagnosticsPerKind`` | 100 | the rest of that kind are one summary diagnostic (``ICalendarDiagnostic/count``) |
///
/// A failed import keeps nothing, so that a calendar is never half read
/// without notice; a component or property left out is always reported with
/// its line. Expansion has its own limit: `RecurrenceSet.maxInstances`.
public struct ImportOptions: Hashable, Sendable {
    /// Turn every warning into an error and fail the import on any error.
    public var strict: Bool
    /// The longest content line accepted, unfolded (default 1 MiB). A longer
    /// line is cut, reported, and its property is not imported.
    public var maxLineBytes: Int
    /// The largest single component, with its subcomponents (default 16 MiB).
    public var maxComponentBytes: Int
    /// The deepest nesting of components (default 16; real files use 3).
    public var maxDepth: Int
    /// The largest file read (default 2 GiB).
    public var maxFileBytes: Int
    /// The most components a calendar may hold: events, tasks, time zones
    /// and any other top-level component (default 1,000,000). A larger file
    /// fails with ``ICalendarError/Code/tooLarge``.
    public var maxComponents: Int
    /// The most content lines one component may hold, its subcomponents'
    /// included (default 10,000; real events have tens). A component with
    /// more is reported and not imported.
    public var maxPropertiesPerComponent: Int
    /// Whether libical reads each `VEVENT` and `VTODO` as well (default:
    /// ``libicalIsAvailable``, so `true` in a default build).
    ///
    /// In a build without the `LibICal` package trait there is no libical:
    /// asked for anyway, its checks do not run and the import says so, as a
    /// warning (``ICalendarDiagnostic/Code/libicalUnavailable``), rather than
    /// let a caller believe a file passed them.
    ///
    /// With it, libical's parse of each component (on a second thread, beside
    /// the import) reports what libical finds wrong as warnings
    /// (``ICalendarDiagnostic/Code/libicalError``), and a component libical
    /// cannot read at all is rejected, kept as written. The values the
    /// calendar holds are the same either way: they are read from the lines
    /// themselves, never from libical (Docs/ICalendar.md says why). Turn it
    /// off where those findings are not wanted, for a read-only look at a
    /// calendar: it costs about as much CPU time as the rest of the import
    /// (measured in Docs/ICalendar.md), though little wall time on a second core.
    public var checksWithLibICal: Bool

    /// Whether this build has libical: the `LibICal` package trait, on by default.
    ///
    /// Off (`swift build --disable-default-traits`, or `traits: []` where an
    /// app depends on Horari, as an iOS app must), ICalendarKit has no C code
    /// and imports and exports through its Swift reader and writer alone;
    /// only libical's own validation and diagnostics are missing.
    #if LibICal
    public static let libicalIsAvailable = true
    #else
    public static let libicalIsAvailable = false
    #endif

    /// Which libical this process runs, for a verdict of libical's kept
    /// for later to hold for this one only: the file the loader mapped
    /// (`/usr/lib/x86_64-linux-gnu/libical.so.3.0.16`, where the headers'
    /// `ICAL_VERSION` says `3.0`), else that; `nil` in a build without libical.
    package static let libicalVersion: String? = {
        #if LibICal
        // Read to its end: the kernel gives a size of 0 for it.
        let maps = FileHandle(forReadingAtPath: "/proc/self/maps").map { String(decoding: $0.readDataToEndOfFile(), as: UTF8.self) } ?? ""
        let file = maps.split(separator: "\n").lazy.compactMap { $0.split(separator: " ").last }.first { $0.contains("/libical.so") }
        return file.map(String.init) ?? LibICal.headerVersion
        #else
        return nil
        #endif
    }()
    /// How much of each event and task is kept (default ``ItemDetail/complete``).
    public var detail: ItemDetail
    /// The most diagnostics of one kind (the same code and severity) an
    /// import reports (default 100, at least 1).
    ///
    /// Past it, the rest of that kind are one summary diagnostic, in the
    /// place of the first left out: "and 99,900 more like it", with their
    /// number in ``ICalendarDiagnostic/count`` (``ImportResult/problemCount``
    /// totals them), so that a file of 100,000 broken components gives a
    /// report a person can read, and an app holds a few hundred diagnostics,
    /// not hundreds of thousands. (They are all found first: the import's
    /// memory grows with them until it ends.) Strict mode fails as before.
    public var maxDiagnosticsPerKind: Int

    /// How much of each event and task an import keeps.
    public enum ItemDetail: Hashable, Sendable {
        /// Everything: the calendar exports back as it came (the default).
        case complete
        /// What expansion reads — `UID`, kind, title, times and length,
        /// recurrence and changed instances, status, colour, sequence —
        /// without descriptions, locations, categories, alarms, kept
        /// properties and extra parameters: for a read-only pass over a
        /// large file (`horari occurrences` holds a 50,000-event file in a
        /// third less memory).
        ///
        /// A calendar read this way is not the file: never save or export
        /// it, it would lose what was skipped. The diagnostics are the same.
        case schedule
    }

    /// Creates options; the defaults are tolerant and generous.
    /// - Parameters:
    ///   - strict: turn every warning into an error and fail on any (``strict``).
    ///   - maxLineBytes: the longest content line, unfolded (``maxLineBytes``).
    ///   - maxComponentBytes: the largest single component (``maxComponentBytes``).
    ///   - maxDepth: the deepest nesting of components (``maxDepth``).
    ///   - maxFileBytes: the largest file read (``maxFileBytes``).
    ///   - maxComponents: the most top-level components (``maxComponents``).
    ///   - maxPropertiesPerComponent: the most lines in one component (``maxPropertiesPerComponent``).
    ///   - checksWithLibICal: whether libical reads each event and task as well (``checksWithLibICal``).
    ///   - detail: how much of each event and task is kept (``detail``).
    ///   - maxDiagnosticsPerKind: the most diagnostics of one kind reported (``maxDiagnosticsPerKind``).
    public init(strict: Bool = false, maxLineBytes: Int = 1 << 20, maxComponentBytes: Int = 16 << 20, maxDepth: Int = 16, maxFileBytes: Int = 2 << 30,
                maxComponents: Int = 1_000_000, maxPropertiesPerComponent: Int = 10_000, checksWithLibICal: Bool = ImportOptions.libicalIsAvailable, detail: ItemDetail = .complete,
                maxDiagnosticsPerKind: Int = 100) {
        self.strict = strict
        self.maxDiagnosticsPerKind = max(maxDiagnosticsPerKind, 1)
        self.checksWithLibICal = checksWithLibICal
        self.detail = detail
        self.maxLineBytes = maxLineBytes
        self.maxComponentBytes = maxComponentBytes
        self.maxDepth = maxDepth
        self.maxFileBytes = maxFileBytes
        self.maxComponents = maxComponents
        self.maxPropertiesPerComponent = maxPropertiesPerComponent
    }
}

/// What an import produced: the calendar and every problem found.
public struct ImportResult: Hashable, Sendable {
    /// The calendar.
    public var calendar: ICalendar
    /// Every problem, in line order; past ``ImportOptions/maxDiagnosticsPerKind``
    /// of a kind, one summary of the rest (see ``problemCount``).
    public var diagnostics: [ICalendarDiagnostic]
    /// Where the text put the calendar's components and properties, for a
    /// result read from one text; empty for one made of several.
    public var sourceLines: ICalendarSourceLines

    /// A result: a calendar and its diagnostics (a store that reads a
    /// calendar from several files makes one), and where one text put its parts.
    public init(calendar: ICalendar, diagnostics: [ICalendarDiagnostic], sourceLines: ICalendarSourceLines = ICalendarSourceLines()) {
        self.calendar = calendar
        self.diagnostics = diagnostics
        self.sourceLines = sourceLines
    }

    /// Whether any diagnostic is an error.
    public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }
    /// How many problems the import found: the diagnostics, each summary
    /// counted as the problems it stands for (``ICalendarDiagnostic/count``).
    public var problemCount: Int { diagnostics.reduce(0) { $0 + $1.count } }
    /// How many problems of one severity the import found (summaries counted in full).
    /// - Parameter severity: note, warning or error.
    public func problemCount(_ severity: ICalendarDiagnostic.Severity) -> Int {
        diagnostics.reduce(0) { $0 + ($1.severity == severity ? $1.count : 0) }
    }
    /// The problems that saving over the file would lose or hide
    /// (``ICalendarDiagnostic/losesText``): empty when it imported cleanly.
    public var damage: [ICalendarDiagnostic] { diagnostics.filter(\.losesText) }
}

/// Why a whole import or save failed.
public struct ICalendarError: CodedError, Hashable, Sendable {
    /// The kind of failure; `catch ICalendarError.Code.rejected` names one.
    public struct Code: ErrorCode {
        /// The error type whose kinds these are.
        public typealias Coded = ICalendarError
        /// The code's name.
        public let rawValue: String
        /// Names a code.
        /// - Parameter rawValue: the name.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// Every code in the order of its table, numbered from 1 (Docs/Errors.md).
        public static let numbered: [Code] = [.notICalendar, .tooLarge, .io, .rejected, .damaged, .invalidJCal]

        /// The input holds no `BEGIN:VCALENDAR` (empty, binary, another format).
        public static let notICalendar = Code(rawValue: "notICalendar")
        /// The input is larger than ``ImportOptions/maxFileBytes``, or holds
        /// more components than ``ImportOptions/maxComponents``.
        public static let tooLarge = Code(rawValue: "tooLarge")
        /// The file could not be read or written.
        public static let io = Code(rawValue: "io")
        /// Strict mode found problems; see ``ICalendarError/diagnostics``.
        public static let rejected = Code(rawValue: "rejected")
        /// A calendar file did not import cleanly (``ImportResult/damage``,
        /// in ``ICalendarError/diagnostics``), so a change was not saved over
        /// it: the file is as it was.
        public static let damaged = Code(rawValue: "damaged")
        /// A jCal document (RFC 7265) that is not JSON, or not jCal: the
        /// message names the JSON's line and column (``JCalError``).
        public static let invalidJCal = Code(rawValue: "invalidJCal")
    }

    /// The kind of failure.
    public var code: Code
    /// What went wrong, for a person, and what to do when there is something to do.
    public var message: String
    /// What to do about it, when the message has a remedy: the end of ``message``.
    public var recoverySuggestion: String?
    /// The problems behind a ``Code/rejected`` import.
    public var diagnostics: [ICalendarDiagnostic]
    /// The error this one was made from (the file system's, for ``Code/io``),
    /// when there is one; not part of `==`.
    public var underlying: (any Error)?

    /// Creates an error.
    /// - Parameters:
    ///   - code: the kind of failure.
    ///   - message: what went wrong, for a person.
    ///   - suggestion: what to do about it; ``message`` is then the two, joined by a semicolon.
    ///   - diagnostics: the problems behind a rejected import.
    ///   - underlying: the error this one was made from.
    public init(_ code: Code, _ message: String, suggestion: String? = nil, diagnostics: [ICalendarDiagnostic] = [], underlying: (any Error)? = nil) {
        self.code = code
        self.message = suggestion.map { "\(message); \($0)" } ?? message
        self.recoverySuggestion = suggestion
        self.diagnostics = diagnostics
        self.underlying = underlying
    }

    /// Equal when code, message, suggestion and diagnostics are.
    public static func == (a: ICalendarError, b: ICalendarError) -> Bool {
        (a.code, a.message, a.recoverySuggestion, a.diagnostics) == (b.code, b.message, b.recoverySuggestion, b.diagnostics)
    }

    /// Hashes code, message, suggestion and diagnostics.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(message)
        hasher.combine(recoverySuggestion)
        hasher.combine(diagnostics)
    }

    /// The message, and the diagnostics one per line.
    public var description: String {
        ([message] + diagnostics.map(\.description)).joined(separator: "\n")
    }

    /// The sentence, the suggestion and the underlying error, under Foundation's keys.
    public var errorUserInfo: [String: Any] { foundationUserInfo(underlying: underlying) }
}
