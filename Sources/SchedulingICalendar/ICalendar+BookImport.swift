import CalendarCore
import CalendarScheduling
import ICalendarKit

// The import policy of a calendar that keeps a scheduling book (issue 43, 1),
// in the library so that an app's import keeps the same promises as
// `horari import`: what breaks the calendar's rules is refused, a member's
// export merges into its classes, a message about the book is not taken for
// a change to it, and no record of the book is rewritten (`importMerging`).

/// An item an import refused because it breaks the calendar's rules.
public struct RefusedItem: Hashable, Sendable {
    /// The item's `UID`.
    public var uid: String
    /// Its title, as the file wrote it.
    public var title: String
    /// Each rule it breaks, with the field and what to do.
    public var breaks: [CalendarItemError]
}

/// What `ICalendar.importKeepingBook(_:takingRuleBreakers:zoneNamedBy:)` did.
public struct BookImportReport: Sendable {
    /// The merge of the items taken, by `UID`.
    public var merge: MergeReport
    /// The book's records the file's versions of were left as the book has
    /// them, and the messages owed elsewhere that were left out.
    public var recordsLeft: [RecordLeft]
    /// The items refused for breaking the calendar's rules, in file order.
    public var refused: [RefusedItem]
    /// The name of the rules the items were held to (`default` when the
    /// calendar names none; `ICalendar.validationRules()`).
    public var rulesName: String
    /// The dated class occurrences of a member's export, merged into their
    /// classes (who holds a place stays as the book says).
    public var classOccurrences: [ClassOccurrence.ID]
}

/// Why an import into a calendar that keeps a book changed nothing.
public enum BookImportError: HorariError, Hashable, Sendable {
    /// The calendar names rules (`X-HORARI-RULES`) that are not one of
    /// `ValidationRules.presets`.
    case unknownRules(String)
    /// The file speaks of one of the book's classes or sessions as a
    /// message does: an iTIP method other than `PUBLISH` (the book's own
    /// invitation or cancellation), or only instances of it. Merged, the
    /// instance would take the place of the book's, roster and all.
    case messageAboutTheBook(record: String, isClass: Bool, method: String?, instances: Int)

    /// What went wrong and what to do, in one sentence.
    public var description: String {
        switch self {
        case .unknownRules(let name):
            let known = ValidationRules.presets.map(\.name).joined(separator: " or ")
            return "the calendar asks for rules ‘\(name)’ (X-HORARI-RULES), which Horari does not know; use \(known)"
        case .messageAboutTheBook:
            return "the file \(problem); bookings change through the book's own operations, and a person's answer is applied as it comes back (METHOD:REPLY)"
        }
    }

    /// The problem alone, without the remedy: for a program that words the remedy its own way.
    public var problem: String {
        switch self {
        case .unknownRules(let name):
            return "the calendar asks for rules ‘\(name)’ (X-HORARI-RULES), which are not known"
        case .messageAboutTheBook(let record, let isClass, let method, let instances):
            let what = "the book's \(isClass ? "class" : "session") ‘\(record)’"
            return method.map { "is a METHOD:\($0) message about \(what) (what the book sends people, not a change to the book)" }
                ?? "holds only \(instances == 1 ? "an occurrence" : "occurrences") of \(what), as a message about one does (merged, it would take the place of the book's own, with its roster)"
        }
    }

    /// The case's number (Docs/Errors.md): stable from release to release.
    public var errorCode: Int {
        switch self {
        case .unknownRules: 1
        case .messageAboutTheBook: 2
        }
    }
}

extension ICalendar {
    /// The rules this calendar's items are held to: those its `rulesName`
    /// names, else the default ones.
    /// - Throws: ``BookImportError/unknownRules(_:)`` for a name that is not
    ///   one of `ValidationRules.presets`.
    public func validationRules() throws(BookImportError) -> (name: String, rules: ValidationRules) {
        let name = rulesName ?? "default"
        guard let preset = ValidationRules.presets.first(where: { $0.name == name.lowercased() }) else { throw .unknownRules(name) }
        return preset
    }

