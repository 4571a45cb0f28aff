/// An error in a date, a time or a time zone given to Horari.
///
/// Catch it and switch on ``code`` (`catch let error where error.code == .…`); ``message`` says what was wrong in words a person can
/// act on.
public struct TimeValueError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of problem it is.
    public enum Code: String, Hashable, Sendable, Codable {
        /// A field is outside its range (month 13, hour 24).
        case outOfRange
        /// A date that the calendar does not have (February 30).
        case impossibleDate
        /// Text that is not a date or date-time in the expected form.
        case malformed
        /// A time-zone identifier that is not known.
        case unknownTimeZone
    }

    /// The kind of problem.
    public let code: Code
    /// A sentence describing the problem.
    public let message: String

    /// Creates an error.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The message.
    public var description: String { message }

}
