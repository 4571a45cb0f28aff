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
/// **Red is reserved.** A day holding two or more items is drawn red, so red
/// cannot mark a single item: ``CalendarItem/validate(_:)`` refuses pure red
/// and any colour within CIEDE2000 ΔE < 10 of it (``ValidationRules``). ΔE00
/// ≈ 2.3 is the smallest difference people see side by side under ideal
/// light; a small day cell on a phone is far from ideal, and 10 is where
/// colours stop reading as "the same red" at a glance: `orangered` (ΔE 6.4)
/// is refused, `tomato` (10.2) and `crimson` (13.8) are allowed.
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

        /// `#rrggbb`.
        public var hex: String { String(format: "#%02x%02x%02x", red, green, blue) }
    }

    /// The sRGB value.
    public let rgb: RGB
    /// The CSS3 keyword, for a named colour.
    public let cssName: String?

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
            throw CalendarItemError(.unknownColor, field: "color", "‘\(name)’ is not a CSS3 colour name (such as teal, orange or royalblue)")
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
    public var isReservedForBusyDays: Bool { difference(from: .red) < ValidationRules().reservedColorDistance }
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
