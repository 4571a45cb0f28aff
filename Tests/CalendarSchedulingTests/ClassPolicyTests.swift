import CalendarCore
import CalendarScheduling
import Foundation
import Testing
import _SchedulingTestSupport

/// Issue 31, 4: booking policies for classes. The gym (`Gym.book()`) has
/// Yoga on Monday and Wednesday at 18:30 (3 places) and Spinning on Friday
/// at 07:00; Monday 2026-11-23 is the week's first day.
@Suite("Class booking policies")
struct ClassPolicyTests {
    func book(_ policy: ClassBookingPolicy) throws -> SchedulingBook {
        var book = try Gym.book()
        book.classPolicy = policy
        return book
    }

    @Test("a booking window: fourteen days ahead is the latest; beyond, refused with the day bookings open")
    func bookingWindow() throws {
        var book = try book(ClassBookingPolicy(bookingWindowDays: 14))
        let now = try Gym.now("2026-11-22 10:00")
        try book.book(member: "marta", classID: "yoga", on: try Gym.day("2026-12-02"), now: now)   // 10 days ahead
        try book.book(member: "oriol", classID: "yoga", on: try Gym.day("2026-12-06").adding(days: -6), now: now)  // Monday the 30th
        let refused = refusal { try book.book(member: "marta", classID: "yoga", on: try Gym.day("2026-12-07"), now: now) }  // 15 days
        #expect(refused == .beyondBookingWindow(title: "Yoga", date: try Gym.day("2026-12-07"), days: 14, opens: try Gym.day("2026-11-23")))
        #expect(refused?.description == "Yoga on 2026-12-07 is more than 14 days ahead, as far as places can be booked; its bookings open on 2026-11-23")
        #expect(refused?.errorCode == 23)
        // The next morning it opens.
        try book.book(member: "marta", classID: "yoga", on: try Gym.day("2026-12-07"), now: try Gym.now("2026-11-23 00:00"))
        // Without a policy, any date.
        var open = try Gym.book()
        try open.book(member: "marta", classID: "yoga", on: try Gym.day("2027-03-01"), now: now)
    }

    @Test("a cancellation cut-off: a held place cannot be given up within 12 hours of the start; a waiting place always can; nothing changes when refused")
    func cancellationCutoff() throws {
        var book = try book(ClassBookingPolicy(cancellationCutoff: .seconds(12 * 3600)))
        let monday = try Gym.day("2026-11-23"), booked = try Gym.now("2026-11-20 10:00")
        for m in ["marta", "oriol", "nuria"] { try book.book(member: m, classID: "yoga", on: monday, now: booked) }
        try book.addMember(Member(id: "quim", name: "Quim Puig"))
        try book.book(member: "quim", classID: "yoga", on: monday, now: booked, whenFull: .joinWaitlist)
        let before = book
        // 18:30 start; at 07:00 it is 11½ hours away.
        let late = refusal { try book.cancelBooking(member: "marta", classID: "yoga", on: monday, now: try Gym.now("2026-11-23 07:00")) }
        #expect(late == .cancellationTooLate(member: "marta", title: "Yoga", date: monday, start: try Gym.at("2026-11-23 18:30"), cutoff: .seconds(12 * 3600)))
        #expect(late?.description == "member ‘marta’ cannot give up the place in Yoga on 2026-11-23 (at 18:30): places cannot be given up within 12 hours of the start; come to the class, or ask the front desk")
        #expect(book == before)
        // The waiting member may leave the queue at any time.
        try book.cancelBooking(member: "quim", classID: "yoga", on: monday, now: try Gym.now("2026-11-23 18:00"))
        // At 06:30, exactly 12 hours before, it is still allowed.
        let freed = try book.cancelBooking(member: "marta", classID: "yoga", on: monday, now: try Gym.now("2026-11-23 06:30"))
        #expect(freed.heldPlace)
        // The front desk removing a member is not a member's cancellation.
        _ = try book.removeMember("oriol", now: try Gym.now("2026-11-23 17:00"))
        #expect(try book.roster(classID: "yoga", on: monday).confirmed == ["nuria"])
    }

    @Test("a weekly limit: places booked or waiting count, by the week the class takes place in; a cancelled class does not")
    func weeklyLimit() throws {
        var book = try book(ClassBookingPolicy(weeklyLimit: 2))
        let now = try Gym.now("2026-11-20 10:00")
        try book.book(member: "marta", classID: "yoga", on: try Gym.day("2026-11-23"), now: now)
        try book.book(member: "marta", classID: "spin", on: try Gym.day("2026-11-27"), now: now)
        let third = refusal { try book.book(member: "marta", classID: "yoga", on: try Gym.day("2026-11-25"), now: now) }
        #expect(third == .weeklyLimitReached(member: "marta", limit: 2, weekOf: try Gym.day("2026-11-23")))
        #expect(third?.description == "member ‘marta’ already holds 2 places in the week of 2026-11-23, the most a member may; give one up to book another")
        // The next week is another week.
        try book.book(member: "marta", classID: "yoga", on: try Gym.day("2026-11-30"), now: now)
        // A class the gym cancels frees the week's count.
        try book.cancelOccurrence(classID: "spin", on: try Gym.day("2026-11-27"))
        try book.book(member: "marta", classID: "yoga", on: try Gym.day("2026-11-25"), now: now)
        // A policy's own values are checked.
        #expect(refusal { try ClassBookingPolicy(weeklyLimit: 0).validate() }.map { "\($0)" }?.contains("weekly limit of 0") == true)
        #expect(refusal { try ClassBookingPolicy(bookingWindowDays: -1).validate() } != nil)
    }

    @Test("the weekly limit holds when 200 bookings by one member race through the front desk")
    func limitUnderConcurrency() async throws {
        var book = try Gym.book()
        for day in 0..<7 {
            try book.addClass(ClassSeries(id: "c\(day)", title: "Class \(day)", weekdays: [try Gym.day("2026-11-23").adding(days: day).weekday], time: TimeOfDay(hour: 8 + day),
                                          duration: .minutes(45), capacity: 20, firstDate: try Gym.day("2026-11-23")))
        }
        book.classPolicy = ClassBookingPolicy(weeklyLimit: 3)
        let desk = FrontDesk(book: book)
        let now = try Gym.now("2026-11-22 12:00")
        let monday = try Gym.day("2026-11-23")
        let results = await withTaskGroup(of: Bool.self) { group in
            for i in 0..<200 {
                group.addTask {
                    let day = i % 7
                    let date = monday.adding(days: day)
                    do {
                        _ = try await desk.member("marta").book(classID: "c\(day)", on: date, now: now)
                        return true
                    } catch { return false }
                }
            }
            var ok = 0
            for await r in group where r { ok += 1 }
            return ok
        }
        #expect(results == 3)
        #expect(try await desk.book.bookings(member: "marta").count == 3)
    }

    @Test("the policy is part of the book's JSON, and of its equality")
    func codable() throws {
        let book = try book(ClassBookingPolicy(bookingWindowDays: 14, cancellationCutoff: .seconds(12 * 3600), weeklyLimit: 3))
        let data = try JSONEncoder().encode(book)
        #expect(String(decoding: data, as: UTF8.self).contains(#""cancellationCutoff":"PT12H""#))
        let back = try JSONDecoder().decode(SchedulingBook.self, from: data)
        #expect(back == book)
        #expect(back != (try Gym.book()))
    }
}
