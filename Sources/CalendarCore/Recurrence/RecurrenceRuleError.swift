/// A problem in an `RRULE` value, naming the rule part it is in.
///
/// Strict parsing throws the first problem; lenient parsing repairs what it
/// can and returns every problem as a ``RecurrenceRule/ParseResult/issues``
/// entry instead.
public struct RecurrenceRuleError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of problem it is.
    public enum Code: String, Hashable, Sendable, Codable {
        /// The rule has no `FREQ`.
        case missingFrequency
        /// A part's value cannot be read (`INTERVAL=abc`).
        case malformedValue
        /// A number outside the range the RFC allows (`BYMONTH=13`).
        case valueOutOfRange
        /// A part that the rule's `FREQ` does not allow (`BYWEEKNO` with `MONTHLY`).
        case partNotAllowed
        /// `COUNT` and `UNTIL` together (RFC 5545 §3.3.10: MUST NOT).
        case countAndUntil
        /// The same part twice.
        case duplicatePart
        /// A part name this library does not know (and not an `X-` name).
        case unknownPart
        /// `UNTIL` has a different value type from `DTSTART`.
        case untilTypeMismatch
        /// A part the rule needs together with another one (`BYSETPOS` alone).
        case missingCompanion
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
