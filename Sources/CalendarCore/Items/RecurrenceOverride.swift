import Foundation

/// One instance of a recurring item, changed (a `RECURRENCE-ID` component).
public struct RecurrenceOverride: Hashable, Sendable, Codable {
    /// The instance it replaces: its recurrence ID, in the series' own zone.
    public var recurrenceID: CalendarTime
    /// Whether the change applies to this and every later instance
    /// (`RANGE=THISANDFUTURE`): later instances move by the same amount and
    /// take this override's length and fields.
    public var thisAndFuture: Bool
    /// The instance's new fields; its `start` is the new start.
    public var item: CalendarItem
    /// Whether the instance is cancelled (`STATUS:CANCELLED`): it is not shown.
    public var isCancelled: Bool

    /// Creates an override.
    public init(recurrenceID: CalendarTime, thisAndFuture: Bool = false, item: CalendarItem, isCancelled: Bool = false) {
        self.recurrenceID = recurrenceID
        self.thisAndFuture = thisAndFuture
        self.item = item
        self.isCancelled = isCancelled
    }
}
