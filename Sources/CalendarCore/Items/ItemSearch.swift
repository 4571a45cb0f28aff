import Foundation

/// A search of a calendar's items by what they say: each word of the text
/// somewhere in an item's title, notes, location or categories, case and
/// accents ignored ("nuria" finds "Núria", "CAFÉ" finds "cafe").
///
/// Every word must be found, each in any of those fields ("yoga sala"
/// finds Yoga in Sala 2). A repeating item is found by its series, or by
/// any of its instances (a date moved and retitled): the views then show
/// every occurrence of what was found.
///
/// ```swift
/// let search = try ItemSearch("núria")
/// let found = calendar.items.filter(search.matches)
/// ```
public struct ItemSearch: Hashable, Sendable {
    /// The words searched for, folded (lower case, without accents).
    public let words: [String]

    /// The longest text searched for: 255 characters, as a category.
    public static let maximumLength = 255

    /// A search for `text`'s words.
    /// - Parameter text: one or more words, separated by white space.
    /// - Throws: ``ItemSearchError`` for a text with no word in it, or longer than ``maximumLength``.
    public init(_ text: String) throws(ItemSearchError) {
        guard text.count <= Self.maximumLength else {
            throw ItemSearchError(message: "the text searched for is \(text.count) characters long; at most \(Self.maximumLength)")
        }
        words = Self.fold(text).split(whereSeparator: \.isWhitespace).map(String.init)
        guard !words.isEmpty else { throw ItemSearchError(message: "give a word to search for") }
    }

    /// Whether every word is in the item's title, notes, location or
    /// categories, or in those of one of its instances.
    public func matches(_ item: CalendarItem) -> Bool {
        var texts = Self.texts(of: item)
        for o in item.overrides { texts += Self.texts(of: o.item) }
        let folded = texts.map(Self.fold)
        return words.allSatisfy { word in folded.contains { $0.contains(word) } }
    }

    private static func texts(of item: CalendarItem) -> [String] {
        [item.title] + [item.notes, item.location].compactMap { $0 } + item.categories
    }

    /// Lower case, without accents or width: what a person types.
    static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
    }
}

/// Why a text cannot be searched for (``ItemSearch/init(_:)``).
public struct ItemSearchError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong, in words a person can act on.
    public let message: String
    /// The message.
    public var description: String { message }
}
