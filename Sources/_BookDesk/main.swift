// Not API: one desk of a gym, as a separate process, for the tests that
// race processes on one SQLite file and kill them mid-change
// (CalendarStoreTests' BookDeskProcessTests), or on one PostgreSQL database
// as desks on separate machines would (CalendarStorePostgresTests: DB is a
// postgres:// URL). Each command is one line of output and an exit code:
// 0 done, 3 refused, 1 failed.
//
//   _BookDesk DB seed MEMBERS           a gym: Yoga on Mondays, 5 places; members m0…
//   _BookDesk DB book MEMBER DATE       book a place, telling (the message is owed)
//   _BookDesk DB churn OUTBOX SEED N    N changes of random members and Mondays, each delivered: a
//                                       member with a place cancels it, any other books (a full
//                                       class: another member cancels); "committed I" after
//                                       each change, "delivered I" after its delivery
//   _BookDesk DB deliver OUTBOX         deliver what is owed: one OUTBOX/ID.eml each
//   _BookDesk DB places                 "member date" for every place held
//   _BookDesk DB messages               "id member date method" for every message committed
//   _BookDesk DB bench N [SCOPE]        N bookings at once in this process (each telling, one
//                                       member each, Spinning with N places), then their
//                                       cancellations: one JSON line of times (Benchmarks/postgres_bench.py).
//                                       SCOPE: `occurrence` (default; each change reads the occurrence's
//                                       records, as `horari book` does) or `whole` (the whole book)
import CalendarCore
import CalendarScheduling
import CalendarStore
import Foundation
import SchedulingICalendar
#if PostgreSQL
import CalendarStorePostgres
#endif

let arguments = CommandLine.arguments
func fail(_ message: String, _ code: Int32 = 1) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(code)
}
guard arguments.count >= 3 else { fail("usage: _BookDesk DB COMMAND …", 2) }
let now = Date(timeIntervalSince1970: 1_795_176_000)  // 2026-11-20 12:00 UTC
let gym = SchedulingNotice.Person(id: "gym", name: "Desk Gym", email: "desk@gym.example")
let yogaPlaces = 5
let mondays = (0..<4).compactMap { try? LocalDate(year: 2026, month: 11, day: 23).adding(days: 7 * $0) }

