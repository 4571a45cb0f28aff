import CalendarCore
import Foundation
import Testing

/// `--color auto`'s choice (issue 44, 6): a palette colour outside the red
/// family, the same for the same key, distinct from its neighbours.
@Suite("Colours chosen for you")
struct AutomaticColorTests {
    @Test("the palette: twenty colours, none in the red family, each at least 10 ΔE00 from the others, none too light or too dark to read a title on")
    func palette() {
        let palette = ItemColor.automaticPalette
        #expect(palette.count == 20)
        #expect(Set(palette).count == 20)
        for (i, a) in palette.enumerated() {
            #expect(!a.isReservedForBusyDays, "\(a) is in the red family")
            #expect(a == (try? ItemColor.named("sienna")) || !(15...55).contains(a.lch.hue), "\(a): hue \(a.lch.hue), near the red family's")
            #expect((35...75).contains(a.lch.lightness), "\(a): L* \(a.lch.lightness)")
            for b in palette[(i + 1)...] {
                #expect(a.difference(from: b) >= 10, "\(a) and \(b): ΔE00 \(a.difference(from: b))")
            }
        }
    }

    @Test("the same key gives the same colour, its case and accents ignored; keys spread over the palette")
    func stable() throws {
        #expect(ItemColor.automatic(for: "Deadlift") == ItemColor.automatic(for: "  deadlift "))
        #expect(ItemColor.automatic(for: "Música") == ItemColor.automatic(for: "MUSICA"))
        // Stable across processes and machines: FNV-1a, not hashValue. (These two are the hash's, worked by hand.)
        #expect(ItemColor.automatic(for: "") == ItemColor.automaticPalette[Int(0xcbf2_9ce4_8422_2325 as UInt64 % 20)])
        let used = Set((0..<200).map { ItemColor.automatic(for: "Workout \($0)") })
        #expect(used.count == 20, "200 keys used \(used.count) of 20 colours")
    }

    @Test("a neighbour's colour, or one too close to it, is passed over; with every colour taken, the furthest")
    func neighbours() throws {
        let own = ItemColor.automatic(for: "Deadlift")
        let other = ItemColor.automatic(for: "Deadlift", avoiding: [own])
        #expect(other != own && other.difference(from: own) >= 10)
        #expect(!other.isReservedForBusyDays)
        // A neighbour drawn as the red stand-in (deeppink) counts as drawn.
        let pink = try ItemColor.named("deeppink")
        if own == pink || ItemColor.automatic(for: "Run") == pink {
            #expect(ItemColor.automatic(for: "Run", avoiding: [.red]) != pink)
        }
        #expect(ItemColor.automatic(for: "Run", avoiding: [.red]).difference(from: ItemColor.red.displayed) >= 10)
        let all = ItemColor.automatic(for: "Deadlift", avoiding: ItemColor.automaticPalette)
        #expect(ItemColor.automaticPalette.contains(all))
    }
}
