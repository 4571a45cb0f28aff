import Foundation

/// A length of time as iCalendar `DURATION` means it: whole days, which follow
/// the wall clock across daylight-saving changes, plus exact seconds.
public struct ItemDuration: Hashable, Sendable, Codable {
    /// Nominal days (`P1D`, weeks count as 7).
    public var days: Int
    /// Exact seconds (`PT1H30M` is 5400).
    public var seconds: Int

    /// Creates a duration.
    public init(days: Int = 0, seconds: Int = 0) {
        self.days = days
        self.seconds = seconds
    }
}
