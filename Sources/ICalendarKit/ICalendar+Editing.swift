import CalendarCore
import Foundation

/// Adding, changing and removing a calendar's items one at a time, with the
/// same checks as `LiveSchedule`: every change is validated
/// first and a refused change leaves the calendar as it was.
///
/// ```swift
/// var calendar = try ICalendarImporter().importCalendar(contentsOf: url).calendar
/// try calendar.add(CalendarItem(uid: "mats", kind: .task, title: "Order mats",
///                               start: .zoned(due, "Europe/Madrid"), hasStart: false))
/// ```
extension ICalendar {
    /// The item with this UID.
    public func item(uid: String) -> CalendarItem? {
        items.first { $0.uid == uid }
    }

    /// Adds a new item after checking it.
    ///
    /// An item without a `DTSTAMP` gets `now`, as RFC 5545 §3.8.7.2 asks of
    /// every component a calendar writes.
    ///
    /// A `TZID` this calendar defines (``zones``) is as good as a system
    /// zone's name.
    ///
    /// - Throws: `CalendarItemError` from
    ///   `CalendarItem.validate(_:zones:)` (a red colour, an empty
    ///   title, an end before the start…), or
    ///   `CalendarItemError.Code.duplicateUID`.
    public mutating func add(_ item: CalendarItem, at now: Date = Date(), rules: ValidationRules = ValidationRules()) throws(CalendarItemError) {
        try item.validate(rules, zones: zones)
        guard self.item(uid: item.uid) == nil else {
            throw CalendarItemError(.duplicateUID, field: .uid, "an item with the UID ‘\(item.uid)’ exists already", suggestion: "edit it instead, or pick another ID")
        }
        var item = item
        if item.timestamp == nil { item.timestamp = .utc(Self.wall(now)) }
        items.append(item)
    }

    /// Replaces the item with the same UID after checking the new version.
    ///
    /// The new version is a revision in RFC 5545's sense (§3.8.7.4): its
    /// `SEQUENCE` becomes one more than the stored one's, and `DTSTAMP` and
    /// `LAST-MODIFIED` become `now`, so a calendar that syncs by UID takes it
    /// over the old copy (``ICalendar/merge(_:)`` decides the same way).
    ///
    /// - Returns: the version that was replaced.
    /// - Throws: `CalendarItemError` from validation, or
    ///   `CalendarItemError.Code.notFound`.
    @discardableResult
    public mutating func update(_ item: CalendarItem, at now: Date = Date(), rules: ValidationRules = ValidationRules()) throws(CalendarItemError) -> CalendarItem {
        try item.validate(rules, zones: zones)
        guard let index = items.firstIndex(where: { $0.uid == item.uid }) else {
            throw CalendarItemError(.notFound, field: .uid, "there is no item with the UID ‘\(item.uid)’")
        }
        let old = items[index]
        var revised = item
        revised.sequence = max(item.sequence, old.sequence + 1)
        revised.timestamp = .utc(Self.wall(now))
        revised.lastModified = .utc(Self.wall(now))
        items[index] = revised
        return old
    }

    /// A series split at an occurrence, for a change of it and every later
    /// one ("this and following", as every calendar client offers): the
    /// series up to it, and a new series from it on
    /// (`CalendarItem.splitting(at:newUID:floatingZone:zones:)`, with this
    /// calendar's zones). The new series' UID is the old one with `_R` and
    /// the occurrence's wall time, as Google writes it
    /// (`…_R20261130T090000`), then `-2`, `-3`… when this calendar holds
    /// that UID already. Change the new series and ``add(_:at:rules:)`` it;
    /// ``update(_:at:rules:)`` the old with the first part, or remove it when
    /// there is none. Docs/WhereCalendarsMeet.md says why a split rather
    /// than a `RANGE=THISANDFUTURE` override.
    ///
    /// - Parameters:
    ///   - uid: the series.
    ///   - recurrenceID: the occurrence the new series starts with.
    ///   - floatingZone: the zone floating and all-day times are read in.
    /// - Returns: `head` (`nil` when the occurrence is the series' first)
    ///   and `tail`, the new series.
    /// - Throws: `CalendarItemError.Code.notFound`, or as `splitting`.
    public func splitSeries(uid: String, at recurrenceID: CalendarTime, floatingZone: ZoneRules) throws(CalendarItemError) -> (head: CalendarItem?, tail: CalendarItem) {
        guard let series = item(uid: uid) else { throw CalendarItemError(.notFound, field: .uid, "there is no item with the UID ‘\(uid)’") }
        let base = uid + "_R" + recurrenceID.wallTime.basicISO
        var newUID = base, n = 1
        while item(uid: newUID) != nil {
            n += 1
            newUID = "\(base)-\(n)"
        }
        return try series.splitting(at: recurrenceID, newUID: newUID, floatingZone: floatingZone, zones: zones)
    }

