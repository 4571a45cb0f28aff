/// The content lines an item or component keeps as written, stored as one
/// block of text.
///
/// It behaves like `[ContentLine]` (an array literal makes one, lines are
/// read and replaced by position, and it encodes to the same JSON), but all
/// its lines live in a single allocation: their canonical ``ContentLine/text``
/// one after another, then where each ends. An imported item keeps its
/// unmodelled properties here; as an array of lines they cost an allocation
/// for the array and one per line, which on the 50,000-event benchmark file
/// was over a tenth of the import's memory (Benchmarks/RESULTS.md).
///
/// ```swift
/// var lines: ContentLines = [ContentLine(name: "X-GYM-ROOM", value: "2")]
/// lines.append(ContentLine(name: "URL", value: "https://example.com"))
/// lines.first { $0.name == "URL" }?.value   // "https://example.com"
/// ```
///
/// A line is made when it is read, so reading is a little slower than from
/// an array, and every change copies the block: to add many lines, collect
/// them first and append them at once (`append(contentsOf:)`).
public struct ContentLines: RandomAccessCollection, MutableCollection, RangeReplaceableCollection,
    ExpressibleByArrayLiteral, Hashable, Sendable, Codable, CustomStringConvertible
{
    // The block: the lines' text, then the end of each line's text (4 bytes,
    // little-endian), then the number of lines (4 bytes). Empty when there
    // are no lines, so an empty list allocates nothing. The offsets limit the
    // text to 4 GiB, far beyond the importer's 2 GiB file limit.
    private var storage: [UInt8]

    /// An empty list.
    public init() { storage = [] }

    /// A list of the given lines, in order.
    public init(_ lines: some Sequence<ContentLine>) {
        self.init(Array(lines))
    }

    /// A list of the given lines, in order. (Not generic, so that the
    /// importer's call from another module runs specialised.)
    public init(_ lines: [ContentLine]) {
        storage = []
        replace(0..<0, with: lines)
    }

    /// A list of the given lines, in order.
    public init(arrayLiteral lines: ContentLine...) { self.init(lines) }

    /// The position of the first line (always 0).
    public var startIndex: Int { 0 }

    /// One past the last line: the number of lines.
    public var endIndex: Int { storage.isEmpty ? 0 : Int(word(at: storage.count - 4)) }

    /// The line at `position`.
    public subscript(position: Int) -> ContentLine {
        get { ContentLine(canonicalText: String(decoding: storage[textRange(position)], as: UTF8.self)) }
        set { replaceSubrange(position..<position + 1, with: CollectionOfOne(newValue)) }
    }

    /// Replaces the lines in `range` with `newLines`.
    public mutating func replaceSubrange<C: Collection>(_ range: Range<Int>, with newLines: C) where C.Element == ContentLine {
        replace(range, with: Array(newLines))
    }

    /// ``replaceSubrange(_:with:)`` for an array: writes the new block.
    private mutating func replace(_ range: Range<Int>, with newLines: [ContentLine]) {
        let count = endIndex
        precondition(range.lowerBound >= 0 && range.upperBound <= count, "ContentLines: range out of bounds")
        let textEnd = storage.isEmpty ? 0 : storage.count - 4 - 4 * count
        let head = range.lowerBound == 0 ? 0 : lineEnd(range.lowerBound - 1)
        let tail = range.upperBound == 0 ? 0 : lineEnd(range.upperBound - 1)
        let newCount = count - range.count + newLines.count
        guard newCount > 0 else {
            storage = []
            return
        }
        let added = newLines.reduce(0) { $0 + $1.text.utf8.count }
        let newTextEnd = textEnd - (tail - head) + added
        precondition(newTextEnd <= Int(UInt32.max), "ContentLines: over 4 GiB of text")
        var out: [UInt8] = []
        out.reserveCapacity(newTextEnd + 4 * newCount + 4)
        out.append(contentsOf: storage[0..<head])
        for line in newLines { out.append(contentsOf: line.text.utf8) }
        out.append(contentsOf: storage[tail..<textEnd])
        // The ends: those before the range unchanged, the new lines', then those after it shifted.
        for i in 0..<range.lowerBound { Self.appendWord(word(at: textEnd + 4 * i), to: &out) }
        var end = head
        for line in newLines {
            end += line.text.utf8.count
            Self.appendWord(UInt32(end), to: &out)
        }
        for i in range.upperBound..<count { Self.appendWord(UInt32(lineEnd(i) - tail + end), to: &out) }
        Self.appendWord(UInt32(newCount), to: &out)
        storage = out
    }

    /// Appends the lines of `newLines`, copying the block once.
    public mutating func append<S: Sequence>(contentsOf newLines: S) where S.Element == ContentLine {
        replace(endIndex..<endIndex, with: Array(newLines))
    }

    /// Removes the lines that match `shouldBeRemoved`, copying the block once.
    public mutating func removeAll(where shouldBeRemoved: (ContentLine) throws -> Bool) rethrows {
        var kept: [ContentLine] = []
        for line in self where try !shouldBeRemoved(line) { kept.append(line) }
        if kept.count != count { self = ContentLines(kept) }
    }

    /// The lines that match `isIncluded`, in order.
    public func filter(_ isIncluded: (ContentLine) throws -> Bool) rethrows -> ContentLines {
        var kept: [ContentLine] = []
        for line in self where try isIncluded(line) { kept.append(line) }
        return ContentLines(kept)
    }

    /// Whether a line has this property name (upper case), read without
    /// making a line of each.
    package func containsLine(named name: String) -> Bool {
        var found = false
        forEachText { text in
            guard !found, text.starts(with: name.utf8) else { return }
            let after = text.index(text.startIndex, offsetBy: name.utf8.count)
            found = after < text.endIndex && (text[after] == 0x3A || text[after] == 0x3B)  // : or ;
        }
        return found
    }

    /// Each line's canonical text as bytes, in order, without making a ``ContentLine``.
    package func forEachText(_ body: (ArraySlice<UInt8>) -> Void) {
        for i in indices { body(storage[textRange(i)]) }
    }

    /// The lines one per row, as they are written.
    public var description: String { map(\.text).description }

    /// Decodes a JSON array of lines.
    public init(from decoder: any Decoder) throws {
        self.init(try [ContentLine](from: decoder))
    }

    /// Encodes a JSON array of lines (the same as `[ContentLine]`).
    public func encode(to encoder: any Encoder) throws {
        try Array(self).encode(to: encoder)
    }

    // MARK: The block

    /// Where line `i`'s text ends in `storage`.
    private func lineEnd(_ i: Int) -> Int {
        Int(word(at: storage.count - 4 - 4 * (endIndex - i)))
    }

    /// The bytes of line `i`'s text.
    private func textRange(_ i: Int) -> Range<Int> {
        precondition(i >= 0 && i < endIndex, "ContentLines: index out of range")
        return (i == 0 ? 0 : lineEnd(i - 1))..<lineEnd(i)
    }

    private func word(at offset: Int) -> UInt32 {
        UInt32(storage[offset]) | UInt32(storage[offset + 1]) << 8 | UInt32(storage[offset + 2]) << 16 | UInt32(storage[offset + 3]) << 24
    }

    private static func appendWord(_ w: UInt32, to out: inout [UInt8]) {
        out.append(UInt8(truncatingIfNeeded: w))
        out.append(UInt8(truncatingIfNeeded: w >> 8))
        out.append(UInt8(truncatingIfNeeded: w >> 16))
        out.append(UInt8(truncatingIfNeeded: w >> 24))
    }
}
