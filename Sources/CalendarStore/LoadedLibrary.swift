/// Opens a C library at its first use through its shim's loader
/// (`horari_curl_load`, `horari_xml_load`, `horari_crypto_load`: each
/// `dlopen`s the library and fills a table of its functions), so that a
/// process that never needs it never loads it (Docs/Platforms.md).
///
/// - Parameter load: the shim's loader: fills the table and answers 0, or
///   writes what went wrong into the buffer it is given and answers -1.
/// - Returns: the filled table, kept for the process's life (the functions
///   in it are the library's, which stays loaded), or the loader's words.
func loadLibrary<Table>(_ load: (UnsafeMutablePointer<Table>, UnsafeMutablePointer<CChar>, Int) -> Int32) -> Result<UnsafePointer<Table>, LibraryLoadFailure> {
    let table = UnsafeMutablePointer<Table>.allocate(capacity: 1)
    let capacity = 512
    var words = [CChar](repeating: 0, count: capacity)
    guard load(table, &words, capacity) == 0 else {
        table.deallocate()
        return .failure(LibraryLoadFailure(words: String(decoding: words.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)))
    }
    return .success(UnsafePointer(table))
}

/// Why a library could not be opened, in its loader's words (dlerror's,
/// for a missing file).
struct LibraryLoadFailure: Error {
    /// The loader's words.
    var words: String
}
