import CalendarCore
import Testing

/// Short IDs never cut a word a person chose (issue 43, 14: the views showed
/// `[pilate]` and `[open-d]`), while generated hexadecimal UIDs are cut as
/// git cuts a hash.
@Suite("Short IDs")
struct ShortIDsTests {
    /// The sample gym's items and two generated UIDs (Thunderbird's and horari's forms).
    let ids = ShortIDs([
        "pilates", "yoga", "spin", "open-day", "order-mats", "staff-meeting", "boiler-service", "first-aid-kit",
        "s-anna-1112", "s-anna-1126", "s-pau-1124", "history-essay@thunderbird", "crimson-task@example.com",
        "7f3c9a1e-5b2d-4c1a-9e8f-0a1b2c3d4e5f@horari", "4e2c7a1d-someday@thunderbird", "red-1@example.com", "red-alone@example.com",
        "36095912-5b2d-4c1a-9e8f-0a1b2c3d4e5f@horari", "20261124-standup@example.com",
    ])

    @Test("a word is whole, a separator does not end an ID, a hexadecimal part is cut at six", arguments: [
        ("pilates", "pilates"), ("open-day", "open-day"), ("history-essay@thunderbird", "history"), ("crimson-task@example.com", "crimson"),
        ("staff-meeting", "staff"), ("order-mats", "order"), ("first-aid-kit", "first"), ("s-pau-1124", "s-pau"),
        ("red-1@example.com", "red-1"), ("red-alone@example.com", "red-alone"), ("boiler-service", "boiler"), ("yoga", "yoga"),
        ("s-anna-1112", "s-anna-1112"), ("s-anna-1126", "s-anna-1126"),
        ("7f3c9a1e-5b2d-4c1a-9e8f-0a1b2c3d4e5f@horari", "7f3c9a"), ("4e2c7a1d-someday@thunderbird", "4e2c7a"),
        // A UUID whose first group has no letter (CI drew one: `36095912`) is still a hash.
        ("36095912-5b2d-4c1a-9e8f-0a1b2c3d4e5f@horari", "360959"), ("20261124-standup@example.com", "20261124"),
    ])
    func shortened(_ uid: String, _ short: String) {
        #expect(ids.short(for: uid) == short)
        #expect(ids.resolve(short) == .found(uid))
    }

    @Test("a prefix two items share is ambiguous, and a whole short ID is one item")
    func resolving() {
        #expect(ids.resolve("o") == .ambiguous(["open-day", "order-mats"]))
        #expect(ids.resolve("s-anna") == .ambiguous(["s-anna-1112", "s-anna-1126"]))
        #expect(ids.resolve("open") == .found("open-day"))
        #expect(ids.resolve("nothing") == .notFound)
    }
}
