import CalendarStore
import Foundation
#if PostgreSQL
import CalendarStorePostgres
#endif

/// The database servers a command opened (`--calendar postgres://…`), each
/// with its connection pool running until the command ends
/// (``closeAll()``, from `Horari.main()`): one pool a server, however many
/// times the command reads and changes the calendar.
actor ServerDatabases {
    /// The command's.
    static let shared = ServerDatabases()

    private var opened: [URL: any CalendarDatabase] = [:]
    private var pools: [Task<Void, Never>] = []

    /// The database at `url`, opened the first time it is asked for.
    /// - Throws: `CalendarStoreError` from the server (not there, a refused
    ///   login, a newer schema), in one line that never holds the password.
    func database(_ url: URL) async throws -> any CalendarDatabase {
        if let database = opened[url] { return database }
        #if PostgreSQL
        let (storage, running) = try await PostgresBookStorage.connect(url: url.absoluteString)
        pools.append(running)
        opened[url] = storage
        return storage
        #else
        throw CLIError("\(CalendarLocation.server(url)): this horari was built without PostgreSQL (the package's PostgreSQL trait is off); build it with the default traits")
        #endif
    }

    /// Closes every pool a command opened, once nothing uses them.
    func closeAll() async {
        for pool in pools { pool.cancel() }
        for pool in pools { await pool.value }
        pools = []
        opened = [:]
    }
}
