import CalendarCore
import CalendarScheduling
import Foundation
import ICalendarKit
import SchedulingICalendar

// The messages a change owes, where the book lives in a calendar — a
// `.ics` file, a folder, a CalDAV collection (issue 40, 4; Docs/Storage.md,
// "Owed messages in a calendar"). A database commits them with the change
// (`BookStorage`); a calendar keeps each as a `VJOURNAL` of its own
// (`CATEGORIES:horari-owed`, the message's JSON in `X-HORARI-OWED`, as
// base64), written
// in the same save as the change: in a file, one atomic rename; in a folder,
// one journalled change (`FolderStore`); on a collection, the same pending
// writes, finished together. Delivery removes each once it is sent. Calendar
// apps do not show journals, an import never takes one (it is its own
// store's to deliver), and `ICalendar.withoutOwedMessages` leaves them out
// of an export.

extension OwedMessage {
    /// The message as a calendar keeps it (`SchedulingRecordNames.owedJournal`).
    /// - Parameter position: where it stands among the messages the calendar owes.
    func journal(position: Int) throws -> ContentComponent {
        SchedulingRecordNames.owedJournal(id: id, summary: "Owed: \(notice.method.rawValue) \(notice.uid) to \(notice.recipient.email)",
                                          position: position, body: try storedBody())
    }
}

extension ICalendar {
    /// The messages changes owe that this calendar keeps, oldest first.
    /// - Parameter place: the calendar's place, for the error.
    /// - Throws: `CalendarStoreError` naming a journal whose message cannot
    ///   be read (it stays, owed).
    func owedMessages(in place: String) throws(CalendarStoreError) -> [OwedMessage] {
        let journals = components.filter(SchedulingRecordNames.isOwedMessage)
        let bodies = journals.map { SchedulingRecordNames.owedContent(of: $0).body }
        let messages = try OwedMessage.owed(fromStored: bodies, in: place)
        // By position; two desks of a collection may take the same one: then the older change, then the ID.
        return zip(journals.map(Self.position(of:)), messages).sorted { a, b in
            (a.0, a.1.madeAt, a.1.commitID, Self.index(of: a.1)) < (b.0, b.1.madeAt, b.1.commitID, Self.index(of: b.1))
        }.map(\.1)
    }

    /// Keeps `messages` with the calendar, owed until delivered, after
    /// those it owes already.
    mutating func owe(_ messages: [OwedMessage]) throws {
        let last = components.filter(SchedulingRecordNames.isOwedMessage).map(Self.position(of:)).max() ?? 0
        // (A position is at most a billion: one another program wrote larger is read as that.)
        components += try messages.enumerated().map { i, message in try message.journal(position: last + 1 + i) }
    }

    /// Where an owed message's journal stands (`SchedulingRecordNames.owedContent(of:)`).
    private static func position(of journal: ContentComponent) -> Int { SchedulingRecordNames.owedContent(of: journal).position }

    /// A message's place among its change's (its ID ends `-N`).
    private static func index(of message: OwedMessage) -> Int {
        message.id.split(separator: "-").last.flatMap { Int($0) } ?? 0
    }

    /// Takes delivered messages off the calendar.
    mutating func removeOwed(_ ids: Set<String>) {
        components.removeAll { SchedulingRecordNames.isOwedMessage($0) && ids.contains(Self.owedID(of: $0)) }
    }

    /// The calendar as it is exchanged: without the messages its store
    /// owes (an export, a backup), which are that store's to deliver.
    public var withoutOwedMessages: ICalendar {
        var calendar = self
        calendar.components.removeAll(where: SchedulingRecordNames.isOwedMessage)
        return calendar
    }

    /// An owed message's ID, from its journal's `UID` (`owed:ID`).
    static func owedID(of journal: ContentComponent) -> String {
        SchedulingRecordNames.owedID(uid: journal.uid ?? "")
    }
}

extension SchedulingStore {
    /// What a change owes, as the store keeps it: each notice, from `gym`,
    /// dated the request's time on the book's clock.
    func owing<T>(gym: SchedulingNotice.Person?) -> (Told<T>, String) -> [OwedMessage] {
        { told, commitID in
            let made = (try? settings.now(told.timeZone.identifier)) ?? Date()
            return told.notices.notices.enumerated().map { i, notice in
                OwedMessage(id: "\(commitID)-\(i + 1)", commitID: commitID, notice: notice, gym: gym ?? told.gym, madeAt: made, timeZone: told.timeZone.identifier)
            }
        }
    }

    /// The messages a calendar (not a database) keeps owed, oldest first.
    func owedInCalendar() async throws(SchedulingStoreError) -> [OwedMessage] {
        guard store.exists else { return [] }
        let loaded: ImportResult
        do { loaded = try await store.load() } catch { throw .from(error.underlying) }
        do { return try loaded.calendar.owedMessages(in: store.location.description) } catch { throw .store(error) }
    }

    /// Delivers what a calendar (not a database) keeps owed, as
    /// `BookStore.deliver(_:)` does a database's: one message at a time,
    /// each taken off the calendar once `send` returns.
    nonisolated(nonsending) func deliverFromCalendar(_ send: (OwedMessage) async throws -> Void) async throws(SchedulingStoreError) -> Int {
        try await BookStore<SomeCalendarDatabase>.deliver(try await owedInCalendar(), send: send) { id in try await removeOwed([id]) }
    }

    /// Takes delivered messages off the calendar: in a file, only their
    /// journals' bytes (`CalendarFile.splice`), else in a change of the calendar.
    func removeOwed(_ ids: Set<String>) async throws(SchedulingStoreError) {
        if case .file(let url) = store.location {
            let removed: Void?
            do {
                removed = try CalendarFile.splice(url, indexing: SchedulingRecordNames.owedIndex, whileWaiting: settings.whileWaiting) { outline in
                    var splice = ICalendarSplice()
                    var found: Set<String> = []
                    for (id, c) in SchedulingRecordNames.owedIDs(in: outline) where ids.contains(id) {
                        splice.remove(c)
                        found.insert(id)
                    }
                    // One not found here (written otherwise) is taken off by the change of the whole file below.
                    return found == ids ? ((), splice) : nil
                }
            } catch { throw .from(error) }
            if removed != nil { return }
        }
        do {
            try await store.update(exporterFor: { _ in ICalendarExporter(options: .init(includeRejected: true)) },
                                   whileWaiting: settings.whileWaiting, ifDamaged: settings.ifDamaged) { calendar in calendar.removeOwed(ids) }
        } catch { throw .from(error.underlying) }
    }
}
