/// Where an event or a task stands: the iCalendar `STATUS` (RFC 5545 §3.8.1.11).
///
/// The RFC's values are cases; anything else a file says (a misspelling, an
/// `X-` value) is kept in ``other(_:)`` as written, so an import followed by
/// an export loses nothing. Text is read without regard to letter case.
///
/// ```swift
/// item.status = .cancelled
/// if case .other(let text) = item.status { print("unusual status", text) }
/// ```
public enum ItemStatus: Hashable, Sendable, Codable, CustomStringConvertible {
    /// An event not yet confirmed (`TENTATIVE`).
    case tentative
    /// A confirmed event (`CONFIRMED`).
    case confirmed
    /// A cancelled event or task (`CANCELLED`).
    case cancelled
    /// A task still to do (`NEEDS-ACTION`).
    case needsAction
    /// A task that is done (`COMPLETED`).
    case completed
    /// A task under way (`IN-PROCESS`).
    case inProcess
    /// A journal entry's draft (`DRAFT`).
    case draft
    /// A journal entry's final version (`FINAL`).
    case final
    /// A value the RFC does not define, as the file wrote it.
    case other(String)

    /// Reads a `STATUS` value: an RFC value in any letter case, else ``other(_:)``.
    /// - Parameter text: the value.
    public init(_ text: String) {
        switch text.uppercased() {
        case "TENTATIVE": self = .tentative
        case "CONFIRMED": self = .confirmed
        case "CANCELLED": self = .cancelled
        case "NEEDS-ACTION": self = .needsAction
        case "COMPLETED": self = .completed
        case "IN-PROCESS": self = .inProcess
        case "DRAFT": self = .draft
        case "FINAL": self = .final
        default: self = .other(text)
        }
    }

    /// The `STATUS` value as iCalendar writes it (an ``other(_:)`` value as read).
    public var icalValue: String {
        switch self {
        case .tentative: "TENTATIVE"
        case .confirmed: "CONFIRMED"
        case .cancelled: "CANCELLED"
        case .needsAction: "NEEDS-ACTION"
        case .completed: "COMPLETED"
        case .inProcess: "IN-PROCESS"
        case .draft: "DRAFT"
        case .final: "FINAL"
        case .other(let text): text
        }
    }

    /// The iCalendar value.
    public var description: String { icalValue }

    /// Decodes the iCalendar text (`"CANCELLED"`).
    /// - Parameter decoder: the decoder.
    public init(from decoder: any Decoder) throws {
        self.init(try decoder.singleValueContainer().decode(String.self))
    }

    /// Encodes the iCalendar text.
    /// - Parameter encoder: the encoder.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(icalValue)
    }
}
