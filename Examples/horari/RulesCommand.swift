import ArgumentParser
import CalendarCore
import CalendarScheduling
import ICalendarKit

/// `horari rules`: the item rules a calendar enforces in every command.
struct Rules: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rules",
        abstract: "Show or set the rules every command enforces on a calendar's events and tasks.",
        discussion: """
            default        titles are not empty; no colour of the red family
            task-planner   the default rules, and no title that starts with a digit, \
            and every task with both a date and a time (the task-planner app's rules)

            The rules are stored in the calendar file (X-HORARI-RULES), so `add` and \
            `edit` enforce them and `validate` shows them, on every machine. Switching \
            to stricter rules is refused while items break them; the refusal lists them.

            Examples:
              horari rules
              horari rules task-planner --calendar planner.ics
            """)

    @Argument(help: "default or task-planner (default: show the calendar's rules).") var preset: String?
    @OptionGroup var book: BookOptions

    func run() async throws {
        guard let preset else {
            let calendar = try await loadExistingCalendar(try book.place, quiet: true).calendar
            print("\(try book.place.path): rules: \(try calendarRules(of: calendar).name)")
            return
        }
        guard let chosen = ValidationRules.presets.first(where: { $0.name == preset.lowercased() }) else {
            throw ValidationError("‘\(preset)’ is not a set of rules; use \(ValidationRules.presets.map(\.name).joined(separator: " or "))")
        }
        try await book.updateCalendar { calendar in
            let broken = itemsBreaking(chosen.rules, in: calendar).map { "  ‘\($0.uid)’: \($0.message)" }
            guard broken.isEmpty else {
                throw CLIError("\(broken.count) item\(broken.count == 1 ? "" : "s") break the \(chosen.name) rules; change them first (horari edit):\n" + broken.joined(separator: "\n"))
            }
            calendar.rulesName = chosen.name
        }
        print("\(try book.place.path) now enforces the \(chosen.name) rules.")
    }
}
