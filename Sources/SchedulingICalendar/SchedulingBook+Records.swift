import CalendarCore
import CalendarScheduling

extension SchedulingBook {
    /// Whether an item is a class series the book writes (it carries the
    /// class's capacity, `X-HORARI-CAPACITY`), as opposed to a session.
    public static func isClassItem(_ item: CalendarItem) -> Bool {
        item.properties.contains { $0.name == "X-HORARI-CAPACITY" }
    }
}
