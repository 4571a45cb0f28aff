import Foundation

/// Rules an app can tune for what items it accepts.
public struct ValidationRules: Hashable, Sendable, Codable {
    /// Refuse titles that start with a digit (the seed app did). Off by default.
    public var forbidTitlesStartingWithDigit: Bool
    /// Require every task to have a date and a time (a due date-time, or a
    /// timed start), as the task-planner app did. Off by default.
    public var requireTaskDateAndTime: Bool
    /// The colours reserved for busy days (see ``ReservedRedFamily`` for its bounds).
    public var reservedColors: ReservedRedFamily

    /// Creates rules; the defaults allow digit-first titles and tasks without
    /// a time, and reserve the red family.
    public init(forbidTitlesStartingWithDigit: Bool = false, requireTaskDateAndTime: Bool = false,
                reservedColors: ReservedRedFamily = ReservedRedFamily()) {
        self.forbidTitlesStartingWithDigit = forbidTitlesStartingWithDigit
        self.requireTaskDateAndTime = requireTaskDateAndTime
        self.reservedColors = reservedColors
    }

    /// The task-planner app's rules: no title that starts with a digit, and
    /// every task with both a date and a time.
    public static let taskPlanner = ValidationRules(forbidTitlesStartingWithDigit: true, requireTaskDateAndTime: true)

    /// The rules by the name a calendar file stores them under
    /// (`X-HORARI-RULES`): `default` or `task-planner`.
    public static let presets: [(name: String, rules: ValidationRules)] = [("default", ValidationRules()), ("task-planner", .taskPlanner)]
}
