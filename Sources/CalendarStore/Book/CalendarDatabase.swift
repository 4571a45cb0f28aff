import Foundation

// A database that keeps, beside a book's records, the calendar the book is
// shown in (issue 40, 1 and 3): what `CalendarStore` needs of a database to
// read and change a calendar there, with the same commit as the book's. SQLite
// and PostgreSQL implement it; so can an app's own backend, which then works
// with `CalendarStore`, `SchedulingStore` and the CLI unchanged.

/// The calendar a book is shown in, as a database keeps it beside the
/// book's records: the calendar's own properties, and each other top-level
/// component as iCalendar text.
///
/// The text is what ``CalendarStore`` wrote; a database keeps it as bytes
/// and gives it back unchanged, in order.
public struct CalendarText: Hashable, Sendable {
    /// One top-level component (an event, a task, a zone, a record as last
    /// written with what other programs added to it).
    public struct Component: Hashable, Sendable {
        /// Its name: `VEVENT`, `VTODO`, `VTIMEZONE`, …
        public var name: String
        /// Its `UID`, when it has one.
        public var uid: String?
        /// Its iCalendar text, `BEGIN` to `END` with the line breaks.
        public var text: Data
        /// The first instant (Unix seconds) any occurrence of it can touch,
        /// with a margin; `nil` for a component with no time (a zone, an
        /// undated task, a record), which every window holds.
        public var starts: Int64?
        /// The last instant (Unix seconds) any occurrence of it can touch,
        /// with a margin; `nil` for a series with no end, or no time.
        public var ends: Int64?

        /// A component.
        /// - Parameters:
        ///   - name: its name.
        ///   - uid: its `UID`.
        ///   - text: its iCalendar text.
        ///   - starts: the first instant it can touch (`nil`: no time, every window holds it).
        ///   - ends: the last instant it can touch (`nil`: no end).
        public init(name: String, uid: String?, text: Data, starts: Int64? = nil, ends: Int64? = nil) {
            self.name = name
            self.uid = uid
            self.text = text
            self.starts = starts
            self.ends = ends
        }

        /// Whether it can touch the instants from `start` up to `end`
        /// (Unix seconds): a component with no time always can.
        public func canTouch(from start: Int64, to end: Int64) -> Bool {
            guard let starts else { return true }
            return starts < end && (ends ?? .max) > start
        }
    }

    /// The calendar's own text: `BEGIN:VCALENDAR`, its properties, `END:VCALENDAR`.
    public var header: Data
    /// Its components, in order.
    public var components: [Component]

    /// A calendar's text.
    public init(header: Data, components: [Component]) {
        self.header = header
        self.components = components
    }
}

extension CalendarText.Component {
    /// Its reach as a database keeps it, in two `NOT NULL` columns (SQLite's
    /// and PostgreSQL's): no time is the whole line, no end the largest integer.
    package var storedReach: (starts: Int64, ends: Int64) {
        (starts ?? .min, starts == nil ? .max : ends ?? .max)
    }

    /// A component read back from a database's columns (``storedReach``).
    package init(name: String, uid: String?, text: Data, storedStarts: Int64, storedEnds: Int64) {
        self.init(name: name, uid: uid, text: text, starts: storedStarts == .min ? nil : storedStarts,
                  ends: storedStarts == .min || storedEnds == .max ? nil : storedEnds)
    }
}

/// A book's records and its calendar's text, read together at one revision.
public struct StoredCalendar: Sendable {
    /// The book's records and the store's revision.
    public var snapshot: BookSnapshot
    /// The calendar's text; `nil` when none was ever written.
    public var text: CalendarText?
    /// The `UID`s of the components a read for a window left out
    /// (``CalendarDatabase/loadCalendar(touchingFrom:to:)``), one per
    /// component (a series with overrides is named for each): what the
    /// short IDs a view prints must stay unique among. Empty for a whole read.
    public var unreadUIDs: [String]

