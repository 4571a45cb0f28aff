import CalendarCore
import Foundation

/// An iTIP message as the e-mail that carries it (iMIP, RFC 6047): a mail
/// program shows the text, a calendar program the invitation.
///
/// The message is `multipart/mixed`: a `multipart/alternative` of the
/// readable `text/plain` and the `text/calendar; method=…` part (RFC 6047
/// §2.4, where Outlook, Apple Mail and Thunderbird look), then the same
/// calendar as an `invite.ics` attachment (where Gmail and some webmail
/// look). Every part is UTF-8 in base64, so no line is too long and no
/// character is lost; a header that is not ASCII is an RFC 2047 encoded
/// word. An address or name with a line break, or an address that is not
/// one, is refused: what a person typed cannot add a header (`Bcc:`) to
/// the message.
///
/// ```swift
/// let mail = try IMIPMessage(from: .init(name: "Marc Soler", email: "marc@gym.example"),
///                            to: .init(name: "Anna Puig", email: "anna@example.com"),
///                            subject: "Booked: Training session", text: "You are booked…",
///                            method: "REQUEST", calendar: icsText, date: Date())
/// try mail.data().write(to: outbox.appendingPathComponent(mail.fileName))   // then: sendmail -t < file
/// ```
public struct IMIPMessage: Hashable, Sendable {
    /// A mailbox: a display name and an address.
    public struct Mailbox: Hashable, Sendable, CustomStringConvertible {
        /// The display name, if any.
        public var name: String?
        /// The address, `local@domain`.
        public var email: String

        /// Creates a mailbox.
        public init(name: String?, email: String) {
            self.name = name
            self.email = email
        }

        /// Reads `Name <address>` or a bare address.
        /// - Throws: ``IMIPError`` when the text holds no address.
        public init(parsing text: String) throws(IMIPError) {
            let t = text.trimmingCharacters(in: .whitespaces)
            if let open = t.lastIndex(of: "<"), t.hasSuffix(">") {
                let name = t[..<open].trimmingCharacters(in: CharacterSet(charactersIn: " \""))
                self.init(name: name.isEmpty ? nil : name, email: String(t[t.index(after: open)..<t.index(before: t.endIndex)]))
            } else {
                self.init(name: nil, email: t)
            }
            try IMIPMessage.check(self, "‘\(text)’")
        }

        /// `Name <address>`.
        public var description: String { name.map { "\($0) <\(email)>" } ?? email }
    }

    /// Who sends it (the organizer).
    public var from: Mailbox
    /// Who receives it.
    public var to: Mailbox
    /// The subject line.
    public var subject: String
    /// The readable text.
    public var text: String
    /// The iTIP method: `REQUEST`, `CANCEL`, `REPLY`…
    public var method: String
    /// The iCalendar text (with its `METHOD`).
    public var calendar: String
    /// When it is written (the `Date:` header).
    public var date: Date

    /// Creates a message, checking the mailboxes.
    /// - Throws: ``IMIPError`` for an address that is not one, or a name or
    ///   address with a line break or another control character.
    public init(from: Mailbox, to: Mailbox, subject: String, text: String, method: String, calendar: String, date: Date) throws(IMIPError) {
        try Self.check(from, "the sender")
        try Self.check(to, "the recipient")
        guard method.allSatisfy({ $0.isASCII && ($0.isLetter || $0 == "-") }), !method.isEmpty else {
            throw IMIPError("‘\(method)’ is not an iTIP method such as REQUEST")
        }
        self.from = from
        self.to = to
        self.subject = subject
        self.text = text
        self.method = method.uppercased()
        self.calendar = calendar
        self.date = date
    }

    /// A name for the message's file in an outbox: the method, the
    /// recipient and a digest of the message, letters, digits, `.`, `-` and
    /// `_` only, at most 140 bytes. The recipient is cut to its first 100
    /// characters: a valid address may be 254 long, and whole it made a
    /// name past the 255 bytes a file name may have, so every message to
    /// it failed after its change was made (issue 41, 13). The digest
    /// covers the whole address, so two long addresses alike at the start
    /// still get names of their own.
    public var fileName: String {
        let who = to.email.prefix(100).map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-") ? $0 : "_" }
        return "\(method.lowercased().prefix(16))-\(String(who))-\(digest).eml"
    }

    /// The `Message-ID`: a digest of the message at the sender's domain,
    /// the same for the same message (a script that passes the time writes
    /// the same outbox twice).
    public var messageID: String {
        "<\(digest)@\(from.email.split(separator: "@").last.map(String.init) ?? "horari.invalid")>"
    }

    private var digest: String {
        String(fnv1a64([from.email, to.email, subject, text, method, calendar, String(date.timeIntervalSince1970)].joined(separator: "\u{0}").utf8), radix: 16)
    }

