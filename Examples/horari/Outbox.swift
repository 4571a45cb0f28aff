import ArgumentParser
import CalendarCore
import CalendarScheduling
import CalendarStore
import Foundation
import ICalendarKit
import SchedulingICalendar

/// `--outbox DIR` and `--gym`: the commands that change a booking or a
/// session write the e-mail that tells each person (iMIP, RFC 6047) into a
/// folder, for a mailer to send (`sendmail -t`); Horari sends nothing itself.
struct OutboxOptions: ParsableArguments {
    @Option(help: "Write the invitation or cancellation each client or member is owed, as e-mail (iMIP, RFC 6047), into this folder: one .eml per recipient, for 'sendmail -t'.")
    var outbox: String?

    @Option(help: "The gym's address, 'Name <address>': who a class's messages are from (and a session's whose coach has none), and whom an answer about a class must name as organizer (default: the address the calendar keeps, `horari gym address`).")
    var gym: String?

    /// Whether what was written is said on standard error (a command whose standard output is JSON).
    var onStandardError = false

    /// These options, saying what was written on standard error when `yes`.
    func saying(onStandardError yes: Bool) -> OutboxOptions {
        var o = self
        o.onStandardError = yes
        return o
    }

    private func say(_ line: String) {
        if onStandardError { FileHandle.standardError.write(Data((line + "\n").utf8)) } else { print(line) }
    }

    func validate() throws {
        if let gym { _ = try mailbox(gym) }
    }

    private func mailbox(_ text: String) throws -> IMIPMessage.Mailbox {
        do { return try IMIPMessage.Mailbox(parsing: text) } catch { throw ValidationError("--gym: \(error.message)") }
    }

    /// The gym as a message's organizer.
    func gymPerson() throws -> SchedulingNotice.Person? {
        guard let gym else { return nil }
        let box = try mailbox(gym)
        return SchedulingNotice.Person(id: "gym", name: box.name ?? box.email, email: box.email)
    }

    /// The folder, made if missing, checked before anything is changed.
    func folder() throws -> URL? {
        guard let outbox else { return nil }
        let url = URL(fileURLWithPath: outbox)
        do { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) } catch {
            throw CLIError("--outbox \(outbox): cannot make the folder (\(error.localizedDescription)); nothing was changed")
        }
        guard FileManager.default.isWritableFile(atPath: url.path) else { throw CLIError("--outbox \(outbox): the folder is not writable; nothing was changed") }
        return url
    }

    /// Delivers what the calendar owes (the change just made, and any an
    /// earlier one left: a process killed before it delivered) into the
    /// folder, marking each message delivered once its file is written
    /// (`SchedulingStore.deliver(_:)`). A message that cannot be written
    /// stays owed, and delivery stops there with the reason.
    func deliverOwed(by store: SchedulingStore, into folder: URL) async throws(SchedulingStoreError) {
        let gym = try? gymPerson()
        var written: [String] = []
        defer { sayWritten(written, folder: folder) }
        // --gym first (it overrides for this command), then the sender the
        // change kept with the message, then — for a message owed before the
        // book kept an address — the book's as it is now, read once if needed.
        var kept: SchedulingNotice.Person?? = nil
        try await store.deliver { message in
            var sender = gym ?? message.gym
            if sender == nil, message.notice.sender(gym: nil) == nil {
                if kept == nil { kept = .some(try? await store.load().gymAddress) }
                sender = kept ?? nil
            }
            let mail: IMIPMessage
            do {
                guard let made = try message.notice.email(timeZone: try ZoneRules.named(message.timeZone), gym: sender, date: message.madeAt) else {
                    say("Not told yet: \(message.notice.recipient.name.shown) (\(message.notice.method.rawValue) \(message.notice.uid)): no sender; give --gym 'Name <address>', or keep one with `horari gym address` (the message stays owed).")
                    throw StaysOwed("no sender")
                }
                mail = made
            } catch let error as StaysOwed {
                throw error
            } catch {
                say("Not told yet: \(message.notice.recipient.name.shown): \(error) (the message stays owed).")
                throw StaysOwed("\(error)")
            }
            written.append(try save(mail, message.notice, into: folder, owed: true))
        }
    }

    /// Writes one message's file; the line that says so.
    private func save(_ mail: IMIPMessage, _ notice: SchedulingNotice, into folder: URL, owed: Bool = false) throws -> String {
        let file = folder.appendingPathComponent(mail.fileName)
        do { try mail.data().write(to: file, options: .atomic) } catch {
            throw CLIError(owed ? "\(file.path) could not be written (\(error.localizedDescription)); \(notice.recipient.email) is not told yet, and the message stays owed"
                : "the change was made, but \(file.path) could not be written (\(error.localizedDescription)); \(notice.recipient.email) was not told")
        }
        return "  \(notice.method.rawValue) to \(mail.to): \(mail.subject.shown) (\(mail.fileName))"
    }

    private func sayWritten(_ written: [String], folder: URL) {
        guard !written.isEmpty else { return }
        let shown = outbox ?? folder.path
        say("Wrote \(written.count) message\(written.count == 1 ? "" : "s") to \(shown)/, for sendmail -t:")
        written.forEach { say($0) }
    }

    /// Refuses a change about a class, before it is made, when no --gym
    /// was given and the book keeps no address (`horari gym address`):
    /// a class's messages come from the gym.
    func checkSender(classes: Bool, in book: SchedulingBook) throws {
        guard classes, gym == nil else { return }
        guard let kept = book.gymAddress else {
            throw CLIError("--outbox: a class's messages come from the gym, and the calendar keeps no address for it; give --gym 'Name <address>', or keep one with `horari gym address 'Name <address>'` (nothing was changed)")
        }
        // An address read back is taken as written (by hand, say); a message is sent only from one it can be.
        do throws(SchedulingError) { try SchedulingBook.checkEmail(kept.email, of: "gym") } catch {
            throw CLIError("--outbox: the gym's address the calendar keeps cannot send a message: \(error.description); set it again with `horari gym address 'Name <address>'`, or give --gym (nothing was changed)")
        }
    }

    /// The outermost folder of --outbox that does not exist yet, which
    /// ``folder()`` would make; `nil` when it exists.
    func firstMissingFolder() -> URL? {
        guard let outbox else { return nil }
        var url = URL(fileURLWithPath: outbox).standardizedFileURL, missing: URL?
        while !FileManager.default.fileExists(atPath: url.path), url.path != "/" {
            missing = url
            url = url.deletingLastPathComponent()
        }
        return missing
    }

    /// `change`'s result; when it is refused, the folders this command made
    /// for it (from `made`, ``firstMissingFolder()`` before) are removed
    /// again if they hold no file, so a refused command leaves nothing behind.
    func removingIfRefused<T>(_ made: URL?, _ change: () async throws -> T) async throws -> T {
        do { return try await change() } catch {
            if let made, Self.holdsNoFile(made) { try? FileManager.default.removeItem(at: made) }
            throw error
        }
    }

    /// Whether a folder holds nothing but (empty) folders.
    private static func holdsNoFile(_ folder: URL) -> Bool {
        guard let walk = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isDirectoryKey]) else { return false }
        for case let url as URL in walk where (try? url.resourceValues(forKeys: [.isDirectoryKey]))?.isDirectory != true { return false }
        return true
    }

    func sayUntold(_ untold: [UntoldChange]) {
        for u in untold {
            say("Not told (no e-mail address on record): \(u.name.shown), \(u.method.rawValue) \(u.about).")
        }
    }
}

