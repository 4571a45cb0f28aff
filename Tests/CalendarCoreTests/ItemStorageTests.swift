import CalendarCore
import Foundation
import Testing

/// The item's compact fields (`DTSTAMP` in 9 bytes, `SEQUENCE` in 32 bits)
/// give back every value they are given, and compare as the values do.
@Suite("Item storage")
struct ItemStorageTests {
    func item(sequence: Int = 0, timestamp: CalendarTime? = nil) throws -> CalendarItem {
        CalendarItem(uid: "a", title: "A", start: .utc(try LocalDateTime(year: 2026, month: 1, day: 5, hour: 9, minute: 0)),
                     sequence: sequence, timestamp: timestamp)
    }

    @Test("revisions beyond 32 bits, negative ones and zero survive, through the initialiser and the setter",
          arguments: [0, 1, -1, Int(Int32.max), Int(Int32.max) + 1, Int(Int32.min) - 1, Int.max, Int.min])
    func sequences(_ value: Int) throws {
        #expect(try item(sequence: value).sequence == value)
        var changed = try item(sequence: 7)
        changed.sequence = value
        #expect(changed.sequence == value)
        #expect(changed == (try item(sequence: value)), "one value, one form")
        changed.sequence = 3
        #expect(changed == (try item(sequence: 3)), "a wide value set back to a narrow one leaves nothing behind")
    }

    @Test("a timestamp of any kind survives: UTC (the compact form), zoned, floating, a date, none")
    func timestamps() throws {
        let wall = try LocalDateTime(year: 2026, month: 11, day: 1, hour: 12, minute: 0, second: 59)
        let kinds: [CalendarTime?] = [.utc(wall), .zoned(wall, "Europe/Madrid"), .floating(wall), .date(wall.date), nil,
                                      .utc(try LocalDateTime(year: 1, month: 1, day: 1, hour: 0, minute: 0)),
                                      .utc(try LocalDateTime(year: 9999, month: 12, day: 31, hour: 23, minute: 59, second: 59))]
        for time in kinds {
            #expect(try item(timestamp: time).timestamp == time)
            var changed = try item(timestamp: .utc(wall))
            changed.timestamp = time
            #expect(changed.timestamp == time)
            #expect(changed == (try item(timestamp: time)))
        }
        #expect(try item(timestamp: .utc(wall)) != item(timestamp: .floating(wall)), "the same reading in another kind is another time")
    }

    @Test("a copy keeps its own revision when the original changes")
    func copies() throws {
        var a = try item(sequence: 1)
        let b = a
        a.sequence = Int.max
        #expect(b.sequence == 1 && a.sequence == Int.max)
    }
}
