import CalendarCore
import CalendarScheduling
import CalendarStore
import CalendarStorePostgres
import Foundation

/// The gym the site serves: its book on any store `horari --calendar` takes,
/// and the clock it books on.
struct Gym: Sendable {
    /// The book, where it lives. Every booking is one change of it, made
    /// through this one store: the changes of this process take turns, and
    /// the place keeps processes apart (two sites on one database are as safe as one).
    let store: SchedulingStore

    /// A store of its own for one request's reads: a `SchedulingStore`'s calls
    /// take turns, and pages read through the one above waited for each
    /// other (one process served 18 pages a second, two 45; Benchmarks/RESULTS.md).
    /// A read needs no turn: it is a snapshot of the book.
    var reader: SchedulingStore { SchedulingStore(store.store, settings: store.settings) }
    /// The time of a request (`--now`, for a demonstration or a test; else the system's).
    let now: @Sendable () -> Date
    /// The pool of a PostgreSQL database, running until the site stops.
    let pool: Task<Void, Never>?
    /// The gym's name for the pages' header: the calendar's (`X-WR-CALNAME`)
    /// as the site found it when it started, else the gym's address's name.
    var title = "Horari"

    /// Opens `calendar`: an `.ics` file, a folder (ending `/`), a CalDAV
    /// collection (`https://…/`), an SQLite file (`.sqlite`) or a
    /// `postgres://USER@HOST:PORT/DB` database.
    /// - Throws: `CalendarStoreError` in a line a person can act on (a
    ///   database's password is never in it).
    static func open(_ calendar: String, now fixed: Date?) async throws -> Gym {
        let location = try CalendarLocation(calendar)
        // A mistyped path would otherwise serve an empty gym (and make a calendar there at the first booking).
        guard CalendarStore(location).exists else {
            throw CalendarStoreError(.notFound, "there is no calendar at \(location)",
                                     suggestion: "check the path, or make one: horari sample --write gym.ics, or horari import export.ics --into \(location)")
        }
        let now: @Sendable () -> Date = { fixed ?? Date() }
        let settings = SchedulingStore.Settings(now: { _ in now() })
        if case .server(let url) = location {
            let (storage, pool) = try await PostgresBookStorage.connect(url: url.absoluteString)
            return try await Gym(store: SchedulingStore(CalendarStore(location, database: storage), settings: settings), now: now, pool: pool).named()
        }
        return try await Gym(store: SchedulingStore(CalendarStore(location), settings: settings), now: now, pool: nil).named()
    }

    /// This gym with its ``title`` read, and its book read once: a store that cannot be read is said before the site starts.
    private func named() async throws -> Gym {
        var gym = self
        let book = try await store.load()
        if let name = (try? await store.store.load())?.calendar.name, !name.isEmpty {
            gym.title = name
        } else if let name = book.gymAddress?.name {
            gym.title = name
        }
        return gym
    }

    /// Today on the gym's clock.
    func today(_ book: SchedulingBook) -> LocalDate { LocalDate.today(in: book.timeZone, now: now()) }
}
