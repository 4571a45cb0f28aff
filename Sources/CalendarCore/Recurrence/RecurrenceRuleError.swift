/// A problem in an `RRULE` value, naming the rule part it is in.
///
/// Strict parsing throws the first problem; lenient parsing repairs what it
/// can and returns every problem as a ``RecurrenceRule/ParseResult/issues``
/// entry instead.
public struct RecurrenceRuleError: CodedError, Hashable, Sendable {
    /// What kind of problem it is.
    public struct Code: ErrorCode {
        /// The error type whose kinds these are.
        public typealias Coded = RecurrenceRuleError
        /// The code's name.
        public let rawValue: String
        /// Names a code.
        /// - Parameter rawValue: the name.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// Every code in the order of its table, numbered from 1 (Docs/Errors.md).
        public static let numbered: [Code] = [.missingFrequency, .malformedValue, .valueOutOfRange, .partNotAllowed, .countAndUntil, .duplicatePart, .unknownPart, .untilTypeMismatch, .missingCompanion]

        /// The rule has no `FREQ`.
        public static let missingFrequency = Code(rawValue: "missingFrequency")
        /// A part's value cannot be read (`INTERVAL=abc`).
        public static let malformedValue = Code(rawValue: "malformedValue")
        /// A number outside the range the RFC allows (`BYMONTH=13`).
        public static let valueOutOfRange = Code(rawValue: "valueOutOfRange")
        /// A part that the rule's `FREQ` does not allow (`BYWEEKNO` with `MONTHLY`).
        public static let partNotAllowed = Code(rawValue: "partNotAllowed")
        /// `COUNT` and `UNTIL` together (RFC 5545 §3.3.10: MUST NOT).
        public static let countAndUntil = Code(rawValue: "countAndUntil")
        /// The same part twice.
        public static let duplicatePart = Code(rawValue: "duplicatePart")
        /// A part name this library does not know (and not an `X-` name).
        public static let unknownPart = Code(rawValue: "unknownPart")
        /// `UNTIL` has a different value type from `DTSTART`.
        public static let untilTypeMismatch = Code(rawValue: "untilTypeMismatch")
        /// A part the rule needs together with another one (`BYSETPOS` alone).
        public static let missingCompanion = Code(rawValue: "missingCompanion")
    }

    /// The kind of problem.
    public let code: Code
    /// The rule part it is in, such as `BYWEEKNO`, when there is one.
    public let part: String?
    /// A sentence a person can act on.
    public let message: String

    /// Creates an error.
    public init(_ code: Code, part: String?, _ message: String) {
        self.code = code
        self.part = part
        self.message = message
    }

    /// The message, prefixed by the part.
    public var description: String { part.map { "\($0): \(message)" } ?? message }

}

