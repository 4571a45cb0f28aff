/// An error in a date, a time or a time zone given to Horari.
///
/// Catch it by code (`catch TimeValueError.Code.impossibleDate`); ``message`` says what was wrong in words a person can
/// act on.
public struct TimeValueError: CodedError, Hashable, Sendable {
    /// What kind of problem it is.
    public struct Code: ErrorCode {
        /// The error type whose kinds these are.
        public typealias Coded = TimeValueError
        /// The code's name.
        public let rawValue: String
        /// Names a code.
        /// - Parameter rawValue: the name.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// Every code in the order of its table, numbered from 1 (Docs/Errors.md).
        public static let numbered: [Code] = [.outOfRange, .impossibleDate, .malformed, .unknownTimeZone]

        /// A field is outside its range (month 13, hour 24).
        public static let outOfRange = Code(rawValue: "outOfRange")
        /// A date that the calendar does not have (February 30).
        public static let impossibleDate = Code(rawValue: "impossibleDate")
        /// Text that is not a date or date-time in the expected form.
        public static let malformed = Code(rawValue: "malformed")
        /// A time-zone identifier that is not known.
        public static let unknownTimeZone = Code(rawValue: "unknownTimeZone")
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