    /// Removes the item with this UID, with every changed instance of it.
    ///
    /// - Returns: the removed item.
    /// - Throws: `CalendarItemError.Code.notFound`.
    @discardableResult
    public mutating func removeItem(uid: String) throws(CalendarItemError) -> CalendarItem {
        guard let index = items.firstIndex(where: { $0.uid == uid }) else {
            throw CalendarItemError(.notFound, field: .uid, "there is no item with the UID ‘\(uid)’")
        }
        return items.remove(at: index)
    }

    /// Marks the task with this UID done at `now` (see
    /// `CalendarItem.markDone(at:floatingZone:zones:)`: a repeating task's
    /// earliest instance still to do), as a revision (``update(_:at:rules:)``).
    /// - Returns: the task as it is now.
    /// - Throws: `CalendarItemError`: no item has the UID, or it is an event.
    @discardableResult
    public mutating func markDone(uid: String, at now: Date = Date(), rules: ValidationRules = ValidationRules()) throws(CalendarItemError) -> CalendarItem {
        let (zone, zones) = (floatingZone, self.zones)
        return try revise(uid: uid, at: now, rules: rules) { item throws(CalendarItemError) in try item.markDone(at: now, floatingZone: zone, zones: zones) }
    }

    /// Reopens the done task with this UID (see
    /// `CalendarItem.reopen(floatingZone:zones:)`: a repeating task's latest
    /// instance done), as a revision (``update(_:at:rules:)``).
    /// - Returns: the task as it is now.
    /// - Throws: `CalendarItemError`: no item has the UID, or it is an event.
    @discardableResult
    public mutating func reopen(uid: String, at now: Date = Date(), rules: ValidationRules = ValidationRules()) throws(CalendarItemError) -> CalendarItem {
        let (zone, zones) = (floatingZone, self.zones)
        return try revise(uid: uid, at: now, rules: rules) { item throws(CalendarItemError) in try item.reopen(floatingZone: zone, zones: zones) }
    }

    /// Removes every item in a category (`CalendarItem.isInCategory(_:)`,
    /// case ignored), as deleting a subject removes its tasks.
    ///
    /// - Parameters:
    ///   - category: the category.
    ///   - keeping: items to leave whatever their categories (another
    ///     module's records, such as a gym's book); none by default.
    /// - Returns: the items removed, in the calendar's order.
    @discardableResult
    public mutating func removeItems(inCategory category: String, keeping: (CalendarItem) -> Bool = { _ in false }) -> [CalendarItem] {
        var removed: [CalendarItem] = []
        items.removeAll { item in
            guard item.isInCategory(category), !keeping(item) else { return false }
            removed.append(item)
            return true
        }
        return removed
    }

    /// The zone floating and all-day times are read in: the calendar's own
    /// (`X-WR-TIMEZONE`), else the machine's (RFC 5545 §3.3.5: a floating
    /// time is on the clock of whoever reads it).
    var floatingZone: ZoneRules {
        calendarZone.flatMap { try? zones.rules(forTZID: $0) } ?? .current
    }

    private mutating func revise(uid: String, at now: Date, rules: ValidationRules,
                                 _ change: (inout CalendarItem) throws(CalendarItemError) -> Void) throws(CalendarItemError) -> CalendarItem {
        guard var item = item(uid: uid) else {
            throw CalendarItemError(.notFound, field: .uid, "there is no item with the UID ‘\(uid)’")
        }
        try change(&item)
        try update(item, at: now, rules: rules)
        return self.item(uid: uid) ?? item
    }

    /// `now` as a UTC wall time, whole seconds (what `DTSTAMP` can hold).
    static func wall(_ now: Date) -> LocalDateTime {
        LocalDateTime(localSeconds: Int64(now.timeIntervalSince1970.rounded(.down)))
    }
}

// MARK: - A calendar's own properties as a resource