/// Runs the command on `storage`.
func desk<Storage: BookStorage>(_ storage: Storage) async throws {
    let store = BookStore(storage, newBookZone: "Europe/Madrid", now: { _ in now })

    func deliver(into folder: String) async throws -> Int {
        try await store.deliver { message in
            guard let mail = try message.notice.email(timeZone: try .named(message.timeZone), gym: message.gym, date: message.madeAt) else { return }
            let file = URL(fileURLWithPath: folder).appendingPathComponent("\(message.id).eml")
            try mail.data().write(to: file, options: .atomic)
        }
    }

    switch arguments[2] {
    case "seed":
        let count = Int(arguments.count > 3 ? arguments[3] : "") ?? 20
        try await store.change { book in
            book = SchedulingBook(timeZone: try .named("Europe/Madrid"))
            for i in 0..<count { try book.addMember(Member(id: "m\(i)", name: "Member \(i)", email: "m\(i)@example.com")) }
            try book.addClass(ClassSeries(id: "yoga", title: "Yoga", weekdays: [.monday], time: try TimeOfDay(hour: 18, minute: 30),
                                          duration: .seconds(3600), capacity: yogaPlaces, firstDate: try LocalDate(year: 2026, month: 11, day: 2)))
        }
        print("seeded")
    case "book":
        let parts = arguments.count == 5 ? arguments[4].split(separator: "-").compactMap { Int($0) } : []
        guard parts.count == 3, let date = try? LocalDate(year: parts[0], month: parts[1], day: parts[2]) else { fail("usage: _BookDesk DB book MEMBER DATE", 2) }
        do {
            _ = try await store.changeTelling(gym: gym) { book in try book.book(member: arguments[3], classID: "yoga", on: date, now: now) }
            print("booked")
        } catch {
            if case .refused(let why) = error { print("refused: \(why)"); exit(3) }
            throw error
        }
    case "churn":
        guard arguments.count == 6, var seed = UInt64(arguments[4]), let n = Int(arguments[5]) else { fail("usage: _BookDesk DB churn OUTBOX SEED N", 2) }
        func next() -> Int {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Int(seed >> 33)
        }
        for step in 0..<n {
            let member = "m\(next() % 20)", date = mondays[next() % mondays.count], pick = next()
            // A member with a place gives it up; any other books it, and when the class is full one who
            // holds a place gives it up instead: every step is a change that owes a message.
            _ = try await store.changeTelling(gym: gym) { book in
                let confirmed = try book.roster(classID: "yoga", on: date).confirmed
                if confirmed.contains(member) {
                    _ = try book.cancelBooking(member: member, classID: "yoga", on: date, now: now)
                } else if confirmed.count >= yogaPlaces {
                    _ = try book.cancelBooking(member: confirmed[pick % confirmed.count], classID: "yoga", on: date, now: now)
                } else {
                    try book.book(member: member, classID: "yoga", on: date, now: now)
                }
            }
            // A line as each phase ends, written at once: the test that kills churns picks its moment by these.
            FileHandle.standardOutput.write(Data("committed \(step)\n".utf8))
            _ = try await deliver(into: arguments[3])
            FileHandle.standardOutput.write(Data("delivered \(step)\n".utf8))
        }
        print("churned")
    case "deliver":
        guard arguments.count == 4 else { fail("usage: _BookDesk DB deliver OUTBOX", 2) }
        print("delivered \(try await deliver(into: arguments[3]))")
    case "bench":
        guard (4...5).contains(arguments.count), let n = Int(arguments[3]), n > 0, ["occurrence", "whole"].contains(arguments.count == 5 ? arguments[4] : "occurrence") else {
            fail("usage: _BookDesk DB bench N [occurrence|whole]", 2)
        }
        let whole = arguments.count == 5 && arguments[4] == "whole"
        let date = mondays[0]
        try await store.change { book in
            for i in 0..<n where (try? book.member("b\(i)")) == nil {
                try book.addMember(Member(id: "b\(i)", name: "Bench \(i)", email: "b\(i)@example.com"))
            }
            if (try? book.classSeries("spin")) == nil {
                try book.addClass(ClassSeries(id: "spin", title: "Spinning", weekdays: [.monday], time: try TimeOfDay(hour: 7, minute: 0),
                                              duration: .seconds(2700), capacity: n, firstDate: try LocalDate(year: 2026, month: 11, day: 2)))
            }
        }
        /// Runs `change` for every member at once: each one's seconds, and the whole run's.
        func burst(_ change: @escaping @Sendable (String) async throws -> Void) async throws -> (each: [Double], whole: Double) {
            let clock = ContinuousClock(), start = clock.now
            let each = try await withThrowingTaskGroup(of: Double.self) { group in
                for i in 0..<n {
                    group.addTask {
                        let t0 = clock.now
                        try await change("b\(i)")
                        return (clock.now - t0) / .seconds(1)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            return (each.sorted(), (clock.now - start) / .seconds(1))
        }
        let booked = try await burst { member in
            if whole {
                _ = try await store.changeTelling(gym: gym) { book in try book.book(member: member, classID: "spin", on: date, now: now) }
            } else {
                _ = try await store.changeOccurrenceTelling(of: "spin", on: date, members: [member], gym: gym) { book in
                    try book.book(member: member, classID: "spin", on: date, now: now)
                }
            }
        }
        let cancelled = try await burst { member in
            if whole {
                _ = try await store.changeTelling(gym: gym) { book in _ = try book.cancelBooking(member: member, classID: "spin", on: date, now: now) }
            } else {
                _ = try await store.changeOccurrenceTelling(of: "spin", on: date, members: [member], gym: gym) { book in
                    _ = try book.cancelBooking(member: member, classID: "spin", on: date, now: now)
                }
            }
        }
        func percentile(_ values: [Double], _ p: Double) -> Double { values[min(values.count - 1, Int((Double(values.count) * p).rounded(.up)) - 1)] }
        let places = try await store.load().roster(classID: "spin", on: date).confirmed.count
        print(#"{"n":\#(n),"book_s":\#(booked.whole),"book_p50_s":\#(percentile(booked.each, 0.5)),"book_p99_s":\#(percentile(booked.each, 0.99)),"# +
              #""cancel_s":\#(cancelled.whole),"cancel_p50_s":\#(percentile(cancelled.each, 0.5)),"cancel_p99_s":\#(percentile(cancelled.each, 0.99)),"places_held_after":\#(places)}"#)
    case "places":
        let book = try await store.load()
        for date in mondays {
            for member in try book.roster(classID: "yoga", on: date).confirmed { print("\(member) \(date)") }
        }
    case "messages":
        guard let storage = storage as? SQLiteBookStorage else { fail("messages reads an SQLite book's message log", 2) }
        for logged in try await storage.messageLog() {
            guard case .classPlace(let place) = logged.message.notice.subject else { continue }
            print("\(logged.message.id) \(logged.message.notice.recipient.id) \(place.occurrence.id.date) \(logged.message.notice.method.rawValue)")
        }
    default:
        fail("unknown command \(arguments[2])", 2)
    }
}

do {
    if arguments[1].hasPrefix("postgres://") || arguments[1].hasPrefix("postgresql://") {
        #if PostgreSQL
        // A desk whose connection could not be made (in ten seconds, on a machine the whole test suite
        // loads with fifty desks starting at once) tries again, as a person at a desk would: nothing was
        // changed, and the races are about the bookings, not the connections.
        for attempt in 1...3 {
            do {
                try await PostgresBookStorage.withStorage(url: arguments[1]) { storage in try await desk(storage) }
                break
            } catch let error as CalendarStoreError where attempt < 3 && error.code == .transport && error.message.contains("cannot be reached; nothing was changed") {
                try await Task.sleep(for: .seconds(1))
            }
        }
        #else
        fail("this _BookDesk was built without the PostgreSQL trait", 2)
        #endif
    } else {
        try await desk(try SQLiteBookStorage(path: arguments[1], waitingAtMost: 60))
    }
} catch {
    fail("\(error)")
}
