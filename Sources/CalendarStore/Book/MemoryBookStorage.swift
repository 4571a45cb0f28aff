import CalendarCore
import Foundation

/// A ``BookStorage`` in memory: the reference implementation of the
/// protocol's guarantees, for tests, previews and an app's first steps.
/// Copies share one store; nothing outlives the process. It keeps a
/// calendar's text too (``CalendarDatabase``), so a ``CalendarStore`` can
/// work on it.
public final class MemoryBookStorage: CalendarDatabase {
    private struct State {
        var revision: Int64 = 0
        var records: [RecordKey: StoredRecord] = [:]
        var commits: Set<String> = []
        var owed: [OwedMessage] = []
        var calendar: CalendarText?
    }

    /// Sound as `Sendable`: every access to the state holds the lock.
    private let state = Locked(State())

    /// An empty store.
    public init() {}

    /// Every record, with the store's revision.
    public func load() async throws -> BookSnapshot {
        state.withLock { BookSnapshot(revision: $0.revision, records: $0.records.values.sorted { $0.key < $1.key }) }
    }

    /// Every record and the calendar's text, with the store's revision.
    public func loadCalendar() async throws -> StoredCalendar {
        state.withLock { StoredCalendar(snapshot: BookSnapshot(revision: $0.revision, records: $0.records.values.sorted { $0.key < $1.key }), text: $0.calendar) }
    }

    /// Makes a commit if the store is still at its ``BookCommit/basedOn``,
    /// with the calendar's new text when `calendar` is given.
    public func commit(_ commit: BookCommit, calendar: CalendarText?) async throws -> Bool {
        state.withLock { s in
            guard s.revision == commit.basedOn else { return false }
            if let calendar { s.calendar = calendar }
            for write in commit.writes {
                if let body = write.body {
                    s.records[write.key] = StoredRecord(key: write.key, version: (s.records[write.key]?.version ?? 0) + 1, body: body)
                } else {
                    s.records[write.key] = nil
                }
            }
            s.owed += commit.owed
            s.commits.insert(commit.id)
            s.revision += 1
            return true
        }
    }

    /// Whether a commit with this ID was made.
    public func hasCommitted(_ commitID: String) async throws -> Bool { state.withLock { $0.commits.contains(commitID) } }

    /// The messages owed, in commit order.
    public func owedMessages() async throws -> [OwedMessage] { state.withLock { $0.owed } }

    /// Takes delivered messages off the owed list.
    public func markDelivered(_ messageIDs: [String]) async throws {
        let ids = Set(messageIDs)
        state.withLock { $0.owed.removeAll { ids.contains($0.id) } }
    }
}
