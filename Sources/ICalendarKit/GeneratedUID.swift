/// The UID given to a component that has none: `horari-<FNV-1a 64 of its
/// text>@generated`. Derived from the content, so the same file always gets
/// the same UIDs and a re-import does not duplicate anything.
func generatedUID(for bytes: some Sequence<UInt8>) -> String {
    let hex = String(fnv1a64(bytes), radix: 16)
    return "horari-" + String(repeating: "0", count: 16 - hex.count) + hex + "@generated"
}

/// FNV-1a, 64 bits: a digest of content that names it the same on every
/// run and machine (a generated UID, an e-mail's Message-ID); not for secrets.
func fnv1a64(_ bytes: some Sequence<UInt8>) -> UInt64 {
    var h: UInt64 = 0xcbf2_9ce4_8422_2325
    for b in bytes { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
    return h
}