extension BookOptions {
    /// ``change(_:)`` made with `SchedulingStore.changeTelling(_:)`, writing
    /// the messages the change owes into --outbox.
    @discardableResult
    func change<T: Sendable>(telling outbox: OutboxOptions, classes: Bool = false, _ body: (inout SchedulingBook) throws -> T) async throws -> T {
        let made = outbox.firstMissingFolder()
        guard let folder = try outbox.folder() else { return try await change(body) }
        let place = try place
        try place.prepareFolder()
        let sender = try outbox.gymPerson()
        let told = try await outbox.removingIfRefused(made) {
            try await scheduling(place) { gym async throws(SchedulingStoreError) in
                try await gym.changeTelling(gym: sender) { book in
                    try outbox.checkSender(classes: classes, in: book)
                    return try body(&book)
                }
            }
        }
        return try await written(told, outbox, folder, place)
    }

    /// ``changeOccurrence(classID:on:members:_:)`` made with
    /// `SchedulingStore.changeOccurrenceTelling(of:on:members:_:)`, writing
    /// the messages the change owes into --outbox.
    func changeOccurrence<T: Sendable>(classID: String, on date: LocalDate, members: [String] = [], telling outbox: OutboxOptions,
                                       _ body: (inout SchedulingBook) throws -> T) async throws -> T {
        let made = outbox.firstMissingFolder()
        guard let folder = try outbox.folder() else { return try await changeOccurrence(classID: classID, on: date, members: members, body) }
        let place = try place
        try place.prepareFolder()
        let sender = try outbox.gymPerson()
        let told = try await outbox.removingIfRefused(made) {
            try await scheduling(place) { gym async throws(SchedulingStoreError) in
                try await gym.changeOccurrenceTelling(of: classID, on: date, members: members, gym: sender) { book in
                    try outbox.checkSender(classes: true, in: book)
                    return try body(&book)
                }
            }
        }
        return try await written(told, outbox, folder, place)
    }

    /// The change's result, once every message owed is delivered: those
    /// the change kept with it and any an earlier one left (a process
    /// killed before it wrote them).
    private func written<T>(_ told: Told<T>, _ outbox: OutboxOptions, _ folder: URL, _ place: CalendarPlace) async throws -> T {
        // The change is made: a delivery that fails now leaves its messages owed, for `horari outbox`.
        do {
            try await scheduling(place) { store async throws(SchedulingStoreError) in try await outbox.deliverOwed(by: store, into: folder) }
        } catch {
            FileHandle.standardError.write(Data("Warning: the change was made, and its messages stay owed: \(error) Deliver them with `horari outbox \(outbox.outbox ?? folder.path) --calendar \(place.path)`.\n".utf8))
        }
        outbox.sayUntold(told.notices.untold)
        return told.result
    }
}

/// Refuses a typed `--email` the book would refuse (the library's
/// `SchedulingBook.checkEmail(_:of:)`) as a usage error, before the
/// calendar is read; '' (for none, as `edit` takes it) passes.
func checkTypedEmail(_ email: String?, of kind: String) throws {
    do throws(SchedulingError) { try SchedulingBook.checkEmail(email, of: kind) } catch {
        throw ValidationError("--email: " + error.description.replacingOccurrences(of: "the record's name", with: "--name"))
    }
}
