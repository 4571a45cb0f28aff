#if LibICal  // the benchmark measures against libical; without it, WithoutLibICal.swift
import CalendarCore
import CalendarScheduling
import Foundation
import _CalendarTestSupport

/// Bookings and free slots (issue 5).
///
/// - 100,000 bookings across 1,000 weekly class series (10,000 members, ten
///   bookings each, random occurrences over twelve weeks, fixed seed), through
///   the book's rules and through the `FrontDesk` actor, against a reference
///   in the same run: appending the same member IDs to a bare dictionary of
///   arrays, with no rule checked. Memory per booking is the heap's growth
///   (the resident set) over the bookings, beside the bare dictionary's.
/// - A free-slot search over one month of a busy coach (a year of 30–90
///   minute sessions on most working hours), against a naive search that
///   scans every session for every working stretch. Target: under 1 ms.
enum SchedulingBench {
    static func run(quick: Bool, summary: inout Summary) async throws {
        print("Scheduling: \(quick ? "10,000" : "100,000") bookings across 1,000 class series; free slots of a busy coach")
        print(HorariBench.row("", "Horari", "reference", "ratio"))
        try await bookings(count: quick ? 10_000 : 100_000, summary: &summary)
        try freeSlots(repeats: quick ? 50 : 500, summary: &summary)
    }

