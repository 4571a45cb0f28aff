import Foundation

/// The colour of a calendar item: a CSS3 named colour (as RFC 7986 `COLOR`
/// writes it) or a custom sRGB colour.
///
/// ```swift
/// let teal = try ItemColor.named("teal")
/// let brand = ItemColor(rgb: .init(0x33, 0x66, 0x99))
/// ItemColor.red.isReservedForBusyDays   // true
/// ```
///
/// **Red is reserved.** A day holding two or more items is drawn red, so no
/// colour a person could take for that red may mark a single item:
/// ``CalendarItem/validate(_:zones:)`` refuses every colour in the
/// ``ReservedRedFamily`` — a region of CIE L\*C\*h(ab), where hue, colourfulness
/// and lightness are separate numbers — not just pure red. The reasons for
/// its bounds, and the verdict on all 147 CSS colour names, are in the
/// repository's `Docs/Colors.md`.
///
/// An item can still arrive with such a colour — imported or merged from a
/// program that allows it. The item keeps it (a round trip is lossless), and
/// every view draws it in ``redStandIn`` instead (``displayed``), so that red
/// on a screen always means a busy day.
public struct ItemColor: Hashable, Sendable, Codable, CustomStringConvertible {
    /// An sRGB colour with 8 bits a channel.
    public struct RGB: Hashable, Sendable, Codable {
        /// Red, 0…255.
        public var red: UInt8
        /// Green, 0…255.
        public var green: UInt8
        /// Blue, 0…255.
        public var blue: UInt8

        /// Creates a colour from its channels.
        public init(_ red: UInt8, _ green: UInt8, _ blue: UInt8) {
            self.red = red
            self.green = green
            self.blue = blue
        }

        /// Reads `#RRGGBB` or `RRGGBB`.
        public init?(hex: String) {
            let digits = hex.hasPrefix("#") ? String(hex.dropFirst()) : hex
            guard digits.count == 6, let v = UInt32(digits, radix: 16) else { return nil }
            self.init(UInt8(v >> 16), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF))
        }

        /// Reads a colour as CSS writes it in hex: `#rrggbb`, or `#rgb`, where
        /// each digit stands for itself twice (`#f00` is `#ff0000`, red).
        ///
        /// The `#` is required and every other character is a hex digit, so a
        /// CSS name such as `teal` is never read as digits. Files keep to
        /// ``init(hex:)``, which reads `#RRGGBB` only.
        public init?(css text: String) {
            guard text.hasPrefix("#") else { return nil }
            let digits = text.dropFirst()
            guard digits.count == 3 || digits.count == 6, digits.allSatisfy(\.isHexDigit) else { return nil }
            self.init(hex: digits.count == 6 ? String(digits) : String(digits.flatMap { [$0, $0] }))
        }

