import Foundation

/// `members.pack` in a collection's cache: every cached member's text in
/// one file, so that reading an unchanged collection opens one file rather
/// than one a member (10,000 members: 10,000 opens, reads and closes, a
/// quarter of an unchanged sync's time; issue 42, 2).
///
/// The pack is derived: each member's own file stays what `state.json`
/// names and what every change reads and writes. A text is taken from the
/// pack only under the name of that member's file, and a file's name is
/// made from its text (``CollectionStore/fileName(_:_:_:)``), so a pack
/// can be old but never wrong: a member changed since is read from its
/// file. A pack that is missing, cut short or not this form is not used,
/// and the next read of every member writes it again.
///
/// The pack also keeps how its texts are read together
/// (``ResourceReader/Plan``, ``plan``), so that an unchanged read imports
/// one joined text rather than scanning and joining every member's again.
/// The plan is of these texts and no others: it is written with them, and
/// used only when the read is of exactly the pack's members.
///
/// The form: a first line `horari members pack 2`, a line
/// `<file name><TAB><length in bytes>` a member, an empty line, the texts
/// one after another in the lines' order, then the plan
/// (``ResourceReader/Plan/encoded``), if any, to the end.
struct MemberPack {
    static let name = "members.pack"
    private static let firstLine = Array("horari members pack 2\n".utf8)

    private let bytes: [UInt8]
    private let ranges: [String: Range<Int>]
    private let planBytes: Range<Int>

    /// How many members' texts it holds.
    var count: Int { ranges.count }

    /// The text kept for the member file `name`, if the pack holds it.
    func text(of name: String) -> [UInt8]? {
        ranges[name].map { Array(bytes[$0]) }
    }

    /// Whether the pack holds the member file `name`.
    func holds(_ name: String) -> Bool { ranges[name] != nil }

    /// How the texts are read together, if the pack keeps that and it reads whole.
    var plan: ResourceReader.Plan? {
        planBytes.isEmpty ? nil : ResourceReader.Plan(encoded: bytes[planBytes])
    }

    /// The pack at `path`; `nil` when there is none or it is not whole.
    static func read(atPath path: String) -> MemberPack? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return parse([UInt8](data))
    }

    /// The pack in `bytes`; `nil` unless every line is well formed and the
    /// texts are as long as the lines say. What follows them is the plan
    /// (not read until asked for: one that does not read whole is none).
    static func parse(_ bytes: [UInt8]) -> MemberPack? {
        guard bytes.starts(with: firstLine) else { return nil }
        var at = firstLine.count
        var entries: [(name: String, length: Int)] = []
        while true {
            guard let end = bytes[at...].firstIndex(of: 0x0A) else { return nil }
            let line = bytes[at..<end]
            at = end + 1
            if line.isEmpty { break }
            guard let tab = line.firstIndex(of: 0x09), tab > line.startIndex,
                  let length = Int(String(decoding: line[(tab + 1)...], as: UTF8.self)), length >= 0 else { return nil }
            entries.append((String(decoding: line[..<tab], as: UTF8.self), length))
        }
        var ranges: [String: Range<Int>] = [:]
        for (name, length) in entries {
            guard length <= bytes.count - at, ranges[name] == nil else { return nil }
            ranges[name] = at..<(at + length)
            at += length
        }
        return MemberPack(bytes: bytes, ranges: ranges, planBytes: at..<bytes.count)
    }

    /// The pack of these members' files and texts, and the plan of reading
    /// them together. A name holds no tab or line break (it is a digest and
    /// `.ics`); one that does, and a name named twice, are left out.
    static func encode(_ members: [(name: String, text: [UInt8])], plan: ResourceReader.Plan? = nil) -> [UInt8] {
        var seen = Set<String>()
        let kept = members.filter { !$0.name.isEmpty && !$0.name.utf8.contains(0x09) && !$0.name.utf8.contains(0x0A) && seen.insert($0.name).inserted }
        var out = firstLine
        for m in kept { out += Array("\(m.name)\t\(m.text.count)\n".utf8) }
        out.append(0x0A)
        for m in kept { out += m.text }
        if let plan { out += plan.encoded }
        return out
    }
}
