import Foundation

/// An event or a task in a calendar.
///
/// ```swift
/// var yoga = CalendarItem(uid: "yoga-1", title: "Yoga",
///                         start: .zoned(try LocalDateTime(year: 2026, month: 3, day: 2, hour: 18), "Europe/Madrid"),
///                         end: .duration(.init(seconds: 3600)))
/// yoga.color = try .named("teal")
/// yoga.recurrenceRules = [try RecurrenceRule(parsing: "FREQ=WEEKLY;BYDAY=MO,WE")]
/// try yoga.validate()
/// ```
public struct CalendarItem: Hashable, Sendable, Codable, Identifiable {
    /// Whether the item is an event (`VEVENT`) or a task (`VTODO`).
    public enum Kind: String, Hashable, Sendable, Codable {
        /// Something that happens at a time.
        case event
        /// Something to do, due at a time.
        case task
    }

    /// How an item's end is given.
    public enum End: Hashable, Sendable, Codable {
        /// An explicit end (`DTEND`, or `DUE` for a task). For an all-day start
        /// it is a date and *exclusive*: a one-day event on 2 March ends on 3 March.
        case at(CalendarTime)
        /// A length (`DURATION`): whole days on the wall clock plus exact seconds.
        case duration(ItemDuration)

        private enum CodingKeys: String, CodingKey { case at, duration }

        /// Decodes `{"at": "2026-11-25T19:30:00+01:00[Europe/Madrid]"}` or
        /// `{"duration": {"days": 0, "seconds": 3600}}`.
        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            if let time = try c.decodeIfPresent(CalendarTime.self, forKey: .at) {
                self = .at(time)
            } else {
                self = .duration(try c.decode(ItemDuration.self, forKey: .duration))
            }
        }

