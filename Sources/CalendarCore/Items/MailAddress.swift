import Foundation

/// The syntax of an e-mail address a message can go to, shared by the book's
/// records (CalendarScheduling) and the messages (ICalendarKit's
/// `IMIPMessage`), so that what a record takes a message can be sent to.
package enum MailAddress {
    private static let allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.!#$%&'*+-/=?^_`{|}~")

    /// Whether `text` is one bare address, `local@domain.tld`: one `@`, a
    /// local part, a domain with a dot inside it, and nothing but RFC 5322's
    /// atom characters and dots (no space, no name, no `<…>`, no comma).
    package static func isOne(_ text: String) -> Bool {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        return parts.count == 2 && !parts[0].isEmpty && parts[1].contains(".") && !parts[1].hasPrefix(".") && !parts[1].hasSuffix(".")
            && text.unicodeScalars.allSatisfy { $0 == "@" || allowed.contains($0) }
    }
}
