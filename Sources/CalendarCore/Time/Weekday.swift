/// A day of the week, in the order RFC 5545 lists them (`MO` … `SU`).
///
/// The raw value is the ISO 8601 weekday number minus one: Monday is 0,
/// Sunday is 6.
public enum Weekday: Int, CaseIterable, Hashable, Comparable, Sendable, Codable {
    /// Monday (`MO`).
    case monday = 0
    /// Tuesday (`TU`).
    case tuesday
    /// Wednesday (`WE`).
    case wednesday
    /// Thursday (`TH`).
    case thursday
    /// Friday (`FR`).
    case friday
    /// Saturday (`SA`).
    case saturday
    /// Sunday (`SU`).
    case sunday

    /// The two-letter code iCalendar uses, such as `MO`.
    public var icalCode: String {
        switch self {
        case .monday: "MO"
        case .tuesday: "TU"
        case .wednesday: "WE"
        case .thursday: "TH"
        case .friday: "FR"
        case .saturday: "SA"
        case .sunday: "SU"
        }
    }

    /// Creates a weekday from its two-letter iCalendar code (case-insensitive).
    public init?(icalCode: some StringProtocol) {
        switch icalCode.uppercased() {
        case "MO": self = .monday
        case "TU": self = .tuesday
        case "WE": self = .wednesday
        case "TH": self = .thursday
        case "FR": self = .friday
        case "SA": self = .saturday
        case "SU": self = .sunday
        default: return nil
        }
    }

    /// The weekdays indexed by raw value (Monday first), for arithmetic without optionals.
    static let ordered: [Weekday] = [.monday, .tuesday, .wednesday, .thursday, .friday, .saturday, .sunday]

    /// The ISO 8601 weekday number: Monday is 1, Sunday is 7.
    public var isoNumber: Int { rawValue + 1 }

    /// Compares weekdays in ISO order (Monday first).
    public static func < (lhs: Weekday, rhs: Weekday) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The weekday `n` days after this one (negative `n` goes back).
    public func advanced(by n: Int) -> Weekday {
        Weekday.ordered[((rawValue + n) % 7 + 7) % 7]
    }
}