        /// Encodes `{"at": …}` or `{"duration": …}`.
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            switch self {
            case .at(let t): try c.encode(t, forKey: .at)
            case .duration(let d): try c.encode(d, forKey: .duration)
            }
        }
    }

    /// The own end of an `RDATE` given as a period (`RDATE;VALUE=PERIOD`,
    /// RFC 5545 §3.8.5.2): the instance that starts at ``start`` ends at
    /// ``end`` rather than after the item's own length.
    ///
    /// ```swift
    /// item.recurrenceDates.append(start)
    /// item.recurrenceDateEnds.append(.init(start: start, end: .duration(.init(seconds: 7200))))
    /// ```
    public struct RecurrenceDateEnd: Hashable, Sendable, Codable {
        /// The instance's start, as it stands in ``CalendarItem/recurrenceDates``.
        public var start: CalendarTime
        /// Its end: an explicit time (`start/end`) or a length (`start/PT2H`).
        public var end: End

        /// Creates a period's end.
        public init(start: CalendarTime, end: End) {
            self.start = start
            self.end = end
        }
    }

    // The fields live in one shared, copy-on-write box: an item is about 200
    // bytes of fields, and arrays of items (a calendar, a day's occurrences)
    // then hold and move 8-byte references instead. Measured on the 50,000-item
    // benchmark: the import's heap peak fell from 43 to 33 MB, the copies made
    // as the items array grew (Benchmarks/RESULTS.md). Copies share the box
    // until one is changed.
    private var storage: Storage

    /// The stored fields most items use. The rest, which most items leave
    /// empty, are in ``Extras``, allocated only for an item that uses one:
    /// with them inline an item's box was 330 bytes, 16.5 MB of the
    /// 50,000-event import (`horari import`'s peak, measured with heaptrack).
    ///
    /// Laid out so that the box is 177 bytes, in a 192-byte heap block (at
    /// 201 it took 224: 1.6 MB of the same import): the 9-byte `DTSTAMP`
    /// last, the revision in 32 bits beside the flags.
    struct Fields: Hashable, Sendable {
        var uid: String
        var title: String
        var notes: String?
        var location: String?
        var recurrenceRules: [RecurrenceRule]
        var exceptionDates: [CalendarTime]
        var properties: ContentLines
        /// `nil` exactly when every field of ``Extras`` is empty, so that
        /// `==` and hashing need not look inside.
        var extras: ExtrasBox?
        var start: CalendarTime
        var end: End?
        var kind: Kind
        var hasStart: Bool
        var hasMaster: Bool
        /// `SEQUENCE`, which RFC 5545 (§3.3.8) keeps within 32 bits; a
        /// larger value set through the API is ``Extras/wideSequence``.
        var sequence: Int32
        var timestamp: CompactTime
    }

    /// An optional ``CalendarTime`` in 9 bytes when it is a UTC date-time,
    /// as a `DTSTAMP` always is (RFC 5545 §3.8.7.2); any other time is boxed.
    /// Each value has one form, so the derived `==` is the times' own.
    enum CompactTime: Hashable, Sendable {
        case none
        /// ``LocalDateTime/localSeconds`` of the UTC reading.
        case utc(Int64)
        case other(TimeBox)

        init(_ time: CalendarTime?) {
            switch time {
            case nil: self = .none
            case .utc(let wall)?: self = .utc(wall.localSeconds)
            case let time?: self = .other(TimeBox(time))
            }
        }

        var value: CalendarTime? {
            switch self {
            case .none: nil
            case .utc(let seconds): .utc(LocalDateTime(localSeconds: seconds))
            case .other(let box): box.value
            }
        }
    }

    /// A boxed ``CalendarTime``, compared and hashed by value.
    final class TimeBox: Hashable, Sendable {
        let value: CalendarTime
        init(_ value: CalendarTime) { self.value = value }
        static func == (a: TimeBox, b: TimeBox) -> Bool { a.value == b.value }
        func hash(into hasher: inout Hasher) { value.hash(into: &hasher) }
    }

    /// The fields most items leave empty.
    struct Extras: Hashable, Sendable {
        var color: ItemColor?
        var calendar: String?
        var recurrenceDates: [CalendarTime] = []
        var recurrenceDateEnds: [RecurrenceDateEnd] = []
        var overrides: [RecurrenceOverride] = []
        var categories = CategoryList([])
        var status: ItemStatus?
        var lastModified: CalendarTime?
        var completed: CalendarTime?
        var percentComplete: Int?
        var completedAsWritten: ContentLine?
        var percentCompleteAsWritten: ContentLine?
        var alarms: [Alarm] = []
        var unreadableAlarms: [UnreadableAlarm] = []
        var components: [ContentComponent] = []
        var extraParameters: [String: [ContentLine.Parameter]] = [:]
        /// A revision beyond 32 bits (``Fields/sequence`` is then 0).
        var wideSequence: Int?

        var isEmpty: Bool {
            color == nil && calendar == nil && recurrenceDates.isEmpty && recurrenceDateEnds.isEmpty && overrides.isEmpty && categories.isEmpty
                && status == nil && lastModified == nil && completed == nil && percentComplete == nil && completedAsWritten == nil && percentCompleteAsWritten == nil && alarms.isEmpty && unreadableAlarms.isEmpty && components.isEmpty && extraParameters.isEmpty
                && wideSequence == nil
        }
    }

    /// The box of an item's ``Extras``, compared and hashed by value. Never
    /// changed once shared: ``takeExtras()`` takes the value out of a box
    /// only this item holds, and ``putExtras(_:)`` makes a new one.
    final class ExtrasBox: Hashable, @unchecked Sendable {
        var value: Extras
        init(_ value: Extras) { self.value = value }
        static func == (a: ExtrasBox, b: ExtrasBox) -> Bool { a === b || a.value == b.value }
        func hash(into hasher: inout Hasher) { value.hash(into: &hasher) }
    }

    /// The box. `@unchecked Sendable` is sound because a box is only ever
    /// changed through `makeUnique()`, that is when no other value shares it.
    private final class Storage: @unchecked Sendable {
        var fields: Fields
        init(_ fields: Fields) { self.fields = fields }
    }

    private mutating func makeUnique() {
        if !isKnownUniquelyReferenced(&storage) { storage = Storage(storage.fields) }
    }

    /// The extras, moved out for a change (the box, when only this item
    /// holds it, is emptied rather than copied, so an array in it is changed
    /// in place); ``putExtras(_:)`` puts them back.
    private mutating func takeExtras() -> Extras {
        makeUnique()
        guard var box = storage.fields.extras else { return Extras() }
        storage.fields.extras = nil
        guard isKnownUniquelyReferenced(&box) else { return box.value }
        var value = Extras()
        swap(&value, &box.value)
        return value
    }

    private mutating func putExtras(_ extras: Extras) {
        storage.fields.extras = extras.isEmpty ? nil : ExtrasBox(extras)
    }

    private var extras: Extras? { storage.fields.extras?.value }

    /// The stable identifier (`UID`).
    public var uid: String {
        get { storage.fields.uid }
        _modify { makeUnique(); yield &storage.fields.uid }
    }
    /// Event or task.
    public var kind: Kind {
        get { storage.fields.kind }
        _modify { makeUnique(); yield &storage.fields.kind }
    }
    /// The title (`SUMMARY`).
    public var title: String {
        get { storage.fields.title }
        _modify { makeUnique(); yield &storage.fields.title }
    }
    /// The start (`DTSTART`), and the first occurrence of a recurring item.
    public var start: CalendarTime {
        get { storage.fields.start }
        _modify { makeUnique(); yield &storage.fields.start }
    }
    /// The end or length; `nil` means one day for an all-day item and an instant otherwise
    /// (RFC 5545 §3.6.1).
    public var end: End? {
        get { storage.fields.end }
        _modify { makeUnique(); yield &storage.fields.end }
    }
    /// A longer text (`DESCRIPTION`).
    public var notes: String? {
        get { storage.fields.notes }
        _modify { makeUnique(); yield &storage.fields.notes }
    }
    /// The colour (`COLOR`, RFC 7986).
    public var color: ItemColor? {
        get { extras?.color }
        _modify {
            var e = takeExtras()
            defer { putExtras(e) }
            yield &e.color
        }
    }
    /// The calendar the item belongs to, by name.
    public var calendar: String? {
        get { extras?.calendar }
        _modify {
            var e = takeExtras()
            defer { putExtras(e) }
            yield &e.calendar
        }
    }
    /// `RRULE`s.
    public var recurrenceRules: [RecurrenceRule] {
        get { storage.fields.recurrenceRules }
        _modify { makeUnique(); yield &storage.fields.recurrenceRules }
    }
    /// `RDATE`s.
    public var recurrenceDates: [CalendarTime] {
        get { extras?.recurrenceDates ?? [] }
        _modify {
            var e = takeExtras()
            defer { putExtras(e) }
            yield &e.recurrenceDates
        }
    }
    /// The own ends of the `RDATE`s written as periods (`RDATE;VALUE=PERIOD`,
    /// RFC 5545 §3.8.5.2), each naming its instance by a start that is also
    /// in ``recurrenceDates``. An `RDATE` without one takes the item's length;
    /// an entry whose start is not an `RDATE` changes nothing. Empty for most items.
    public var recurrenceDateEnds: [RecurrenceDateEnd] {
        get { extras?.recurrenceDateEnds ?? [] }
        _modify {
            var e = takeExtras()
            defer { putExtras(e) }
            yield &e.recurrenceDateEnds
        }
    }
    /// `EXDATE`s.
    public var exceptionDates: [CalendarTime] {
        get { storage.fields.exceptionDates }
        _modify { makeUnique(); yield &storage.fields.exceptionDates }
    }
    /// Instances changed from the series (`RECURRENCE-ID` components).
    public var overrides: [RecurrenceOverride] {
        get { extras?.overrides ?? [] }
        _modify {
            var e = takeExtras()
            defer { putExtras(e) }
            yield &e.overrides
        }
    }
    /// Where it happens (`LOCATION`).
    public var location: String? {
        get { storage.fields.location }
        _modify { makeUnique(); yield &storage.fields.location }
    }
    /// Tags (`CATEGORIES`), in order.
    public var categories: [String] {
        get { extras?.categories.values ?? [] }
        set {
            var e = takeExtras()
            e.categories = CategoryList(newValue)
            putExtras(e)
        }
    }
    /// The status (`STATUS`): tentative, confirmed or cancelled, or for a
    /// task needs-action, completed or in-process; other text as ``ItemStatus/other(_:)``.
    public var status: ItemStatus? {
        get { extras?.status }
        _modify {
            var e = takeExtras()
            defer { putExtras(e) }
            yield &e.status
        }
    }
    /// The revision number (`SEQUENCE`); a higher one is newer.
    public var sequence: Int {
        get { extras?.wideSequence ?? Int(storage.fields.sequence) }
        set {
            let narrow = Int32(exactly: newValue)
            if narrow == nil || extras?.wideSequence != nil {
                var e = takeExtras()
                e.wideSequence = narrow == nil ? newValue : nil
                putExtras(e)
            }
            makeUnique()
            storage.fields.sequence = narrow ?? 0
        }
    }
    /// When this copy of the item was written (`DTSTAMP`, UTC).
    public var timestamp: CalendarTime? {
        get { storage.fields.timestamp.value }
        set { makeUnique(); storage.fields.timestamp = CompactTime(newValue) }
    }
    /// When the item was last changed (`LAST-MODIFIED`, UTC).
    public var lastModified: CalendarTime? {
        get { extras?.lastModified }
        _modify {
            var e = takeExtras()
            defer { putExtras(e) }
            yield &e.lastModified
        }
    }
    /// When the task was done (`COMPLETED`, RFC 5545 §3.8.2.1, which asks
    /// for a UTC time; another form a file wrote is read as written), if the
    /// item says.
    public var completed: CalendarTime? {
        get { extras?.completed }
        _modify {
            var e = takeExtras()
            defer { e.completedAsWritten = nil; putExtras(e) }
            yield &e.completed
        }
    }

    /// How far along the task is, from 0 to 100 (`PERCENT-COMPLETE`, RFC 5545
    /// §3.8.1.8), if the item says; ``validate(_:zones:)`` refuses another number.
    public var percentComplete: Int? {
        get { extras?.percentComplete }
        _modify {
            var e = takeExtras()
            defer { e.percentCompleteAsWritten = nil; putExtras(e) }
            yield &e.percentComplete
        }
    }
    /// Every other property, kept as written (`ORGANIZER`, `ATTENDEE`, `URL`,
    /// `X-…`, and properties from later RFCs), in file order.
    public var properties: ContentLines {
        get { storage.fields.properties }
        _modify { makeUnique(); yield &storage.fields.properties }
    }
    /// When a task was done as a file wrote it where ``completed`` could
    /// not read it (`COMPLETED:yesterday`): written back as it was, until
    /// ``completed`` is set (``markDone(at:floatingZone:zones:)`` and
    /// ``reopen(floatingZone:zones:)`` set it).
    package var completedAsWritten: ContentLine? {
        get { extras?.completedAsWritten }
        set {
            var e = takeExtras()
            e.completedAsWritten = newValue
            putExtras(e)
        }
    }
    /// How far along a task is as a file wrote it where ``percentComplete``
    /// could not read it (`PERCENT-COMPLETE:150`): written back as it was,
    /// until ``percentComplete`` is set.
    package var percentCompleteAsWritten: ContentLine? {
        get { extras?.percentCompleteAsWritten }
        set {
            var e = takeExtras()
            e.percentCompleteAsWritten = newValue
            putExtras(e)
        }
    }
    /// The item's alarms (its `VALARM`s that can be read), in file order;
    /// ``addAlarm(_:)`` checks that one can go off on this item.
    public var alarms: [Alarm] {
        get { extras?.alarms ?? [] }
        _modify {
            var e = takeExtras()
            defer { putExtras(e) }
            yield &e.alarms
        }
    }
    /// The `VALARM`s a file wrote that cannot go off, each with why; an
    /// export writes them back as they were.
    public var unreadableAlarms: [UnreadableAlarm] {
        get { extras?.unreadableAlarms ?? [] }
        _modify {
            var e = takeExtras()
            defer { putExtras(e) }
            yield &e.unreadableAlarms
        }
    }
    /// Subcomponents kept as written (`X-…`, later RFCs' components), in file order.
    public var components: [ContentComponent] {
        get { extras?.components ?? [] }
        _modify {
            var e = takeExtras()
            defer { putExtras(e) }
            yield &e.components
        }
    }
    /// Parameters on modelled properties that the model has no field for
    /// (`SUMMARY;LANGUAGE=ca`, `DTSTART;X-FOO=1`), by property name.
    public var extraParameters: [String: [ContentLine.Parameter]] {
        get { extras?.extraParameters ?? [:] }
        _modify {
            var e = takeExtras()
            defer { putExtras(e) }
            yield &e.extraParameters
        }
    }
    /// Whether the item has its own start. A task with a due time and no
    /// `DTSTART` has `start` equal to its due time and this `false`.
    public var hasStart: Bool {
        get { storage.fields.hasStart }
        _modify { makeUnique(); yield &storage.fields.hasStart }
    }
    /// Whether the series has a master. `false` for a series known only by
    /// changed instances (an invitation to one instance): its start and
    /// `RDATE`s are those instances' recurrence IDs, and only the instances
    /// are written out.
    public var hasMaster: Bool {
        get { storage.fields.hasMaster }
        _modify { makeUnique(); yield &storage.fields.hasMaster }
    }

    /// The identifier, the `UID`.
    public var id: String { uid }

    /// Creates an item.
    public init(
        uid: String, kind: Kind = .event, title: String, start: CalendarTime, end: End? = nil,
        notes: String? = nil, color: ItemColor? = nil, calendar: String? = nil,
        recurrenceRules: [RecurrenceRule] = [], recurrenceDates: [CalendarTime] = [],
        exceptionDates: [CalendarTime] = [], overrides: [RecurrenceOverride] = [],
        location: String? = nil, categories: [String] = [], status: ItemStatus? = nil, sequence: Int = 0,
        timestamp: CalendarTime? = nil, lastModified: CalendarTime? = nil,
        properties: ContentLines = [], components: [ContentComponent] = [],
        extraParameters: [String: [ContentLine.Parameter]] = [:], hasStart: Bool = true, hasMaster: Bool = true,
        recurrenceDateEnds: [RecurrenceDateEnd] = []
    ) {
        let narrowSequence = Int32(exactly: sequence)
        let extras = Extras(color: color, calendar: calendar, recurrenceDates: recurrenceDates, recurrenceDateEnds: recurrenceDateEnds, overrides: overrides, categories: CategoryList(categories),
                            status: status, lastModified: lastModified, components: components, extraParameters: extraParameters,
                            wideSequence: narrowSequence == nil ? sequence : nil)
        storage = Storage(Fields(uid: uid, title: title, notes: notes, location: location, recurrenceRules: recurrenceRules, exceptionDates: exceptionDates,
                                 properties: properties, extras: extras.isEmpty ? nil : ExtrasBox(extras), start: start, end: end, kind: kind,
                                 hasStart: hasStart, hasMaster: hasMaster, sequence: narrowSequence ?? 0, timestamp: CompactTime(timestamp)))
    }

    /// Decodes an item from its fields.
    public init(from decoder: any Decoder) throws {
        let f = try CodableFields(from: decoder)
        self.init(uid: f.uid, kind: f.kind, title: f.title, start: f.start, end: f.end, notes: f.notes, color: f.color, calendar: f.calendar,
                  recurrenceRules: f.recurrenceRules, recurrenceDates: f.recurrenceDates, exceptionDates: f.exceptionDates, overrides: f.overrides,
                  location: f.location, categories: f.categories.values, status: f.status, sequence: f.sequence, timestamp: f.timestamp,
                  lastModified: f.lastModified, properties: f.properties, components: f.components, extraParameters: f.extraParameters,
                  hasStart: f.hasStart, hasMaster: f.hasMaster, recurrenceDateEnds: f.recurrenceDateEnds ?? [])
        (completed, percentComplete) = (f.completed, f.percentComplete)
        (completedAsWritten, percentCompleteAsWritten) = (f.completedAsWritten, f.percentCompleteAsWritten)
        (alarms, unreadableAlarms) = (f.alarms ?? [], f.unreadableAlarms ?? [])
    }

    /// Encodes the item's fields.
    public func encode(to encoder: any Encoder) throws {
        try CodableFields(uid: uid, kind: kind, title: title, start: start, end: end, notes: notes, color: color, calendar: calendar,
                          recurrenceRules: recurrenceRules, recurrenceDates: recurrenceDates, exceptionDates: exceptionDates, overrides: overrides,
                          location: location, categories: extras?.categories ?? CategoryList([]), status: status, sequence: sequence,
                          timestamp: timestamp, lastModified: lastModified, properties: properties, components: components,
                          extraParameters: extraParameters, hasStart: hasStart, hasMaster: hasMaster,
                          recurrenceDateEnds: recurrenceDateEnds.isEmpty ? nil : recurrenceDateEnds,
                          completed: completed, percentComplete: percentComplete,
                          completedAsWritten: completedAsWritten, percentCompleteAsWritten: percentCompleteAsWritten,
                          alarms: alarms.isEmpty ? nil : alarms, unreadableAlarms: unreadableAlarms.isEmpty ? nil : unreadableAlarms).encode(to: encoder)
    }

    /// Every field in one flat struct, in the order the item's JSON has
    /// always had (its synthesized `Codable` is the item's).
    private struct CodableFields: Codable {
        var uid: String
        var kind: Kind
        var title: String
        var start: CalendarTime
        var end: End?
        var notes: String?
        var color: ItemColor?
        var calendar: String?
        var recurrenceRules: [RecurrenceRule]
        var recurrenceDates: [CalendarTime]
        var exceptionDates: [CalendarTime]
        var overrides: [RecurrenceOverride]
        var location: String?
        var categories: CategoryList
        var status: ItemStatus?
        var sequence: Int
        var timestamp: CalendarTime?
        var lastModified: CalendarTime?
        var properties: ContentLines
        var components: [ContentComponent]
        var extraParameters: [String: [ContentLine.Parameter]]
        var hasStart: Bool
        var hasMaster: Bool
        /// Last and only when there are some: the JSON of an item without
        /// periods is as it always was.
        var recurrenceDateEnds: [RecurrenceDateEnd]?
        /// When a task was done, and how far along it is; left out when `nil`.
        var completed: CalendarTime?
        var percentComplete: Int?
        var completedAsWritten: ContentLine?
        var percentCompleteAsWritten: ContentLine?
        /// The alarms, when there are some.
        var alarms: [Alarm]?
        var unreadableAlarms: [UnreadableAlarm]?
    }

    /// Whether two items have the same fields.
    public static func == (lhs: CalendarItem, rhs: CalendarItem) -> Bool {
        lhs.storage === rhs.storage || lhs.storage.fields == rhs.storage.fields
    }

    /// Hashes the item's fields.
    public func hash(into hasher: inout Hasher) {
        storage.fields.hash(into: &hasher)
    }

    /// Whether the item repeats, or has changed instances (which need a recurrence set to apply to).
    public var isRecurring: Bool { !recurrenceRules.isEmpty || !recurrenceDates.isEmpty || !overrides.isEmpty }

    /// The item's recurrence set, when it repeats.
    public var recurrenceSet: RecurrenceSet? {
        isRecurring ? RecurrenceSet(start: start, rules: recurrenceRules, additions: recurrenceDates, exclusions: exceptionDates) : nil
    }

    /// Every way the item breaks an app's rules, each its own error: a title
    /// that starts with a digit, a task without a date and a time, a colour
    /// of the reserved red family (in that order; empty when it keeps them).
    ///
    /// ``validate(_:zones:)`` throws the first of these among its other
    /// checks; a report of a calendar (`horari validate`), or a gate that
    /// refuses items one by one (an import), lists them all, so that an item
    /// titled "1st thing" in red is named for both.
    ///
    /// - Parameter rules: what the app accepts beyond RFC 5545.
    /// - Returns: the rules broken, as ``CalendarItemError``s naming the field.
    public func ruleBreaks(_ rules: ValidationRules) -> [CalendarItemError] {
        var breaks: [CalendarItemError] = []
        if rules.forbidTitlesStartingWithDigit, let first = title.trimmedWhitespace.first, first.isNumber {
            breaks.append(CalendarItemError(.titleStartsWithDigit, field: .title, "the title ‘\(title)’ starts with a digit, which these rules do not allow", suggestion: "begin it with a letter"))
        }
        if rules.requireTaskDateAndTime, kind == .task {
            let due: CalendarTime? = if case .at(let t) = end { t } else { hasStart ? start : nil }
            if due == nil || due?.isDate == true || (hasStart && start.isDate) {
                breaks.append(CalendarItemError(.missingTaskTime, field: .due, "the task ‘\(title)’ needs a date and a time, which these rules ask of every task", suggestion: "give it one such as ‘2026-11-27 18:00’"))
            }
        }
        if let color, let why = rules.reservedColors.refusal(of: color) {
            breaks.append(CalendarItemError(.reservedColor, field: .color, why))
        }
        return breaks
    }

    /// Checks the item against the rules.
    ///
    /// - Parameters:
    ///   - rules: what the app accepts beyond RFC 5545 (reserved colours, titles, tasks' times).
    ///   - zones: the zones the item's calendar defines for itself (its own
    ///     `VTIMEZONE`s): a `TZID` they define is known; empty by default, when
    ///     only the system's zones are.
    /// - Throws: ``CalendarItemError`` naming the field at fault.
    public func validate(_ rules: ValidationRules = ValidationRules(), zones: ZoneTable = ZoneTable()) throws(CalendarItemError) {
        if uid.isEmpty { throw CalendarItemError(.missingUID, field: .uid, "the item has no UID") }
        let trimmed = title.trimmedWhitespace
        if trimmed.isEmpty { throw CalendarItemError(.emptyTitle, field: .title, "the title is empty", suggestion: "give the item a name") }
        if let first = ruleBreaks(rules).first { throw first }
        if let long = categories.first(where: { $0.count > Self.maximumCategoryLength }) {
            throw CalendarItemError(.invalidCategory, field: .categories, "the category ‘\(long.prefix(20))…’ is \(long.count) characters long, longer than the \(Self.maximumCategoryLength) a category may be",
                                    suggestion: "name the subject in a few words")
        }
        if let percent = percentComplete, !(0...100).contains(percent) {
            throw CalendarItemError(.invalidProgress, field: .percentComplete, "the task is \(percent) percent done; RFC 5545 §3.8.1.8 counts from 0 to 100",
                                    suggestion: "give a whole number from 0 to 100")
        }
        if kind == .task, !hasStart, end == nil, isRecurring {
            throw CalendarItemError(.invalidRecurrence, field: .recurrence, "the task ‘\(title)’ repeats but has no date to repeat from (RFC 5545 §3.8.5.3 counts a rule from DTSTART)",
                                    suggestion: "give it a start or a due date")
        }
        if case .at(let endTime) = end {
            if endTime.isDate != start.isDate {
                throw CalendarItemError(.endTypeMismatch, field: .end, "the end \(endTime) must be \(start.isDate ? "a date, like the all-day start" : "a date and time, like the start")")
            }
            let endSeconds: Int64
            let startSeconds: Int64
            do throws(TimeValueError) {
                endSeconds = try endTime.epochSeconds(floatingZone: .utc, zones: zones)
                startSeconds = try start.epochSeconds(floatingZone: .utc, zones: zones)
            } catch {
                throw CalendarItemError(.unknownTimeZone, field: .end, error.message, underlying: error)
            }
            if endSeconds < startSeconds {
                throw CalendarItemError(.endBeforeStart, field: .end, "the end \(endTime) is before the start \(start)")
            }
        }
        if case .duration(let d) = end, d.days < 0 || d.seconds < 0 {
            throw CalendarItemError(.endBeforeStart, field: .end, "the duration is negative")
        }
        if length(floatingZone: .utc, zones: zones) > Self.maximumLength {
            throw CalendarItemError(.tooLong, field: .end, "the item lasts longer than \(Self.maximumLength / 86_400) days, the longest an item may last", suggestion: "give an earlier end or a shorter length")
        }
        // Every TZID the item names, not only its start's: an RDATE or a
        // changed instance on a zone nothing defines has no instant either.
        var unknownZone: TimeValueError?
        forEachZoneIdentifier { tzid in
            do throws(TimeValueError) { _ = try zones.rules(forTZID: tzid) } catch {
                unknownZone = error
                return false
            }
            return true
        }
        if let unknownZone {
            throw CalendarItemError(.unknownTimeZone, field: .start, unknownZone.message, underlying: unknownZone)
        }
        if let set = recurrenceSet {
            do throws(RecurrenceRuleError) { try set.validate() } catch {
                throw CalendarItemError(.invalidRecurrence, field: .recurrence, error.description, underlying: error)
            }
        }
        for period in recurrenceDateEnds {
            // RFC 5545 §3.3.9: a period is two date-times in one form (one TZID
            // is written for both), the end after the start.
            let why: String?
            switch period.end {
            case .at(let e):
                let sameForm = switch (period.start, e) {
                case (.floating, .floating), (.utc, .utc): true
                case (.zoned(_, let a), .zoned(_, let b)): a == b
                default: false
                }
                let a = try? period.start.epochSeconds(floatingZone: .utc, zones: zones), b = try? e.epochSeconds(floatingZone: .utc, zones: zones)
                why = period.start.isDate ? "starts on a date" : !sameForm ? "ends in another kind of time than it starts (\(e))" : (b ?? 0) < (a ?? 0) ? "ends before it starts" : nil
            case .duration(let d):
                why = period.start.isDate ? "starts on a date" : d.days < 0 || d.seconds < 0 ? "has a negative length" : nil
            }
            if let why {
                throw CalendarItemError(.invalidRecurrence, field: .recurrence, "the RDATE period starting \(period.start) \(why); a period is two date-times of one kind, the end after the start")
            }
        }
        if let stray = unmatchedOverrides(zones: zones).first {
            throw CalendarItemError(
                .unmatchedOverride, field: .recurrence,
                "the change to the instance \(stray.recurrenceID) names no instance of the series ‘\(uid)’ (its rules and dates produce none then, or an exception date removes it); move the change to an instance the series has, or remove it")
        }
    }

    /// The longest an item may last: 366 days (in seconds).
    ///
    /// A year and a day covers every real event (a season, a school year, a
    /// leap year's all-day span) and keeps every length far from integer
    /// overflow when it is added to a time; ``validate(_:zones:)`` refuses longer.
    public static let maximumLength: Int64 = 366 * 86_400

    /// The length of the item's own instance in seconds (0 when it has no end;
    /// `Int64.max` for a duration too long to add up), floating times read in `zone`.
    ///
    /// - Parameters:
    ///   - zone: the zone dates and floating times are read in.
    ///   - zones: the zones the item's calendar defines for itself, looked up
    ///     before the system's; empty by default.
    public func length(floatingZone zone: ZoneRules, zones: ZoneTable = ZoneTable()) -> Int64 {
        switch end {
        case nil: return 0
        case .duration(let d):
            let (daySeconds, o1) = Int64(d.days).multipliedReportingOverflow(by: 86_400)
            let (total, o2) = daySeconds.addingReportingOverflow(Int64(d.seconds))
            return o1 || o2 ? .max : total
        case .at(let t):
            guard let a = try? start.epochSeconds(floatingZone: zone, zones: zones), let b = try? t.epochSeconds(floatingZone: zone, zones: zones) else { return 0 }
            return b - a
        }
    }

    /// How long each instance of this item lasts, worked out once.
    func span(floatingZone: ZoneRules, zones: ZoneTable) -> InstanceSpan { InstanceSpan(self, floatingZone: floatingZone, zones: zones) }
}