        /// `#rrggbb`.
        public var hex: String { String(format: "#%02x%02x%02x", red, green, blue) }
    }

    /// The sRGB value.
    public let rgb: RGB
    /// The CSS3 keyword, for a named colour.
    public let cssName: String?

    private enum CodingKeys: String, CodingKey { case name, hex }

    /// Decodes `{"name": "teal", "hex": "#008080"}`; `name` may be missing
    /// for a custom colour. A name CSS3 does not have, or a name whose
    /// colour is not `hex`, is refused.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let hex = try c.decode(String.self, forKey: .hex)
        guard let rgb = RGB(hex: hex) else {
            throw DecodingError.dataCorruptedError(forKey: .hex, in: c, debugDescription: "‘\(hex)’ is not #rrggbb")
        }
        guard let name = try c.decodeIfPresent(String.self, forKey: .name) else {
            self.init(rgb: rgb)
            return
        }
        guard let named = try? ItemColor.named(name), named.rgb == rgb else {
            throw DecodingError.dataCorruptedError(forKey: .name, in: c, debugDescription: "‘\(name)’ is not the CSS name of \(hex)")
        }
        self = named
    }

    /// Encodes `{"name": "teal", "hex": "#008080"}` (no `name` for a custom colour).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(cssName, forKey: .name)
        try c.encode(rgb.hex, forKey: .hex)
    }

    /// A custom colour.
    public init(rgb: RGB) {
        self.rgb = rgb
        self.cssName = nil
    }

    private init(name: String, rgb: RGB) {
        self.rgb = rgb
        self.cssName = name
    }

    /// A CSS3 named colour (case-insensitive).
    ///
    /// - Throws: ``CalendarItemError/Code/unknownColor`` for a name CSS3 does not have.
    public static func named(_ name: String) throws(CalendarItemError) -> ItemColor {
        let key = name.lowercased()
        guard let rgb = paletteIndex[key] else {
            throw CalendarItemError(.unknownColor, field: .color, "‘\(name)’ is not a CSS3 colour name (such as teal, orange or royalblue)")
        }
        return ItemColor(name: key, rgb: rgb)
    }

    private static let paletteIndex: [String: RGB] = Dictionary(cssPalette.map { ($0.name, $0.rgb) }, uniquingKeysWith: { a, _ in a })

    /// Pure red (`#ff0000`), the colour of a day with several items.
    public static let red = ItemColor(name: "red", rgb: RGB(255, 0, 0))

    /// The CSS name, or `#rrggbb` for a custom colour.
    public var description: String { cssName ?? rgb.hex }

    /// The CIEDE2000 colour difference (ΔE00) between this colour and another.
    public func difference(from other: ItemColor) -> Double {
        ColorDifference.ciede2000(ColorDifference.lab(rgb), ColorDifference.lab(other.rgb))
    }

    /// Whether this colour is reserved for busy days under the default rules.
    public var isReservedForBusyDays: Bool { ReservedRedFamily().contains(self) }

    /// The colour an item of this colour is drawn in: this colour, or
    /// ``redStandIn`` for one in the ``ReservedRedFamily``.
    ///
    /// Views (`CalendarViews`: the month's day marks, the week's days, the
    /// day's and the list's occurrences, the task list) draw items in this
    /// colour, so a red item from another program never looks like a busy
    /// day. The item itself keeps its colour.
    ///
    /// ```swift
    /// ItemColor.red.displayed            // deeppink
    /// try ItemColor.named("teal").displayed   // teal
    /// ```
    public var displayed: ItemColor { isReservedForBusyDays ? .redStandIn : self }

    /// What a view draws an item in when its own colour is in the red family:
    /// `deeppink` (`#ff1493`), the warm colour nearest to red that is clearly
    /// not red (hue 356°, 24° outside the family), so the item still looks
    /// like the colour it was given.
    public static let redStandIn = ItemColor(name: "deeppink", rgb: RGB(255, 20, 147))

    /// A colour's lightness, chroma and hue in CIE L\*C\*h(ab) (sRGB, D65).
    public struct LCh: Hashable, Sendable {
        /// Lightness L\*, 0 (black) to 100 (white).
        public var lightness: Double
        /// Chroma C\*ab: 0 for a grey, over 100 for pure sRGB red.
        public var chroma: Double
        /// Hue angle h(ab) in degrees, 0 ..< 360 (sRGB red is at 40).
        public var hue: Double
    }

    /// This colour in CIE L\*C\*h(ab).
    public var lch: LCh {
        let lab = ColorDifference.lab(rgb)
        let hue = atan2(lab.b, lab.a) * 180 / .pi
        return LCh(lightness: lab.l, chroma: (lab.a * lab.a + lab.b * lab.b).squareRoot(), hue: hue < 0 ? hue + 360 : hue)
    }

    /// The colour views give an item that has none, so that every item marks
    /// its day: `steelblue`, far from red and readable on dark and light
    /// backgrounds alike.
    public static let fallback = ItemColor(name: "steelblue", rgb: RGB(70, 130, 180))

    /// Colours a refusal of a red offers instead: each is far outside the
    /// ``ReservedRedFamily`` (at least 20° of hue, tested).
    public static let clearlyNotRed: [ItemColor] = ["orange", "deeppink", "royalblue", "seagreen"].compactMap { try? named($0) }
}

/// The colours reserved for busy days: a region of CIE L\*C\*h(ab) around
/// sRGB red, with a hue, a least chroma and a greatest lightness.
///
/// A colour is in the family when **all three** hold (the defaults):
/// - its hue h(ab) is within **20°…50°**: sRGB red sits at 40°; crimson (25°)
///   and orangered (45.5°) read as red, while deeppink (356°), sienna (50.5°)
///   and chocolate (57°) read as pink or brown;
/// - its chroma C\* is at least **40**: below that a colour reads as a grey
///   or a brown (rosybrown, C\* 18), not as red;
/// - its lightness L\* is at most **65**: lighter tints read as pink, salmon
///   or coral (salmon 67, coral 67, lightcoral 66), while tomato (62) and
///   indianred (53) still read as red.
///
/// Lightness has no lower bound: maroon (L\* 25) and darkred (28) are reds;
/// a red so dark that its chroma is under 40 reads as black.
///
/// ```swift
/// ReservedRedFamily().contains(try .named("firebrick"))   // true
/// ReservedRedFamily().contains(try .named("gold"))        // false
/// ```
public struct ReservedRedFamily: Hashable, Sendable, Codable {
    /// The hue angles, in degrees, of the family.
    public var hues: ClosedRange<Double>
    /// The least chroma of a family member.
    public var minimumChroma: Double
    /// The greatest lightness of a family member.
    public var maximumLightness: Double

    /// Creates the family; the defaults are the ones explained above.
    public init(hues: ClosedRange<Double> = 20...50, minimumChroma: Double = 40, maximumLightness: Double = 65) {
        self.hues = hues
        self.minimumChroma = minimumChroma
        self.maximumLightness = maximumLightness
    }