    /// The resident set in bytes (`VmRSS`); its growth over a step is the
    /// memory that step kept. (glibc's `mallinfo2` is not visible from Swift's
    /// Glibc module, and `mallinfo` is deprecated.)
    static func heapBytes() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
            let kb = line.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
        else { return 0 }
        return kb * 1024
    }

    static func bookings(count: Int, summary: inout Summary) async throws {
        var rng = SplitMix64(seed: 5)
        var book = SchedulingBook(timeZone: try .named("Europe/Madrid"))
        let first = try LocalDate(year: 2030, month: 1, day: 7)  // a Monday
        for i in 0..<1_000 {
            let days = Array(Set((0..<(1 + Int(rng.next() % 3))).map { _ in Weekday(rawValue: Int(rng.next() % 7)) ?? .monday }))
            try book.addClass(ClassSeries(
                id: "class-\(i)", title: "Class \(i)", weekdays: days, time: TimeOfDay(hour: 7 + Int(rng.next() % 14), minute: 15 * Int(rng.next() % 4)),
                duration: .minutes(60), capacity: 400, firstDate: first))
        }
        let members = count / 10
        for i in 0..<members { try book.addMember(Member(id: "m\(i)", name: "Member \(i)")) }
        // Requests: each member books ten random occurrences in twelve weeks (a duplicate draw is redrawn).
        let series = book.classes
        var requests: [(member: String, classID: String, date: LocalDate)] = []
        requests.reserveCapacity(count)
        for m in 0..<members {
            var seen = Set<ClassOccurrence.ID>()
            while seen.count < 10 {
                let s = series[Int(rng.next() % UInt64(series.count))]
                let week = Int(rng.next() % 12)
                let day = s.weekdays[Int(rng.next() % UInt64(s.weekdays.count))]
                let date = first.adding(days: week * 7 + day.rawValue)
                if seen.insert(.init(classID: s.id, date: date)).inserted { requests.append(("m\(m)", s.id, date)) }
            }
        }
        requests.shuffle(using: &rng)
        let now = Date(timeIntervalSince1970: 1_893_456_000)  // 2030-01-01

        // Reference: the same appends into a bare dictionary, no rule checked.
        let bareBefore = heapBytes()
        var bare: [ClassOccurrence.ID: [String]] = [:]
        let bareTime = HorariBench.seconds {
            for r in requests { bare[ClassOccurrence.ID(classID: r.classID, date: r.date), default: []].append(r.member) }
        }
        let bareBytes = heapBytes() - bareBefore
        withExtendedLifetime(bare) {}

        // The book's rules, on the value.
        var value = book
        let before = heapBytes()
        var refused = 0
        let valueTime = HorariBench.seconds {
            for r in requests {
                do { try value.book(member: r.member, classID: r.classID, on: r.date, now: now) } catch { refused += 1 }
            }
        }
        let bookBytes = heapBytes() - before
        precondition(refused == 0 && value.bookingCount == requests.count, "every request books")

        // Through the actor, one request at a time from one task.
        let scheduler = FrontDesk(book: book)
        let start = DispatchTime.now().uptimeNanoseconds
        for r in requests {
            _ = try await scheduler.perform { b throws(SchedulingError) in try b.book(member: r.member, classID: r.classID, on: r.date, now: now) }
        }
        let actorTime = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let booked = await scheduler.book.bookingCount
        precondition(booked == requests.count)

        // Through the actor from eight tasks at once, each with an eighth of the requests.
        let shared = FrontDesk(book: book)
        let all = requests
        let startShared = DispatchTime.now().uptimeNanoseconds
        try await withThrowingTaskGroup(of: Void.self) { group in
            for t in 0..<8 {
                group.addTask {
                    for r in all[(all.count * t / 8)..<(all.count * (t + 1) / 8)] {
                        _ = try await shared.perform { b throws(SchedulingError) in try b.book(member: r.member, classID: r.classID, on: r.date, now: now) }
                    }
                }
            }
            try await group.waitForAll()
        }
        let sharedTime = Double(DispatchTime.now().uptimeNanoseconds - startShared) / 1e9
        let sharedBooked = await shared.book.bookingCount
        precondition(sharedBooked == requests.count)

        let n = Double(requests.count)
        print(HorariBench.row("bookings/s (book's rules)", String(format: "%.0f", n / valueTime), String(format: "%.0f", n / bareTime), String(format: "%.1fx bare dictionary", bareTime / valueTime)))
        print(HorariBench.row("bookings/s (through actor)", String(format: "%.0f", n / actorTime), String(format: "%.0f", n / valueTime), String(format: "%.2fx the value", valueTime / actorTime)))
        print(HorariBench.row("bookings/s (8 tasks, actor)", String(format: "%.0f", n / sharedTime), String(format: "%.0f", n / valueTime), String(format: "%.2fx the value", valueTime / sharedTime)))
        summary.add("bookings (the book's rules)", Figure.rate(n, valueTime), "bare dictionary, no rule: " + Figure.rate(n, bareTime), Figure.times(bareTime / valueTime, "rate"), "")
        summary.add("bookings through the actor, 8 tasks", Figure.rate(n, sharedTime), "the book as a value: " + Figure.rate(n, valueTime), Figure.times(valueTime / sharedTime, "rate"), "")
        print(HorariBench.row("heap per booking", String(format: "%.0f B", Double(bookBytes) / n), String(format: "%.0f B", Double(bareBytes) / n), String(format: "%.1fx bare dictionary", Double(bookBytes) / Double(max(1, bareBytes)))))
    }

    static func freeSlots(repeats: Int, summary: inout Summary) throws {
        var rng = SplitMix64(seed: 55)
        var book = SchedulingBook(timeZone: try .named("Europe/Madrid"))
        var hours = WorkingHours()
        try hours.set([TimeRange(parsing: "07:00-14:00"), TimeRange(parsing: "15:00-21:00")], on: [.monday, .tuesday, .wednesday, .thursday, .friday])
        try hours.set([TimeRange(parsing: "09:00-13:00")], on: [.saturday])
        try book.addCoach(Coach(id: "busy", name: "Busy Coach", workingHours: hours, buffer: .minutes(10)))
        for c in 0..<200 { try book.addClient(Client(id: "c\(c)", coachID: "busy", name: "Client \(c)")) }
        // A year of sessions: at a third of the working quarter hours, a 30–90 minute session (a clash is skipped).
        let year = try LocalDate(year: 2030, month: 1, day: 1)
        var sessions = 0
        for d in 0..<365 {
            let date = year.adding(days: d)
            for range in hours.hours(on: date) {
                var m = range.start.minutes
                while m < range.end.minutes {
                    let minutes = 30 + 15 * Int(rng.next() % 5)
                    if rng.next() % 3 == 0,
                        (try? book.addSession(coach: "busy", client: "c\(rng.next() % 200)", start: LocalDateTime(localSeconds: Int64(date.dayNumber) * 86_400 + Int64(m) * 60), duration: .minutes(minutes))) != nil {
                        sessions += 1
                        m += minutes + 10
                    } else {
                        m += 15
                    }
                }
            }
        }
        let from = try LocalDate(year: 2030, month: 6, day: 1), through = try LocalDate(year: 2030, month: 6, day: 30)
        var slots: [FreeSlot] = []
        var times: [Double] = []
        for _ in 0..<repeats {
            times.append(try HorariBench.seconds { slots = try book.freeSlots(coach: "busy", from: from, through: through, length: .minutes(60), step: .minutes(15)) })
        }
        // Reference: the naive search, every session against every working stretch.
        let all = try book.sessions(coach: "busy").filter(\.holdsTime).map { s in
            let start = try CalendarTime.zoned(s.start, book.timeZone.identifier).epochSeconds(floatingZone: .utc)
            return (start: start, end: start + s.duration.components.seconds)
        }
        let zone = book.timeZone
        var naiveCount = 0
        var naiveTimes: [Double] = []
        for _ in 0..<max(3, repeats / 20) {
            naiveTimes.append(HorariBench.seconds {
                var found = 0
                var day = from.dayNumber
                while day <= through.dayNumber {
                    let date = LocalDate(dayNumber: day)
                    for r in hours.hours(on: date) {
                        let open = zone.instant(forWall: Int64(day) * 86_400 + Int64(r.start.minutes) * 60)
                        let close = zone.instant(forWall: Int64(day) * 86_400 + Int64(r.end.minutes) * 60)
                        let busy = all.filter { $0.start - 600 < close && open < $0.end + 600 }.sorted { $0.start < $1.start }
                        var cursor = open
                        for b in busy {
                            if b.start - 600 > cursor { var t = cursor; while t + 3600 <= b.start - 600 { found += 1; t += 900 } }
                            cursor = max(cursor, b.end + 600)
                        }
                        var t = cursor
                        while t + 3600 <= close { found += 1; t += 900 }
                    }
                    day += 1
                }
                naiveCount = found
            })
        }
        precondition(naiveCount == slots.count, "the naive search finds the same \(slots.count) slots, not \(naiveCount)")
        let median = times.sorted()[times.count / 2], naive = naiveTimes.sorted()[naiveTimes.count / 2]
        print(HorariBench.row("free slots, a month", String(format: "%.3f ms", median * 1e3), String(format: "%.3f ms", naive * 1e3),
                              String(format: "%.0fx naive scan", naive / median)))
        print("  (\(sessions) sessions in the year, \(slots.count) free 60-minute slots in June at a 15-minute step; median of \(repeats); target < 1 ms)")
        summary.add("free slots of a busy coach, a month", String(format: "%.3f ms", median * 1e3), String(format: "naive scan: %.3f ms", naive * 1e3),
                    Figure.times(median / naive, "time"), "< 1 ms")
    }
}
#endif
