import ArgumentParser
import CalendarScheduling
import CalendarStore
import Foundation

/// `horari outbox DIR --calendar gym.ics`: delivers the messages a
/// calendar's changes owe and nobody delivered — a change killed before it
/// wrote its mail, a reply imported without --outbox — into DIR, one `.eml`
/// each, marking each delivered once written (Docs/Storage.md).
struct OutboxCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "outbox",
        abstract: "Write the messages a calendar still owes people into a folder, as e-mail.",
        discussion: """
            A change made with --outbox keeps the messages it owes together with the change (in \
            the same save of a file, folder or collection, the same commit of a database), and \
            writes them; one killed before it wrote \
            them, or an answer imported without --outbox, leaves them owed. This writes every owed \
            message into DIR (one .eml each, for 'sendmail -t'), oldest first, and marks it delivered. \
            A message written twice (a crash between writing and marking) is the same file, with the \
            same Message-ID and SEQUENCE.

            Example:
              horari outbox out/ --calendar gym.ics --gym 'Gym <desk@gym.example>'
            """)

    @Argument(help: "The folder to write the messages into (made if missing).")
    var folder: String

    @Option(help: "The calendar: a file, a folder, a CalDAV collection's URL, an SQLite database (gym.sqlite) or a postgres://USER@HOST:PORT/DB URL (default: the default calendar).")
    var calendar: String?

    @Option(help: "The gym's address, 'Name <address>': who a class's messages are from, when the change did not say.")
    var gym: String?

    func run() async throws {
        let place = try calendarPlace(calendar)
        guard place.exists else { throw noCalendarYet(place) }
        var outbox = try OutboxOptions.parse(["--outbox", folder] + (gym.map { ["--gym", $0] } ?? []))
        outbox.onStandardError = false
        guard let into = try outbox.folder() else { return }
        let book = try BookOptions.parse(["--calendar", place.path])
        let owed = try await book.scheduling(place) { store async throws(SchedulingStoreError) in try await store.owedMessages() }
        try await book.scheduling(place) { store async throws(SchedulingStoreError) in try await outbox.deliverOwed(by: store, into: into) }
        if owed.isEmpty { print("\(place.name) owes no messages.") }
    }
}
