import CalendarCore
import Foundation
import ICalendarKit

/// The names of the book's records that a change made in place of a file
/// (CalendarStore's `SchedulingFile`) looks for without reading the file:
/// the book's mapping knows them, storage asks for them.
package enum SchedulingRecordNames {
    /// On a yearly part of a class's series (`ID@YEAR`): the class's ID.
    package static let classPart = Names.classPart
    /// The `ATTENDEE` parameter that names a booked member's ID.
    package static let memberParameter = Names.memberParameter
    /// The components of the book's earlier form, which only the whole-file
    /// change reads (and migrates).
    package static let earlierForm = Names.components
    /// The prefix of a member's journal `UID` (`member:`).
    package static let memberUIDPrefix = Names.uidPrefix(Names.memberCategory)
    /// The `CATEGORIES` of a message a change owes, kept in a calendar
    /// that is not a database (a `VJOURNAL`, CalendarStore's
    /// `SchedulingStore`): the store's own, never exchanged.
    package static let owedCategory = "horari-owed"
    /// The property that holds an owed message's content (its JSON, as text).
    package static let owedProperty = "X-HORARI-OWED"
    /// The prefix of an owed message's `UID` (`owed:`).
    package static let owedUIDPrefix = "owed:"

    /// Whether a component is a message a change owes (see ``owedCategory``).
    package static func isOwedMessage(_ component: ContentComponent) -> Bool {
        guard component.name.uppercased() == "VJOURNAL" else { return false }
        return namesOwedCategory(component.properties.filter { $0.name.uppercased() == "CATEGORIES" }.map(\.value))
    }

    /// The property that orders the messages a calendar owes.
    static let owedPositionProperty = "X-HORARI-POSITION"

    /// A message a change owes, as a calendar keeps it: a private
    /// `VJOURNAL` whose `X-HORARI-OWED` holds its stored body in base64.
    /// Base64, not the JSON as escaped text: peers disagree on an unknown
    /// property's escapes (Python's icalendar reads an `X-` value raw, so
    /// `\,` stays), and base64 needs none, so every reader gets the same bytes.
    /// - Parameters:
    ///   - id: the message's ID (the `UID` is `owed:ID`).
    ///   - summary: what a person reading the file sees.
    ///   - position: where it stands among the messages the calendar owes
    ///     (`X-HORARI-POSITION`): a folder's and a collection's resources
    ///     have no order of their own, and clocks may agree (a fixed `now`)
    ///     or disagree (two machines).
    ///   - body: the message's stored body.
    package static func owedJournal(id: String, summary: String, position: Int, body: Data) -> ContentComponent {
        ContentComponent(name: "VJOURNAL", properties: ContentLines([
            // No DTSTAMP: the exporter writes the save's, as for the book's records.
            ContentLine(name: "UID", value: owedUIDPrefix + id),
            ContentLine(name: "SUMMARY", text: summary),
            ContentLine(name: "CATEGORIES", value: owedCategory),
            ContentLine(name: "CLASS", value: "PRIVATE"),
            ContentLine(name: owedPositionProperty, value: String(position)),
            ContentLine(name: owedProperty, value: body.base64EncodedString()),
        ]))
    }

    /// An owed message's stored body and position, from its journal: an
    /// empty body when it cannot be read; position 0 when it does not say,
    /// at most a billion (so the next never overflows).
    package static func owedContent(of journal: ContentComponent) -> (body: Data, position: Int) {
        func value(_ name: String) -> String? { journal.properties.first { $0.name.uppercased() == name }?.value.trimmingCharacters(in: .whitespaces) }
        let n = value(owedPositionProperty).flatMap { Int($0) } ?? 0
        return (value(owedProperty).flatMap { Data(base64Encoded: $0) } ?? Data(), min(max(n, 0), 1_000_000_000))
    }

    /// The IDs of the owed messages among a file outline's components
    /// (indexed by `UID` and `CATEGORIES`, ``owedIndex``), with each component.
    package static func owedIDs(in outline: ICalendarOutline) -> [(id: String, component: ICalendarOutline.Component)] {
        outline.components.compactMap { c in
            guard c.name == "VJOURNAL", namesOwedCategory(c.values("CATEGORIES")), let uid = c.values("UID").first else { return nil }
            return (owedID(uid: uid), c)
        }
    }

    /// The properties a file outline indexes for ``owedIDs(in:)``.
    package static let owedIndex: Set<String> = ["UID", "CATEGORIES"]

    /// An owed message's ID, from its journal's `UID` (`owed:ID`).
    package static func owedID(uid: String) -> String {
        let uid = uid.trimmingCharacters(in: .whitespaces)
        return uid.hasPrefix(owedUIDPrefix) ? String(uid.dropFirst(owedUIDPrefix.count)) : uid
    }

    /// Whether `CATEGORIES` values, as written (any line, any case, lists
    /// split at commas), name ``owedCategory``: the one test of a journal
    /// read whole and of one found in a file's outline.
    package static func namesOwedCategory(_ values: [String]) -> Bool {
        values.contains { $0.split(separator: ",").contains { $0.trimmingCharacters(in: .whitespaces).lowercased() == owedCategory } }
    }
}
