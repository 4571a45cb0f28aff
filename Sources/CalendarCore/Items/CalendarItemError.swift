/// Why a calendar item was refused.
///
/// ``field`` names the offending field (`title`, `color`, `end`, `recurrence`…)
/// and ``message`` says, in words a person can act on, what to change.
public struct CalendarItemError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of problem it is.
    public enum Code: String, Hashable, Sendable, Codable {
        /// The title is empty or only white space.
        case emptyTitle
        /// The title starts with a digit and the rules forbid that.
        case titleStartsWithDigit
        /// The colour is in the red family (``ReservedRedFamily``): red marks busy days.
        case reservedColor
        /// A colour name CSS3 does not have.
        case unknownColor
        /// The end is before the start.
        case endBeforeStart
        /// An all-day start with a timed end, or the other way round.
        case endTypeMismatch
        /// The recurrence is invalid for the start.
        case invalidRecurrence
        /// The item has no UID.
        case missingUID
        /// No item has this UID.
        case notFound
        /// An item with this UID exists already.
        case duplicateUID
        /// A time zone the item names is not known.
        case unknownTimeZone
        /// The item lasts longer than ``CalendarItem/maximumLength``.
        case tooLong
        /// A task without both a date and a time, where the rules ask for them
        /// (``ValidationRules/requireTaskDateAndTime``).
        case missingTaskTime
        /// Only a task can be done or reopened; the item is an event.
        case notATask
    }

    /// The kind of problem.
    public let code: Code
    /// The field at fault.
    public let field: String
    /// A sentence a person can act on.
    public let message: String

    /// Creates an error.
    public init(_ code: Code, field: String, _ message: String) {
        self.code = code
        self.field = field
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