    /// Why a colour cannot be picked, in words a person can act on, or `nil`
    /// when it is outside the family: "‘#fe0000’ is in the red family (hue
    /// 40°, chroma 104, lightness 53): red marks days with two or more items;
    /// pick a colour that is clearly not red, such as orange, …".
    public func refusal(of color: ItemColor) -> String? {
        guard contains(color) else { return nil }
        let lch = color.lch
        let how = color.rgb == ItemColor.red.rgb ? "is red"
            : "is in the red family (hue \(Int(lch.hue.rounded()))°, chroma \(Int(lch.chroma.rounded())), lightness \(Int(lch.lightness.rounded())))"
        let others = ItemColor.clearlyNotRed.map(\.description)
        let offer = others.dropLast().joined(separator: ", ") + (others.count > 1 ? " or " : "") + (others.last ?? "")
        return "‘\(color)’ \(how): red marks days with two or more items; pick a colour that is clearly not red, such as \(offer)"
    }

    /// Whether a colour belongs to the family (and so cannot mark one item).
    public func contains(_ color: ItemColor) -> Bool {
        let c = color.lch
        return hues.contains(c.hue) && c.chroma >= minimumChroma && c.lightness <= maximumLightness
    }
}

/// CIELAB and CIEDE2000 (Sharma, Wu and Dalal, 2005) for sRGB colours under D65.
enum ColorDifference {
    typealias Lab = (l: Double, a: Double, b: Double)

    static func lab(_ c: ItemColor.RGB) -> Lab {
        func linear(_ v: UInt8) -> Double {
            let x = Double(v) / 255
            return x <= 0.04045 ? x / 12.92 : pow((x + 0.055) / 1.055, 2.4)
        }
        let r = linear(c.red), g = linear(c.green), b = linear(c.blue)
        // IEC 61966-2-1 sRGB to XYZ, D65.
        let x = 0.4124 * r + 0.3576 * g + 0.1805 * b
        let y = 0.2126 * r + 0.7152 * g + 0.0722 * b
        let z = 0.0193 * r + 0.1192 * g + 0.9505 * b
        // D65 white from its chromaticity (0.3127, 0.3290).
        let xn = 0.3127 / 0.3290, yn = 1.0, zn = (1 - 0.3127 - 0.3290) / 0.3290
        func f(_ t: Double) -> Double {
            let d = 6.0 / 29.0
            return t > d * d * d ? cbrt(t) : t / (3 * d * d) + 4.0 / 29.0
        }
        let fx = f(x / xn), fy = f(y / yn), fz = f(z / zn)
        return (116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz))
    }

    static func ciede2000(_ p: Lab, _ q: Lab) -> Double {
        let rad = Double.pi / 180
        let c1 = (p.a * p.a + p.b * p.b).squareRoot()
        let c2 = (q.a * q.a + q.b * q.b).squareRoot()
        let cBar7 = pow((c1 + c2) / 2, 7)
        let g = 0.5 * (1 - (cBar7 / (cBar7 + pow(25, 7))).squareRoot())
        let a1 = (1 + g) * p.a, a2 = (1 + g) * q.a
        let c1p = (a1 * a1 + p.b * p.b).squareRoot(), c2p = (a2 * a2 + q.b * q.b).squareRoot()
        func hue(_ b: Double, _ a: Double) -> Double {
            if a == 0 && b == 0 { return 0 }
            let h = atan2(b, a) / rad
            return h < 0 ? h + 360 : h
        }
        let h1 = hue(p.b, a1), h2 = hue(q.b, a2)
        let dL = q.l - p.l
        let dC = c2p - c1p
        var dh = 0.0
        if c1p * c2p != 0 {
            dh = h2 - h1
            if dh > 180 { dh -= 360 } else if dh < -180 { dh += 360 }
        }
        let dH = 2 * (c1p * c2p).squareRoot() * sin(dh / 2 * rad)
        let lBar = (p.l + q.l) / 2
        let cBarP = (c1p + c2p) / 2
        var hBar = h1 + h2
        if c1p * c2p != 0 {
            if abs(h1 - h2) <= 180 { hBar = (h1 + h2) / 2 } else if h1 + h2 < 360 { hBar = (h1 + h2 + 360) / 2 } else { hBar = (h1 + h2 - 360) / 2 }
        }
        let t = 1 - 0.17 * cos((hBar - 30) * rad) + 0.24 * cos(2 * hBar * rad) + 0.32 * cos((3 * hBar + 6) * rad) - 0.20 * cos((4 * hBar - 63) * rad)
        let dTheta = 30 * exp(-pow((hBar - 275) / 25, 2))
        let cBarP7 = pow(cBarP, 7)
        let rC = 2 * (cBarP7 / (cBarP7 + pow(25, 7))).squareRoot()
        let sL = 1 + 0.015 * pow(lBar - 50, 2) / (20 + pow(lBar - 50, 2)).squareRoot()
        let sC = 1 + 0.045 * cBarP
        let sH = 1 + 0.015 * cBarP * t
        let rT = -sin(2 * dTheta * rad) * rC
        let l = dL / sL, c = dC / sC, h = dH / sH
        return (l * l + c * c + h * h + rT * c * h).squareRoot()
    }
}