    /// Imports `incoming` into this calendar as a calendar that keeps a
    /// scheduling book must take a file: the promises of `horari import`,
    /// for any app.
    ///
    /// 1. Each item that breaks this calendar's rules (``validationRules()``)
    ///    is refused and listed; the rest are imported. With
    ///    `takingRuleBreakers` they are taken as written.
    /// 2. A member's export brought back (her dated class occurrences,
    ///    `SchedulingBook.isClassOccurrenceExport(_:)`) merges into its
    ///    classes: who holds a place stays as the book says.
    /// 3. A file that speaks of one of the book's classes or sessions as a
    ///    message does is refused whole, before anything changes.
    /// 4. The rest merges by `UID` with ``importMerging(_:zoneNamedBy:)``: no
    ///    record of the book is replaced or removed.
    ///
    /// ```swift
    /// var gym = try ICalendarImporter().importCalendar(from: gymData).calendar
    /// let file = try ICalendarImporter().importCalendar(from: fileData).calendar
    /// let done = try gym.importKeepingBook(file)
    /// for item in done.refused { print("refused \(item.title): \(item.breaks.map(\.message))") }
    /// ```
    ///
    /// - Parameters:
    ///   - incoming: the calendar read from the file.
    ///   - takingRuleBreakers: take items that break the rules as written.
    ///   - zoneProperties: calendar properties that name this calendar's clock.
    /// - Returns: what was merged, left, refused and merged into classes.
    /// - Throws: ``BookImportError``, with nothing changed.
    public mutating func importKeepingBook(_ incoming: ICalendar, takingRuleBreakers: Bool = false,
                                           zoneNamedBy zoneProperties: [String] = ICalendar.bookZoneProperties) throws(BookImportError) -> BookImportReport {
        let (rulesName, rules) = try validationRules()
        var incoming = incoming
        var refused: [RefusedItem] = []
        if !takingRuleBreakers {
            incoming.items.removeAll { item in
                guard !SchedulingBook.isSchedulingItem(item) else { return false }
                let breaks = item.ruleBreaks(rules)
                guard !breaks.isEmpty else { return false }
                refused.append(RefusedItem(uid: item.uid, title: item.title, breaks: breaks))
                return true
            }
        }
        // A member's export, written as the instances her invitations name
        // (issue 41, 2), is taken out before messages about the book are refused.
        var occurrences: [ClassOccurrence.ID] = []
        if incoming.holdsClassOccurrences, let book = try? schedulingBook(defaultTimeZone: timesZoneName) {
            occurrences = incoming.removeClassOccurrences(of: book)
        }
        try refuseMessagesAboutTheBook(incoming)
        let (merge, left) = importMerging(incoming, zoneNamedBy: zoneProperties)
        return BookImportReport(merge: merge, recordsLeft: left, refused: refused, rulesName: rulesName, classOccurrences: occurrences)
    }

    /// Refuses a file that speaks of the book's own classes and sessions as
    /// a message does: an iTIP message other than an answer or a
    /// publication, or instances of a class with no series (what such a
    /// message holds, its `METHOD` taken off). The book's records are found
    /// by their marks, not by reading the book: one record it cannot read
    /// must not let the message through.
    private func refuseMessagesAboutTheBook(_ incoming: ICalendar) throws(BookImportError) {
        let method = incoming.method?.uppercased()
        let isMessage = method.map { $0 != "PUBLISH" } ?? false
        guard isMessage || incoming.items.contains(where: { !$0.hasMaster }) else { return }
        var records: [String: CalendarItem] = [:]
        for item in items where SchedulingBook.isSchedulingItem(item) { records[item.uid] = item }
        let domain = bookUIDDomain
        for item in incoming.items where isMessage || !item.hasMaster {
            guard let record = records[item.uid] ?? records[SchedulingBook.recordID(fromUID: item.uid, domain: domain)] else { continue }
            throw .messageAboutTheBook(record: record.uid, isClass: !record.recurrenceRules.isEmpty, method: method, instances: item.overrides.count)
        }
    }
}