    /// The message, RFC 5322 with MIME, CRLF line ends, for `sendmail -t`.
    public func data() -> Data {
        let outer = "horari-mixed-" + digest, inner = "horari-alt-" + digest
        var lines = [
            "From: " + Self.header(from), "To: " + Self.header(to), "Subject: " + Self.encodedWords(subject),
            "Date: " + Self.rfc5322Date(date), "Message-ID: " + messageID, "MIME-Version: 1.0",
            "Content-Type: multipart/mixed; boundary=\"\(outer)\"", "",
            "This is an invitation in iCalendar form (RFC 6047).", "",
            "--" + outer, "Content-Type: multipart/alternative; boundary=\"\(inner)\"", "",
            "--" + inner, "Content-Type: text/plain; charset=UTF-8", "Content-Transfer-Encoding: base64", "",
        ]
        lines += Self.base64Lines(text)
        lines += ["--" + inner, "Content-Type: text/calendar; charset=UTF-8; method=\(method)", "Content-Transfer-Encoding: base64", ""]
        lines += Self.base64Lines(calendar)
        lines += ["--" + inner + "--", "", "--" + outer,
                  "Content-Type: application/ics; name=\"invite.ics\"", "Content-Disposition: attachment; filename=\"invite.ics\"",
                  "Content-Transfer-Encoding: base64", ""]
        lines += Self.base64Lines(calendar)
        lines += ["--" + outer + "--", ""]
        return Data(lines.joined(separator: "\r\n").utf8)
    }

    // MARK: - Headers

    static func check(_ box: Mailbox, _ what: String) throws(IMIPError) {
        if let name = box.name, name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            throw IMIPError("\(what)'s name has a line break or another control character; give the name on one line")
        }
        if let name = box.name, EncodedWords.standForAControlCharacter(name) {
            throw IMIPError("\(what)'s name holds an encoded word (=?…?=) that stands for a line break or another control character; give the name as plain text on one line")
        }
        guard MailAddress.isOne(box.email) else {
            throw IMIPError("\(what) has no e-mail address a message can go to (‘\(box.email.debugDescription.dropFirst().dropLast())’); write it as name@example.com")
        }
    }

    /// `Name <address>`: a name of letters, digits and spaces as it is;
    /// other ASCII as a quoted string (`"Puig, Marta"`: a bare comma would
    /// make two recipients, a bare `<…>` another address, RFC 5322 §3.4);
    /// anything else, and any name holding `=?…?=` (which mail programs
    /// decode even inside quotes), as RFC 2047 encoded words of our own,
    /// which a reader decodes back to the name as typed.
    static func header(_ box: Mailbox) -> String {
        guard let name = box.name, !name.isEmpty else { return box.email }
        if EncodedWords.mayHoldAny(name) { return encodedWords(name, always: true) + " <\(box.email)>" }
        let scalars = name.unicodeScalars
        if scalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || $0 == " " || ($0.value >= 0x30 && $0.value <= 0x39)) }) {
            return name + " <\(box.email)>"
        }
        if scalars.allSatisfy({ $0.isASCII && $0.value >= 0x20 && $0.value != 0x7F }) {
            return "\"" + name.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\" <\(box.email)>"
        }
        return encodedWords(name, always: true) + " <\(box.email)>"
    }

    /// Text as RFC 2047 encoded words when it is not plain ASCII or holds
    /// `=?…?=` (a title typed as an encoded word is shown as typed, never
    /// decoded into a line break: issue 41, 12), each word at most 75
    /// characters, so no header line is too long.
    static func encodedWords(_ text: String, always: Bool = false) -> String {
        let oneLine = text.replacingOccurrences(of: "\r", with: " ").replacingOccurrences(of: "\n", with: " ")
        if !always, !EncodedWords.mayHoldAny(oneLine), oneLine.unicodeScalars.allSatisfy({ $0.isASCII && $0.value >= 0x20 && $0.value != 0x7F }), oneLine.utf8.count <= 900 { return oneLine }
        var words: [String] = [], chunk = ""
        for character in oneLine {
            if (chunk + String(character)).utf8.count > 45 {
                words.append(chunk)
                chunk = ""
            }
            chunk.append(character)
        }
        if !chunk.isEmpty { words.append(chunk) }
        return words.map { "=?UTF-8?B?" + Data($0.utf8).base64EncodedString() + "?=" }.joined(separator: "\r\n ")
    }

    private static func base64Lines(_ text: String) -> [String] {
        let encoded = Data(text.utf8).base64EncodedString(options: [.lineLength76Characters, .endLineWithCarriageReturn, .endLineWithLineFeed])
        return encoded.components(separatedBy: "\r\n")
    }

    private static func rfc5322Date(_ date: Date) -> String {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "UTC")
        f.dateFormat = "EEE, dd MMM yyyy HH:mm:ss '+0000'"
        return f.string(from: date)
    }
}

/// A message that cannot be written as e-mail, and why.
public struct IMIPError: HorariError, Hashable, Sendable {
    /// What is wrong, for a person.
    public var message: String
    /// Creates an error.
    public init(_ message: String) { self.message = message }
    /// The message.
    public var description: String { message }
    /// 1: the one kind (Docs/Errors.md).
    public var errorCode: Int { 1 }
}
