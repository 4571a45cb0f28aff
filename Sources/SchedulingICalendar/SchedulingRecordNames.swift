import CalendarCore
import Foundation

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

    /// Whether `CATEGORIES` values, as written (any line, any case, lists
    /// split at commas), name ``owedCategory``: the one test of a journal
    /// read whole and of one found in a file's outline.
    package static func namesOwedCategory(_ values: [String]) -> Bool {
        values.contains { $0.split(separator: ",").contains { $0.trimmingCharacters(in: .whitespaces).lowercased() == owedCategory } }
    }
}
