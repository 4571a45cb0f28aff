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
            With no subcommand, shows this month of the embedded sample gym calendar.

            Exit codes: 0 success, 1 the request failed (the message says why), 2 usage error.
            """,
        subcommands: [
            Sample.self, Add.self, Edit.self, Delete.self, Month.self, Week.self, Day.self, List.self, Sessions.self, Classes.self, Book.self, CancelBooking.self,
            Coaches.self, Clients.self, Members.self, Expand.self, Occurrences.self, Validate.self, Import.self, Export.self,
        ],
        defaultSubcommand: Sample.self
    )

    /// Runs the command with the documented exit codes: swift-argument-parser
    /// ends a usage error with 64 (BSD's `EX_USAGE`); we promise 2, as most
    /// Unix tools (and `ncal`) use, so usage errors leave with 2.
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            if exitCode(for: error) == .validationFailure {
                FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
                Foundation.exit(2)
            }
            exit(withError: error)
        }
    }
}