extension CalendarItem {
    /// Calls `body` with each `TZID` the item's times name — start, end,
    /// `RDATE`s and their periods' ends, `EXDATE`s, `UNTIL`s, and each changed
    /// instance's own — until `body` returns `false`. A `TZID` may come more
    /// than once.
    ///
    /// - Parameter body: what to do with a `TZID`; `false` stops the walk.
    /// - Returns: `false` when `body` stopped it.
    @discardableResult
    package func forEachZoneIdentifier(_ body: (String) -> Bool) -> Bool {
        func visit(_ time: CalendarTime?) -> Bool {
            guard let tzid = time?.zoneIdentifier else { return true }
            return body(tzid)
        }
        func visit(_ end: End?) -> Bool {
            if case .at(let time) = end { return visit(time) }
            return true
        }
        guard visit(start), visit(end) else { return false }
        for alarm in alarms { if case .absolute(let time) = alarm.trigger, !visit(time) { return false } }
        for time in recurrenceDates where !visit(time) { return false }
        for period in recurrenceDateEnds where !visit(period.end) { return false }
        for time in exceptionDates where !visit(time) { return false }
        for rule in recurrenceRules where !visit(rule.until) { return false }
        for o in overrides where !visit(o.recurrenceID) || !o.item.forEachZoneIdentifier(body) { return false }
        return true
    }
}
