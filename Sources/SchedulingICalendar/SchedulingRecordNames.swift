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
}
