import Foundation

/// Why a calendar item was refused.
///
/// ``field`` names the offending field (``Field/title``, ``Field/color``,
/// ``Field/end``, ``Field/recurrence``…) and ``message`` says, in words a
/// person can act on, what to change. A `catch` clause can name the code:
///
/// ```swift
/// do { try store.delete(uid: "gone") }
/// catch CalendarItemError.Code.notFound { … }
/// ```
public struct CalendarItemError: CodedError, Hashable, Sendable {
    /// What kind of problem it is.
    public struct Code: ErrorCode {
        /// The error type whose kinds these are.
        public typealias Coded = CalendarItemError
        /// The code's name.
        public let rawValue: String
        /// Names a code.
        /// - Parameter rawValue: the name.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// Every code in the order of its table, numbered from 1 (Docs/Errors.md).
        public static let numbered: [Code] = [.emptyTitle, .titleStartsWithDigit, .reservedColor, .unknownColor, .endBeforeStart, .endTypeMismatch, .invalidRecurrence, .missingUID, .notFound, .duplicateUID, .unknownTimeZone, .tooLong, .missingTaskTime, .notATask, .notRecurring, .noSuchOccurrence, .unmatchedOverride, .invalidCategory, .invalidProgress]

        /// The title is empty or only white space.
        public static let emptyTitle = Code(rawValue: "emptyTitle")
        /// The title starts with a digit and the rules forbid that.
        public static let titleStartsWithDigit = Code(rawValue: "titleStartsWithDigit")
        /// The colour is in the red family (``ReservedRedFamily``): red marks busy days.
        public static let reservedColor = Code(rawValue: "reservedColor")
        /// A colour name CSS3 does not have.
        public static let unknownColor = Code(rawValue: "unknownColor")
        /// The end is before the start.
        public static let endBeforeStart = Code(rawValue: "endBeforeStart")
        /// An all-day start with a timed end, or the other way round.
        public static let endTypeMismatch = Code(rawValue: "endTypeMismatch")
        /// The recurrence is invalid for the start.
        public static let invalidRecurrence = Code(rawValue: "invalidRecurrence")
        /// The item has no UID.
        public static let missingUID = Code(rawValue: "missingUID")
        /// No item has this UID.
        public static let notFound = Code(rawValue: "notFound")
        /// An item with this UID exists already.
        public static let duplicateUID = Code(rawValue: "duplicateUID")
        /// A time zone the item names is not known.
        public static let unknownTimeZone = Code(rawValue: "unknownTimeZone")
        /// The item lasts longer than ``CalendarItem/maximumLength``.
        public static let tooLong = Code(rawValue: "tooLong")
        /// A task without both a date and a time, where the rules ask for them
        /// (``ValidationRules/requireTaskDateAndTime``).
        public static let missingTaskTime = Code(rawValue: "missingTaskTime")
        /// Only a task can be done or reopened; the item is an event.
        public static let notATask = Code(rawValue: "notATask")
        /// The item does not repeat, so it has no occurrence to change alone.
        public static let notRecurring = Code(rawValue: "notRecurring")
        /// The series has no occurrence at the date or time given (or several on the date).
        public static let noSuchOccurrence = Code(rawValue: "noSuchOccurrence")
        /// A changed instance's `RECURRENCE-ID` names no instance of its series
        /// (``CalendarItem/unmatchedOverrides(zones:)``).
        public static let unmatchedOverride = Code(rawValue: "unmatchedOverride")
        /// A category (a subject, `CATEGORIES`) is empty or longer than
        /// ``CalendarItem/maximumCategoryLength`` characters.
        public static let invalidCategory = Code(rawValue: "invalidCategory")
        /// A task's ``CalendarItem/percentComplete`` is not from 0 to 100.
        public static let invalidProgress = Code(rawValue: "invalidProgress")
    }

    /// A field of an item, named by a type rather than a string.
    public struct Field: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
        /// The field's name, as the CLI's options and the JSON name it.
        public let rawValue: String
        /// Names a field.
        /// - Parameter rawValue: the field's name.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The field's name.
        public var description: String { rawValue }

        /// The `UID`.
        public static let uid = Field(rawValue: "uid")
        /// Whether it is an event or a task.
        public static let kind = Field(rawValue: "kind")
        /// The title (`SUMMARY`).
        public static let title = Field(rawValue: "title")
        /// The start (`DTSTART`).
        public static let start = Field(rawValue: "start")
        /// The end or length (`DTEND`, `DUE`, `DURATION`).
        public static let end = Field(rawValue: "end")
        /// A task's due time.
        public static let due = Field(rawValue: "due")
        /// The colour.
        public static let color = Field(rawValue: "color")
        /// The recurrence (`RRULE`, `RDATE`, `EXDATE`, overrides).
        public static let recurrence = Field(rawValue: "recurrence")
        /// The status (`STATUS`).
        public static let status = Field(rawValue: "status")
        /// The categories (`CATEGORIES`).
        public static let categories = Field(rawValue: "categories")
        /// How far along a task is (`PERCENT-COMPLETE`).
        public static let percentComplete = Field(rawValue: "percentComplete")
    }

    /// The kind of problem.
    public let code: Code
    /// The field at fault.
    public let field: Field
    /// What went wrong and, when there is something to do, what to do: one sentence a person can act on.
    public let message: String
    /// What to do about it, when the message has a remedy: the end of ``message``.
    public let recoverySuggestion: String?
    /// The error this one was made from (a ``TimeValueError`` for an unknown
    /// zone, a ``RecurrenceError`` for a rule…), when there is one. It does
    /// not take part in `==`: two errors are equal when they say the same.
    public let underlying: (any Error)?

    /// Creates an error.
    /// - Parameters:
    ///   - code: the kind of problem.
    ///   - field: the field at fault.
    ///   - message: what went wrong.
    ///   - suggestion: what to do about it; ``message`` is then the two, joined by a semicolon.
    ///   - underlying: the error this one was made from.
    public init(_ code: Code, field: Field, _ message: String, suggestion: String? = nil, underlying: (any Error)? = nil) {
        self.code = code
        self.field = field
        self.message = suggestion.map { "\(message); \($0)" } ?? message
        self.recoverySuggestion = suggestion
        self.underlying = underlying
    }

    /// Equal when code, field, message and suggestion are.
    public static func == (a: CalendarItemError, b: CalendarItemError) -> Bool {
        (a.code, a.field, a.message, a.recoverySuggestion) == (b.code, b.field, b.message, b.recoverySuggestion)
    }

    /// Hashes code, field, message and suggestion.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(field)
        hasher.combine(message)
        hasher.combine(recoverySuggestion)
    }

    /// The message.
    public var description: String { message }

    /// The sentence, the suggestion and the underlying error, under Foundation's keys.
    public var errorUserInfo: [String: Any] { foundationUserInfo(underlying: underlying) }
}
