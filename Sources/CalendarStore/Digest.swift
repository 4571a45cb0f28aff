#if canImport(CryptoKit)
internal import CryptoKit
#else
internal import CLibCrypto
#endif

/// SHA-256 in hexadecimal, for names that a `UID` or a server's `href`
/// cannot steer: a resource's file or name is derived from a digest, never
/// from the text as it stands.
///
/// From the platform's own well-kept library: CryptoKit on Apple platforms,
/// OpenSSL's libcrypto elsewhere (one `EVP_Digest` call), opened at the
/// first digest rather than linked (`CLibCrypto`'s shim says why).
/// swift-crypto, which issue 30 chose, compiled BoringSSL from source
/// in every build: about 100 s a build tree on this 2-core machine, in four
/// of CI's trees, and in the first build of every Linux app without
/// PostgreSQL, for file names (`Docs/Platforms.md`). The digests are the same, so caches and folders
/// written before are found; `FolderStoreTests` checks FIPS 180-4's vectors.
enum Digest {
    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// The SHA-256 of `bytes`, as 64 lowercase hexadecimal digits.
    /// - Parameter bytes: what to digest (a string's `utf8`, a file's bytes).
    static func sha256Hex(_ bytes: some Sequence<UInt8>) -> String {
        var text: [UInt8] = []
        text.reserveCapacity(64)
        for byte in sha256(Array(bytes)) {
            text.append(hexDigits[Int(byte >> 4)])
            text.append(hexDigits[Int(byte & 0x0f)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The 32 bytes of the SHA-256 of `bytes`.
    private static func sha256(_ bytes: [UInt8]) -> [UInt8] {
        #if canImport(CryptoKit)
        return Array(SHA256.hash(data: bytes))
        #else
        let library: CryptoLibrary
        switch CryptoLibrary.loaded {
        case .success(let loaded): library = loaded
        // The stores check for the library first (`requireLibrary()`),
        // so that its absence is their typed error, before anything is
        // read or written; this is for a digest taken elsewhere.
        case .failure(let error): preconditionFailure(error.message)
        }
        var digest = [UInt8](repeating: 0, count: 32)
        let done = bytes.withUnsafeBytes { input in
            digest.withUnsafeMutableBufferPointer { output in
                horari_crypto_sha256(library.api, input.baseAddress, input.count, output.baseAddress)
            }
        }
        // EVP_Digest fails only when OpenSSL cannot allocate its context: out
        // of memory, where Swift's own allocations stop the process as well.
        precondition(done == 0, "OpenSSL's EVP_Digest could not run (out of memory)")
        return digest
        #endif
    }

    /// Throws when digests cannot be taken on this machine (libcrypto is
    /// missing, on Linux): what a store that names files by digest calls
    /// before it reads or writes anything.
    /// - Throws: ``CalendarStoreError`` with code `io`, naming the library and
    ///   the package to install.
    static func requireLibrary() throws(CalendarStoreError) {
        #if !canImport(CryptoKit)
        if case .failure(let error) = CryptoLibrary.loaded { throw error }
        #endif
    }
}

#if !canImport(CryptoKit)
/// libcrypto's two functions, opened once a process at the first digest.
private struct CryptoLibrary: @unchecked Sendable {
    // @unchecked: the table is written once, before this value exists, and
    // only read after; EVP_Digest keeps its state in a context of each call.
    let api: UnsafePointer<horari_crypto>

    /// libcrypto, loaded once a process.
    static let loaded: Result<CryptoLibrary, CalendarStoreError> = {
        loadLibrary { horari_crypto_load($0, $1, $2) }.map(CryptoLibrary.init(api:)).mapError { failure in
            CalendarStoreError(.io, "libcrypto could not be loaded (\(failure.words)): a folder's and a collection's file names are SHA-256 digests, taken with OpenSSL's libcrypto on Linux",
                               suggestion: "install it (Debian and Ubuntu: the libssl3 package, libssl3t64 from Debian 13 and Ubuntu 24.04)")
        }
    }()
}
#endif

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