extension ICalendar {
    /// A calendar's own properties as a component of its own, for a store
    /// that keeps a calendar as one resource per `UID` (a folder, a CalDAV
    /// collection), where no resource is the calendar: a private `VJOURNAL`
    /// with this `UID` (and `CATEGORIES`) holding `X-WR-CALNAME`,
    /// `X-WR-TIMEZONE`, the colour (`COLOR`, and `X-APPLE-CALENDAR-COLOR`
    /// for Apple's readers) and every other property of the calendar;
    /// `nil` when the calendar has none.
    /// - Parameter uid: the journal's `UID`.
    package func propertiesJournal(uid: String) -> ContentComponent? {
        var lines: [ContentLine] = []
        if let name { lines.append(ContentLine(name: "X-WR-CALNAME", text: name)) }
        if let timeZone { lines.append(ContentLine(name: "X-WR-TIMEZONE", value: timeZone)) }
        if let color {
            if let css = color.cssName { lines.append(ContentLine(name: "COLOR", value: css)) }
            lines.append(ContentLine(name: "X-APPLE-CALENDAR-COLOR", value: color.rgb.hex.uppercased()))
        }
        lines += Array(properties)
        guard !lines.isEmpty else { return nil }
        return ContentComponent(name: "VJOURNAL", properties: ContentLines([
            ContentLine(name: "UID", value: uid), ContentLine(name: "SUMMARY", text: name ?? "Calendar properties"),
            ContentLine(name: "CATEGORIES", value: uid), ContentLine(name: "CLASS", value: "PRIVATE"),
        ] + lines))
    }

    /// Whether a component is the properties journal with this `UID` (``propertiesJournal(uid:)``).
    package static func isPropertiesJournal(_ component: ContentComponent, uid: String) -> Bool {
        component.name.uppercased() == "VJOURNAL" && component.uid == uid
    }

    /// Takes a properties journal's lines as this calendar's own properties
    /// (``propertiesJournal(uid:)`` read back).
    package mutating func applyPropertiesJournal(_ journal: ContentComponent) {
        var kept: [ContentLine] = []
        for line in journal.properties {
            switch line.name {
            case "UID", "DTSTAMP", "SUMMARY", "CATEGORIES", "CLASS": break
            case "X-WR-CALNAME": name = line.textValue
            case "X-WR-TIMEZONE": timeZone = line.value
            case "COLOR": if let c = try? ItemColor.named(line.value) { color = c }
            case "X-APPLE-CALENDAR-COLOR": if color == nil, let rgb = ItemColor.RGB(hex: String(line.value.prefix(7))) { color = ItemColor(rgb: rgb) }
            default: kept.append(line)
            }
        }
        properties = ContentLines(kept)
    }
}

extension ContentLines {
    /// The lines without `DTSTAMP`, the time they were written rather than
    /// what they say (a change compares what they say).
    package var withoutStamps: ContentLines { ContentLines(filter { $0.name != "DTSTAMP" }) }
}

// MARK: - How often a subscriber reads the calendar again

extension ICalendar {
    /// The refresh interval an export for subscription carries unless told
    /// otherwise (``ICalendar/refreshInterval``): an hour. Places and
    /// times change through the day; a client that honours the interval
    /// then shows them within the hour, at one small read an hour.
    public static let defaultRefreshInterval: Duration = .seconds(3600)

    /// How often a subscriber should read the calendar again: RFC 7986's
    /// `REFRESH-INTERVAL` (§5.7), else `X-PUBLISHED-TTL`, which Apple
    /// Calendar and Outlook read; `nil` when the calendar says neither,
    /// or says something that is not a positive length.
    ///
    /// Set, it writes both, `REFRESH-INTERVAL;VALUE=DURATION:PT1H` and
    /// `X-PUBLISHED-TTL:PT1H` (in weeks, days or hours and minutes as the
    /// length divides, whole seconds), in place of any there were; `nil`
    /// removes both. RFC 7986 allows only a positive interval: a length
    /// under a second is written as one second.
    ///
    /// ```swift
    /// var feed = try ICalendar(book, for: .publicTimetable)  // an hour, by default
    /// feed.refreshInterval = .seconds(15 * 60)
    /// ```
    public var refreshInterval: Duration? {
        get {
            for name in [Self.refreshIntervalProperty, Self.publishedTTLProperty] {
                if let line = properties.first(where: { $0.name == name }),
                   let length = try? ISOText.duration(line.value), length > .zero {
                    return length
                }
            }
            return nil
        }
        set {
            properties.removeAll { $0.name == Self.refreshIntervalProperty || $0.name == Self.publishedTTLProperty }
            guard let newValue else { return }
            let text = Self.refreshText(max(newValue.components.seconds, 1))
            properties.append(ContentLine(name: Self.refreshIntervalProperty, parameters: [.init(name: "VALUE", values: ["DURATION"])], value: text))
            properties.append(ContentLine(name: Self.publishedTTLProperty, value: text))
        }
    }

    static let refreshIntervalProperty = "REFRESH-INTERVAL", publishedTTLProperty = "X-PUBLISHED-TTL"

    /// `P1W`, `P2D`, `PT1H`, `PT1H30M`: the shortest form of a positive number of seconds.
    static func refreshText(_ seconds: Int64) -> String {
        if seconds % 604_800 == 0 { return "P\(seconds / 604_800)W" }
        if seconds % 86_400 == 0 { return "P\(seconds / 86_400)D" }
        return ISOText.duration(.seconds(seconds))
    }
}
