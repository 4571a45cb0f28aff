import ArgumentParser
import CalendarCore
import Foundation
import ICalendarKit

/// The `horari` command: the example CLI of the Horari library.
///
/// Every command names itself (`commandName:`), as ArgumentParser would
/// name it from its type: left to ArgumentParser, the name of each command
/// it passes on the way is made with `String(describing:)` of its type, a
/// look through the program's conformances, 5 ms of every run's 29 (an
/// empty `month`, measured).
@main
struct Horari: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "horari",
        abstract: "A calendar and scheduling tool built on the Horari library.",
        discussion: """
            With no subcommand, shows this month of the embedded sample gym calendar.
            Commands that change a calendar work on --calendar FILE, else on
            $XDG_DATA_HOME/horari/calendar.ics (~/.local/share/horari/calendar.ics).

            Examples:
              horari
              horari sample --write gym.ics
              horari month --calendar gym.ics
              horari add Meeting --start '2026-11-24 13:00' --minutes 45 --calendar gym.ics
              horari book --member marta --class yoga --date 2026-11-23 --calendar gym.ics

            Shell completions:
              horari --generate-completion-script bash \\
                  > ~/.local/share/bash-completion/completions/horari
              horari --generate-completion-script zsh > ~/.zfunc/_horari
              horari --generate-completion-script fish \\
                  > ~/.config/fish/completions/horari.fish

            Dates: a --to date is the last day included, in every command (a date and
            time is the instant a window ends); a class's last date is --until.

            Exit codes: 0 success, 1 the request was refused (the message says why,
            on standard error), 2 usage error (a mistyped command or option, a
            negative length, a date that does not exist), the same in every command.
            """,
        version: HorariVersion.current,
        subcommands: [
            Sample.self, Add.self, Edit.self, Delete.self, Done.self, Rules.self, Month.self, Week.self, Day.self, List.self, Search.self, Sessions.self, Classes.self, Book.self, CancelBooking.self,
            Coaches.self, Clients.self, Members.self, Gym.self, Expand.self, Occurrences.self, Alarms.self, Validate.self, Import.self, Export.self, FreeBusy.self, Doctor.self,
            OutboxCommand.self,
        ],
        defaultSubcommand: Sample.self
    )

    /// Runs the command with the documented exit codes: swift-argument-parser
    /// ends a usage error with 64 (BSD's `EX_USAGE`); we promise 2, as most
    /// Unix tools (and `ncal`) use, so usage errors leave with 2.
    static func main() async {
        // Past a file-size limit (`ulimit -f`) a write should fail with EFBIG,
        // which the atomic save reports and cleans up after, rather than the
        // kernel's SIGXFSZ ending the process halfway.
        signal(SIGXFSZ, SIG_IGN)
        #if os(Linux)
        // One malloc arena. glibc gives each thread that allocates an arena of
        // its own, reserving 64 MB of address space (128 MB, aligned) for each;
        // under an address-space limit (`ulimit -v`, a container's) the
        // reservation fails and every allocation falls back to its own mmap
        // and munmap: a day of SECONDLY occurrences as JSON took 58 s under
        // `ulimit -v 300000` (51 s of it in the kernel), and 2.2 s with one
        // arena, the same 2.2 s as without a limit (cli_failures.sh, issue 43,
        // 16; whether a thread got an arena of its own varied from run to
        // run). horari's work runs on a thread or two; one arena serves them.
        // (`mallopt` is not in Swift's Glibc module: found by name, as
        // `dlsym(RTLD_DEFAULT, …)`; M_ARENA_MAX is -8 in malloc.h.)
        if let mallopt = dlsym(nil, "mallopt") {
            typealias MallOpt = @convention(c) (Int32, Int32) -> Int32
            _ = unsafeBitCast(mallopt, to: MallOpt.self)(-8, 1)
        }
        #endif
        let arguments = Array(CommandLine.arguments.dropFirst())
        // `horari help nosuch` is a mistake too, though the parser would show the root's help.
        if arguments.first == "help", let mistake = CommandWords.mistake(in: arguments, root: Horari.self) {
            FileHandle.standardError.write(Data("Error: \(mistake)\n".utf8))
            Foundation.exit(2)
        }
        var command: any ParsableCommand
        do {
            command = try parseAsRoot(arguments)
        } catch {
            // A mistyped command or an unknown option is named first, with the
            // nearest there is, whatever else the line gets wrong.
            if exitCode(for: error) != .success, let mistake = CommandWords.mistake(in: arguments, root: Horari.self) {
                FileHandle.standardError.write(Data("Error: \(mistake)\n".utf8))
                Foundation.exit(2)
            }
            if exitCode(for: error) == .validationFailure {
                FileHandle.standardError.write(Data((oneVoice(fullMessage(for: error)) + "\n").utf8))
                Foundation.exit(2)
            }
            exit(withError: error)
        }
        // Without the tz files every zone still has its offsets (from
        // Foundation's own data), but its abbreviations may differ: said once.
        if !ZoneRules.hasSystemTimeZoneFiles {
            FileHandle.standardError.write(Data("horari: note: no time zone files in \(ZoneRules.systemTimeZoneFolder) (install tzdata, or set TZDIR to a folder of them); zones come from Foundation's own data, and abbreviations may read GMT+1 where the tz database writes CET\n".utf8))
        }
        var failure: (any Error)?
        do {
            if var asynchronous = command as? any AsyncParsableCommand {
                try await asynchronous.run()
            } else {
                try command.run()
            }
        } catch {
            failure = error
        }
        // The pools of the database servers the command opened close before it exits.
        await ServerDatabases.shared.closeAll()
        guard let failure else { return }
        do { throw failure } catch let error as ValidationError {
            // A value the parser took but the command could not use (a date that
            // does not exist, an unknown zone): a usage error, said once, without
            // the root's usage line that swift-argument-parser would print here.
            FileHandle.standardError.write(Data("Error: \(error.message)\n".utf8))
            Foundation.exit(2)
        } catch {
            exit(withError: error)
        }
    }

    /// A value the parser refused, said as the commands say theirs (issue 43,
    /// 11): swift-argument-parser's "The value '-30' is invalid for
    /// '--minutes <minutes>': REASON", its help line and its usage become
    /// "--minutes ‘-30’: REASON" and where to read more. Any other message
    /// (a missing option, with its usage) is left as the parser wrote it.
    static func oneVoice(_ message: String) -> String {
        let lines = message.split(separator: "\n", omittingEmptySubsequences: false)
        guard let first = lines.first, first.hasPrefix("Error: The value '"),
              let valueEnd = first.range(of: "' is invalid for '") else { return message }
        let reason: String
        let optionEnd: Range<String.Index>
        if let end = first.range(of: "': ", range: valueEnd.upperBound..<first.endIndex) {
            (optionEnd, reason) = (end, String(first[end.upperBound...]))
        } else if let end = first.range(of: "'. Please provide one of ", range: valueEnd.upperBound..<first.endIndex) {
            // A value outside a list of words: "give refuse or allow".
            let words = first[end.upperBound...].trimmingCharacters(in: CharacterSet(charactersIn: ". ")).replacingOccurrences(of: "'", with: "")
            (optionEnd, reason) = (end, "give " + words.replacingOccurrences(of: " and ", with: " or "))
        } else {
            return message
        }
        let value = first[first.index(first.startIndex, offsetBy: "Error: The value '".count)..<valueEnd.lowerBound]
        let option = first[valueEnd.upperBound..<optionEnd.lowerBound].prefix { $0 != " " }
        let more = lines.first { $0.trimmingCharacters(in: .whitespaces).hasPrefix("See '") }
            .map { "\n" + $0.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "for more information.", with: "for its options.") } ?? ""
        return "Error: \(option) ‘\(value)’: \(reason)\(more)"
    }
}
