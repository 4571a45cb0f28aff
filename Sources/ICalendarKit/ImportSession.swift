import CalendarCore
import Foundation

// The state of one import, across the files that read it: the line
// reader's state machine (ImportSession+Reading.swift), the mapping of
// properties to items (ImportSession+Items.swift), time zones
// (ImportSession+TimeZones.swift), and the changed instances and libical's
// findings put in place at the end (ImportSession+Finishing.swift).

/// Which components RFC 5545 lets begin inside which, for recovering from a
/// lost `END`.
enum ComponentNesting {
    /// Components that only a `VCALENDAR` holds (RFC 5545 §3.6, RFC 7953).
    static let calendarLevel: Set<String> = ["VEVENT", "VTODO", "VJOURNAL", "VFREEBUSY", "VTIMEZONE", "VAVAILABILITY"]
    /// Components whose contents RFC 5545 and its extensions define: none of
    /// them holds a calendar-level component. An `X-` or unknown component is
    /// not here: what it holds is its own business (RFC 5545 §3.6), and it is
    /// kept as written.
    static let defined: Set<String> = [
        "VEVENT", "VTODO", "VJOURNAL", "VFREEBUSY", "VTIMEZONE", "VAVAILABILITY", "VALARM", "STANDARD", "DAYLIGHT",
        "AVAILABLE", "VLOCATION", "VRESOURCE", "PARTICIPANT",
    ]

    /// Whether a `BEGIN:inner` inside an open `outer` shows that `outer` lost its `END`.
    static func cannotContain(_ outer: String, _ inner: String) -> Bool {
        calendarLevel.contains(inner) && defined.contains(outer)
    }
}

/// A component's lines arranged as a tree, each property with its line.
struct RawNode {
    var name: String
    var line: Int
    var properties: [(ParsedLine, Int)] = []
    var children: [RawNode] = []

    var contentComponent: ContentComponent {
        ContentComponent(name: name, properties: ContentLines(properties.map { $0.0.line }), components: children.map(\.contentComponent))
    }

    func first(_ name: String) -> (ParsedLine, Int)? { properties.first { $0.0.name == name } }
}

/// The state of one import.
struct ImportSession {
    let options: ImportOptions
    var calendar = ICalendar()
    /// Where the text put the components kept and the calendar's properties.
    var sourceLines = ICalendarSourceLines()
    var diagnostics: [ICalendarDiagnostic] = []
    var sawCalendarData = false

    /// Changed instances mapped so far, put with their masters in `finish()`.
    /// Masters go straight into `calendar.items` (one copy of each item, not two).
    var pending: [PendingItem] = []
    /// The index in `calendar.items` of each master, by UID (the first master of a UID wins).
    var masterIndex = UIDIndex()
    #if LibICal
    /// libical's parse of every item, beside ours (see ``LibICalChecker``);
    /// `nil` when ``ImportOptions/checksWithLibICal`` is off.
    let libical: LibICalChecker?
    /// Whether libical reads each item beside ours in this import.
    var libicalChecks: Bool { libical != nil }
    #else
    /// Whether libical reads each item beside ours: never, in a build
    /// without the `LibICal` trait (the import reports that, when asked).
    var libicalChecks: Bool { false }
    #endif
    /// Each item handed to `libical`, by ticket: its first line and where it went.
    var checks: [CheckedItem] = []

    /// 8 bytes an item (it was 24: a fifth of the 50,000-event import's peak
    /// was tables like this one). A line number and a position fit in 32 bits:
    /// a 2 GiB file has fewer lines than that.
    struct CheckedItem {
        enum Place { case none, master(Int), override(Int) }
        private var storedLine: Int32
        /// 0 none, n > 0 master n - 1, n < 0 changed instance -n - 1.
        private var storedPlace: Int32 = 0

        init(line: Int) { storedLine = Int32(clamping: line) }

        var line: Int { Int(storedLine) }

        var place: Place {
            get { storedPlace == 0 ? .none : storedPlace > 0 ? .master(Int(storedPlace) - 1) : .override(Int(-storedPlace) - 1) }
            set {
                switch newValue {
                case .none: storedPlace = 0
                case .master(let i): storedPlace = Int32(clamping: i + 1)
                case .override(let i): storedPlace = Int32(clamping: -(i + 1))
                }
            }
        }
    }
    /// TZIDs that are neither IANA nor (yet) defined by a VTIMEZONE, with the first line using each.
    var unresolvedTZIDs: [String: Int] = [:]
    /// TZIDs defined by this file's VTIMEZONEs.
    var definedTZIDs: Set<String> = []
    var seenCalendarProperties: Set<String> = []
    /// The calendar's own properties kept as written, put in `calendar` by `finish()`.
    var calendarLines: [ContentLine] = []
    /// `systemName(_:)` answers, per TZID as written (a hot path: every time property).
    var systemNames: [String: String?] = [:]

    struct PendingItem {
        var item: CalendarItem
        var recurrenceID: CalendarTime?
        var thisAndFuture: Bool
        var line: Int
        /// The component as written, in case it loses to a duplicate with a
        /// higher SEQUENCE. Kept only for changed instances: holding it for
        /// every item would double the import's memory.
        var raw: ContentComponent
        /// The diagnostics its reading reported (positions in `diagnostics`),
        /// which are about text kept as written if it loses.
        var diagnostics: Range<Int>
    }

    init(options: ImportOptions) {
        self.options = options
        #if LibICal
        libical = options.checksWithLibICal ? LibICalChecker() : nil
        #endif
    }

    /// Records a problem; `keptAsWritten` when the text it is about stays as
    /// it was (``ICalendarDiagnostic/losesText`` is then false).
    mutating func report(_ severity: ICalendarDiagnostic.Severity, _ line: Int, _ code: ICalendarDiagnostic.Code, _ message: String,
                         keptAsWritten: Bool = false) {
        var d = ICalendarDiagnostic(severity, line: line, code, message)
        d.keptAsWritten = keptAsWritten
        diagnostics.append(d)
    }

    /// Marks the diagnostics at `positions` as about text kept as written: the
    /// component they are in was set aside whole (``ICalendar/rejected``).
    mutating func keptAsWritten(_ positions: Range<Int>) {
        for i in positions where i < diagnostics.count { diagnostics[i].keptAsWritten = true }
    }
}
