import ArgumentParser
import CalendarCore
import Foundation

/// The `horari` command: the example CLI of the Horari library.
@main
struct Horari: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "horari",
        abstract: "A calendar and scheduling tool built on the Horari library.",
        discussion: """
            Exit codes: 0 success, 1 the request failed (the message says why), 2 usage error.
            """,
        subcommands: [
            Month.self, Week.self, Day.self, List.self, Sessions.self, Classes.self, Book.self, CancelBooking.self,
            Coaches.self, Clients.self, Members.self, Expand.self, Occurrences.self, Validate.self, Import.self, Export.self,
        ]
    )
}
