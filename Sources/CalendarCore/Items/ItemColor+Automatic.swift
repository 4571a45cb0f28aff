import Foundation

extension ItemColor {
    /// The colours ``automatic(for:avoiding:)`` chooses from: twenty CSS
    /// colours, none in the ``ReservedRedFamily`` (red marks busy days) and,
    /// but for sienna (a brown at 50.5°), none within 5° of its hues, with a lightness L\* of 35 to 75, each at
    /// least 10 ΔE00 from every other (tested). Remote Trainer offers twenty
    /// shades for workouts; these are twenty a person can tell apart: the
    /// first ten are the views' familiar ones, the rest were taken one at a
    /// time from the CSS names as the one furthest from those chosen.
    public static let automaticPalette: [ItemColor] = [
        "royalblue", "seagreen", "darkorange", "mediumpurple", "teal", "goldenrod", "deeppink", "steelblue", "olivedrab", "sienna",
        "plum", "deepskyblue", "limegreen", "darkviolet", "darkgreen", "lightseagreen", "fuchsia", "darkseagreen", "tan", "chocolate",
    ].compactMap { try? named($0) }

    /// A colour from ``automaticPalette`` for an item known by `key` (its
    /// category, or its title), the same for the same key in every run and
    /// on every machine, and distinct from the colours of its neighbours
    /// (the items on its days) where the palette allows.
    ///
    /// The key, its case and accents ignored, picks a colour by a stable
    /// hash (FNV-1a, not Swift's per-process `hashValue`); when that colour
    /// is within 10 ΔE00 of a neighbour's, the next in the palette that is
    /// not is taken, and when none is, the one furthest from them all.
    ///
    /// ```swift
    /// ItemColor.automatic(for: "Deadlift")                          // the same every time
    /// ItemColor.automatic(for: "Deadlift", avoiding: [.automatic(for: "Deadlift")])  // another
    /// ```
    /// - Parameters:
    ///   - key: what names the item's kind: a category, else a title.
    ///   - neighbours: the colours it should stand apart from.
    /// - Returns: a colour outside the red family.
    public static func automatic(for key: String, avoiding neighbours: [ItemColor] = []) -> ItemColor {
        let palette = automaticPalette
        let folded = key.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in folded.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        let first = Int(hash % UInt64(palette.count))
        let near = neighbours.map(\.displayed)
        func closest(_ color: ItemColor) -> Double { near.map { color.difference(from: $0) }.min() ?? .infinity }
        for step in 0..<palette.count {
            let color = palette[(first + step) % palette.count]
            if closest(color) >= 10 { return color }
        }
        var best = palette[first]
        for color in palette where closest(color) > closest(best) { best = color }
        return best
    }
}
