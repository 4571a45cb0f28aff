internal import Crypto

/// SHA-256 in hexadecimal, for names that a `UID` or a server's `href`
/// cannot steer: a resource's file or name is derived from a digest, never
/// from the text as it stands.
///
/// swift-crypto's `SHA256` (CryptoKit's API; CryptoKit itself on Apple
/// platforms), in place of the library's own implementation it replaced
/// (issue 30): a well-kept library rather than hand-written code, and the
/// same names as before, so caches and folders written earlier are found.
enum Digest {
    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// The SHA-256 of `bytes`, as 64 lowercase hexadecimal digits.
    /// - Parameter bytes: what to digest (a string's `utf8`, a file's bytes).
    static func sha256Hex(_ bytes: some Sequence<UInt8>) -> String {
        var text: [UInt8] = []
        text.reserveCapacity(64)
        for byte in SHA256.hash(data: Array(bytes)) {
            text.append(hexDigits[Int(byte >> 4)])
            text.append(hexDigits[Int(byte & 0x0f)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}


/// The name a resource is stored under, in a folder or a collection.
enum ResourceName {
    /// `UID.ics` for a `UID` of letters, digits, `-`, `_`, `.` and `@` (not
    /// starting with a dot, at most 200 characters), as other clients name
    /// theirs; any other `UID` — one with `/`, `%`, `..`, a NUL, spaces, or
    /// 10,000 characters — is named by its digest, `horari-<SHA-256>.ics`, so
    /// that no `UID` can name a file outside the folder or a resource
    /// outside the collection.
    static func forUID(_ uid: String) -> String {
        let allowed = uid.utf8.allSatisfy { b in
            (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x2D || b == 0x5F || b == 0x2E || b == 0x40
        }
        if allowed, !uid.isEmpty, uid.utf8.count <= 200, uid.first != "." {
            return uid + ".ics"
        }
        return "horari-" + Digest.sha256Hex(uid.utf8) + ".ics"
    }
}