    /// What a database holds.
    /// - Parameters:
    ///   - snapshot: the book's records and the store's revision.
    ///   - text: the calendar's text.
    ///   - unreadUIDs: the `UID`s of the components a read for a window left out.
    public init(snapshot: BookSnapshot, text: CalendarText?, unreadUIDs: [String] = []) {
        self.snapshot = snapshot
        self.text = text
        self.unreadUIDs = unreadUIDs
    }
}

/// A ``BookStorage`` that also keeps the calendar the book is shown in:
/// what ``CalendarStore`` reads and changes a calendar through, on
/// ``CalendarLocation/database(_:)`` (``SQLiteBookStorage``) and
/// ``CalendarLocation/server(_:)`` (the `CalendarStorePostgres` product's
/// `PostgresBookStorage`, or an app's own backend, handed to
/// ``CalendarStore/init(_:database:options:)``).
///
/// Its two calls extend the storage's guarantees to the calendar's text:
/// ``loadCalendar()`` reads the records and the text at one revision, and
/// ``commit(_:calendar:)`` commits the text with the records and the
/// messages owed, all or nothing, under the same compare-and-set. The
/// `BookStorageConformance` suite checks both.
public protocol CalendarDatabase: BookStorage {
    /// The book's records and the calendar's text, read together at one revision.
    func loadCalendar() async throws -> StoredCalendar
    /// Makes a commit, as ``BookStorage/commit(_:)`` does, replacing the
    /// calendar's text with `calendar` in the same transaction (`nil`
    /// leaves it as it is).
    /// - Returns: `true` when made; `false` when the store has moved on (nothing was written).
    func commit(_ commit: BookCommit, calendar: CalendarText?) async throws -> Bool
    /// ``loadCalendar()`` for a view: the book's records, the calendar's
    /// own text, and the components that can touch the instants from
    /// `start` up to `end` (Unix seconds) — those whose
    /// ``CalendarText/Component/canTouch(from:to:)`` says so; more is no
    /// error, fewer is. The default reads everything and keeps those; a
    /// database that indexes ``CalendarText/Component/starts`` and
    /// ``CalendarText/Component/ends`` (``SQLiteBookStorage`` does) reads
    /// only them, so a month view costs its month.
    func loadCalendar(touchingFrom start: Int64, to end: Int64) async throws -> StoredCalendar
}

extension CalendarDatabase {
    /// Reads every component and keeps those that can touch the window.
    public func loadCalendar(touchingFrom start: Int64, to end: Int64) async throws -> StoredCalendar {
        var read = try await loadCalendar()
        guard let text = read.text else { return read }
        read.text?.components = text.components.filter { $0.canTouch(from: start, to: end) }
        read.unreadUIDs = text.components.compactMap { $0.canTouch(from: start, to: end) ? nil : $0.uid }
        return read
    }

    /// A commit of the book alone: the calendar's text is left as it is.
    public func commit(_ commit: BookCommit) async throws -> Bool {
        try await self.commit(commit, calendar: nil)
    }
}

/// Any ``CalendarDatabase``, as one type: what ``BookStore`` is made on
/// inside ``CalendarStore`` and ``SchedulingStore``, which take databases of
/// every kind.
struct SomeCalendarDatabase: CalendarDatabase {
    let base: any CalendarDatabase

    func load() async throws -> BookSnapshot { try await base.load() }
    func load(_ keys: Set<RecordKey>) async throws -> BookSnapshot { try await base.load(keys) }
    func commit(_ commit: BookCommit) async throws -> Bool { try await base.commit(commit) }
    func hasCommitted(_ commitID: String) async throws -> Bool { try await base.hasCommitted(commitID) }
    func owedMessages() async throws -> [OwedMessage] { try await base.owedMessages() }
    func markDelivered(_ messageIDs: [String]) async throws { try await base.markDelivered(messageIDs) }
    func loadCalendar() async throws -> StoredCalendar { try await base.loadCalendar() }
    func loadCalendar(touchingFrom start: Int64, to end: Int64) async throws -> StoredCalendar {
        try await base.loadCalendar(touchingFrom: start, to: end)
    }
    func commit(_ commit: BookCommit, calendar: CalendarText?) async throws -> Bool { try await base.commit(commit, calendar: calendar) }
}
