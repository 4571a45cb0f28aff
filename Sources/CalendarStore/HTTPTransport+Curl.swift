#if canImport(CCurl)
import CalendarCore
import CCurl
import Foundation

/// The HTTP exchanges of one ``CalDAVClient`` on Linux: libcurl's easy
/// interface, each transfer on a thread of its own that sleeps in `poll`
/// while the server thinks.
///
/// Why not URLSession here: swift-corelibs-foundation drives libcurl's multi
/// interface through Dispatch sources, and keeps a socket's write source
/// after libcurl asks for reads only; a connected socket is always writable,
/// so the source fired some 60,000 times a second for as long as an answer
/// took — a desk waiting 6 s on a silent server used 3.4 s of CPU, and
/// twelve waiting desks the whole machine (issue 42). AsyncHTTPClient waits
/// as cheaply, but would put SwiftNIO into every build of CalendarStore,
/// including an iOS app's and each of CI's sanitizer trees; libcurl is what
/// FoundationNetworking would load anyway. On Apple platforms URLSession
/// is right, and is used (HTTPTransport.swift).
///
/// libcurl is loaded on the first exchange (`CCurl`'s `horari_curl_load`),
/// not linked: its two dozen libraries cost every process ~6 ms and ~8 MB
/// at start, and most `horari` commands never speak HTTP.
///
/// Connections are kept alive: an idle easy handle keeps its connection for
/// the next request. A write goes on a connection of its own, as before: a
/// lost write's answer must be settled on the spot, not on a connection the
/// server may have closed meanwhile.
final class HTTPTransport: Sendable {
    /// The longest one exchange may take, in seconds.
    let timeout: TimeInterval
    /// The largest answer read, in bytes.
    let limit: Int
    /// `Benchmarks/caldav_bench.py`'s reference mode
    /// (`HORARI_CALDAV_SESSION_PER_REQUEST=1`): a connection of its own for
    /// every request, so that keeping them alive is measured in one run.
    private let connectionPerRequest: Bool
    /// Easy handles between transfers, each keeping its connection.
    private let idle = Locked<[CurlHandle]>([])

    /// A transport whose exchanges take at most `timeout` seconds and read at most `limit` bytes.
    init(timeout: TimeInterval, limit: Int, environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.timeout = timeout
        self.limit = limit
        connectionPerRequest = environment["HORARI_CALDAV_SESSION_PER_REQUEST"] == "1"
    }

    /// libcurl, loaded and set up (`curl_global_init`) once a process, at the first exchange.
    static let library: Result<CurlLibrary, CalendarStoreError> = {
        let api: UnsafePointer<horari_curl>
        switch loadLibrary({ horari_curl_load($0, $1, $2) }) {
        case .success(let loaded): api = loaded
        case .failure(let failure):
            return .failure(CalendarStoreError(.transport, "libcurl could not be loaded (\(failure.words)): CalDAV on Linux needs libcurl 7.85 or later",
                                               suggestion: "install it (Debian and Ubuntu: the libcurl4 package, libcurl4t64 from Debian 13 and Ubuntu 24.04)"))
        }
        guard horari_curl_global_init(api, Int(CURL_GLOBAL_ALL)) == CURLE_OK else {
            return .failure(CalendarStoreError(.transport, "libcurl could not be set up (curl_global_init failed)"))
        }
        return .success(CurlLibrary(api: api))
    }()

    /// Runs `request` to its end, at most ``timeout`` seconds.
    /// - Throws: `transport` (the connection, the timeout), `cancelled`
    ///   (the calling task was cancelled), `tooLarge`, `badResponse`.
    func exchange(_ request: HTTPRequest, what: String) async throws(CalendarStoreError) -> HTTPOutcome {
        let library: CurlLibrary
        switch Self.library {
        case .success(let loaded): library = loaded
        case .failure(var error):
            // The message already ends with the suggestion.
            error.message = "\(what): \(error.message)"
            throw error
        }
        let transfer = CurlTransfer(limit: limit)
        // A write's handle is new and goes with its connection (a pooled one would lose its warm connection).
        let fresh = request.writes || connectionPerRequest
        guard let handle = fresh ? CurlHandle(library) : take(library) else {
            throw CalendarStoreError(.transport, "\(what): libcurl could not make a transfer")
        }
        let timeout = timeout
        let code = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<CURLcode, Never>) in
                // A thread, not the cooperative pool: the transfer blocks in poll(2) till its answer.
                let thread = Thread {
                    continuation.resume(returning: handle.perform(request, transfer: transfer, fresh: fresh, timeout: timeout))
                }
                thread.name = "horari-http"
                thread.start()
            }
        } onCancel: {
            transfer.cancel()
        }
        // The outcome reads the handle's error text: before another exchange may take the handle.
        defer { if !fresh { idle.withLock { $0.append(handle) } } }
        return try Self.outcome(code, transfer.finished(), handle: handle, what: what, url: request.url, timeout: timeout, limit: limit)
    }

    /// An idle handle, or a new one.
    private func take(_ library: CurlLibrary) -> CurlHandle? {
        idle.withLock { $0.popLast() } ?? CurlHandle(library)
    }

    /// What an ended transfer comes to.
    private static func outcome(
        _ code: CURLcode, _ state: CurlTransfer.State, handle: CurlHandle, what: String, url: URL?, timeout: TimeInterval, limit: Int
    ) throws(CalendarStoreError) -> HTTPOutcome {
        let host = url?.host ?? "the server"
        let place = url?.port.map { "\(host):\($0)" } ?? host
        // Cancelled only when the cancellation ended the transfer: an answer that came first stands.
        if code == CURLE_ABORTED_BY_CALLBACK && state.cancelled {
            throw CalendarStoreError(.cancelled, "\(what): cancelled before the answer came")
        }
        if state.tooLarge {
            let declared = state.declaredLength.map { " (it declares \($0) bytes)" } ?? ""
            throw CalendarStoreError(.tooLarge, status: state.status, "\(what): the answer is larger than \(limit) bytes\(declared); not read further")
        }
        guard code == CURLE_OK else {
            let failure = CalendarStoreError(.transport, "\(what): \(said(code, host: host, place: place, timeout: timeout, handle: handle))")
            if [CURLE_GOT_NOTHING, CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_PARTIAL_FILE].contains(code) { return .lost(failure) }
            throw failure
        }
        guard let status = state.status else {
            return .lost(CalendarStoreError(.transport, "\(what): \(place) closed the connection without an HTTP answer"))
        }
        if [301, 302, 303, 307, 308].contains(status) {
            return .redirect(status, state.headers["location"])
        }
        return .reply(HTTPReply(status: status, headers: state.headers, body: state.body))
    }

    /// What a failed transfer says: the host, and what happened.
    private static func said(_ code: CURLcode, host: String, place: String, timeout: TimeInterval, handle: CurlHandle) -> String {
        switch code {
        case CURLE_OPERATION_TIMEDOUT: return "no answer from \(host) within \(seconds(timeout))"
        case CURLE_COULDNT_CONNECT: return "could not connect to \(place) (connection refused)"
        case CURLE_COULDNT_RESOLVE_HOST: return "the host name \(host) could not be resolved"
        case CURLE_GOT_NOTHING: return "\(place) closed the connection without an HTTP answer"
        case CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_PARTIAL_FILE: return "the connection to \(place) was lost"
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM:
            return "the TLS connection to \(place) failed (its certificate is not trusted by the system's roots, or the handshake failed)"
        case CURLE_WEIRD_SERVER_REPLY: return "\(place) answered something that is not HTTP"
        default:
            let detail = handle.errorText
            let text = detail.isEmpty ? String(cString: horari_curl_easy_strerror(handle.library.api, code)) : detail
            return "the request to \(place) failed: \(WebDAVXML.oneLine(text))"
        }
    }
}

/// The loaded libcurl's functions (``HTTPTransport/library``).
struct CurlLibrary: @unchecked Sendable {
    // @unchecked: the table is filled once, before any use, and never changed or freed.
    /// The functions, for `CCurl`'s wrappers.
    let api: UnsafePointer<horari_curl>
}

/// One libcurl easy handle: its one owner frees it. Used by one transfer at a
/// time (``HTTPTransport`` hands it to one thread, and takes it back after).
final class CurlHandle: @unchecked Sendable {
    // @unchecked: `curl` and `errorBuffer` are touched by one thread at a time, as said above.
    private let curl: UnsafeMutableRawPointer
    /// libcurl's words for the last failure (CURLOPT_ERRORBUFFER).

    private let errorBuffer: UnsafeMutablePointer<CChar>
    /// The library the handle is of.
    let library: CurlLibrary

    init?(_ library: CurlLibrary) {
        guard let curl = horari_curl_easy_init(library.api) else { return nil }
        self.library = library
        self.curl = curl
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
    }

    deinit {
        horari_curl_easy_cleanup(library.api, curl)
        errorBuffer.deallocate()
    }

    /// The last failure's words, if libcurl gave any.
    var errorText: String { String(cString: errorBuffer) }

    /// Runs `request` on this thread, reporting to `transfer`; at most `timeout` seconds.
    func perform(_ request: HTTPRequest, transfer: CurlTransfer, fresh: Bool, timeout: TimeInterval) -> CURLcode {
        // Cancelled before it started: nothing is sent (libcurl may send before its first progress call).
        if transfer.isCancelled { return CURLE_ABORTED_BY_CALLBACK }
        let api = library.api, method = request.method
        horari_curl_easy_reset(api, curl)
        // No pointer of this call's is left in the handle after it.
        defer { horari_curl_easy_reset(api, curl) }
        errorBuffer[0] = 0
        var headers: UnsafeMutablePointer<curl_slist>?
        // No `Expect: 100-continue`: a body goes at once, in one exchange.
        for line in request.headers.map({ "\($0.key): \($0.value)" }).sorted() + ["Expect:"] {
            headers = horari_curl_slist_append(api, headers, line)
        }
        defer { horari_curl_slist_free_all(api, headers) }
        let box = Unmanaged.passRetained(transfer)
        defer { box.release() }
        let milliseconds = Int(min(max(timeout, 0.001), 86_400) * 1000)
        var code = CURLE_OK
        func set(_ result: CURLcode) { if code == CURLE_OK { code = result } }
        set(horari_curl_set_pointer(api, curl, CURLOPT_URL, request.url.absoluteString))
        // HTTP and HTTPS only, whatever a redirect or a URL says (CalDAVClient allows no other scheme either).
        set(horari_curl_set_pointer(api, curl, CURLOPT_PROTOCOLS_STR, "http,https"))
        set(horari_curl_set_pointer(api, curl, CURLOPT_ERRORBUFFER, errorBuffer))
        set(horari_curl_set_long(api, curl, CURLOPT_NOSIGNAL, 1))
        set(horari_curl_set_long(api, curl, CURLOPT_TIMEOUT_MS, milliseconds))
        set(horari_curl_set_long(api, curl, CURLOPT_CONNECTTIMEOUT_MS, milliseconds))
        set(horari_curl_set_long(api, curl, CURLOPT_FOLLOWLOCATION, 0))
        set(horari_curl_set_pointer(api, curl, CURLOPT_HTTPHEADER, headers))
        if fresh {
            set(horari_curl_set_long(api, curl, CURLOPT_FRESH_CONNECT, 1))
            set(horari_curl_set_long(api, curl, CURLOPT_FORBID_REUSE, 1))
        }
        if method == "HEAD" {
            set(horari_curl_set_long(api, curl, CURLOPT_NOBODY, 1))
        } else if let body = request.body {
            set(horari_curl_set_offset(api, curl, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count)))
            if body.isEmpty {
                set(horari_curl_set_pointer(api, curl, CURLOPT_COPYPOSTFIELDS, ""))
            } else {
                set(body.withUnsafeBytes { horari_curl_set_pointer(api, curl, CURLOPT_COPYPOSTFIELDS, $0.baseAddress) })
            }
            set(horari_curl_set_pointer(api, curl, CURLOPT_CUSTOMREQUEST, method))
        } else if method != "GET" {
            set(horari_curl_set_pointer(api, curl, CURLOPT_CUSTOMREQUEST, method))
        }
        set(horari_curl_set_pointer(api, curl, CURLOPT_WRITEDATA, box.toOpaque()))
        set(horari_curl_set_data_callback(api, curl, CURLOPT_WRITEFUNCTION) { data, size, count, context in
            guard let data, let context else { return 0 }
            return Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue().received(UnsafeRawBufferPointer(start: data, count: size * count))
        })
        set(horari_curl_set_pointer(api, curl, CURLOPT_HEADERDATA, box.toOpaque()))
        set(horari_curl_set_data_callback(api, curl, CURLOPT_HEADERFUNCTION) { data, size, count, context in
            guard let data, let context else { return 0 }
            return Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue().header(UnsafeRawBufferPointer(start: data, count: size * count))
        })
        // Asked at least once a second, even while nothing comes: a cancelled call ends within about that.
        set(horari_curl_set_long(api, curl, CURLOPT_NOPROGRESS, 0))
        set(horari_curl_set_pointer(api, curl, CURLOPT_XFERINFODATA, box.toOpaque()))
        set(horari_curl_set_progress_callback(api, curl) { context, _, _, _, _ in
            guard let context else { return 1 }
            return Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue().isCancelled ? 1 : 0
        })
        guard code == CURLE_OK else { return code }
        return horari_curl_easy_perform(api, curl)
    }
}

/// One transfer's state, filled by libcurl's callbacks on the transfer's
/// thread and read once it has ended; cancelled from any thread.
final class CurlTransfer: Sendable {
    /// What came.
    struct State: Sendable {
        /// The last status line's code (after any 1xx).
        var status: Int?
        /// The header fields, by their names in lower case.
        var headers: [String: String] = [:]
        var body: [UInt8] = []
        var tooLarge = false
        /// The `Content-Length` an answer over the limit declared.
        var declaredLength: Int64?
        var cancelled = false
    }

    private let limit: Int
    private let state = Locked(State())

    init(limit: Int) {
        self.limit = limit
    }

    /// Whether the calling task was cancelled.
    var isCancelled: Bool { state.withLock { $0.cancelled } }

    /// Cancels the transfer: libcurl's next progress call ends it.
    func cancel() {
        state.withLock { $0.cancelled = true }
    }

    /// The state, once the transfer has ended.
    func finished() -> State {
        state.withLock { $0 }
    }

    /// A piece of the body: kept, or the transfer ended (0) past the limit.
    func received(_ bytes: UnsafeRawBufferPointer) -> Int {
        let limit = limit
        return state.withLock { state in
            guard state.body.count + bytes.count <= limit else {
                state.tooLarge = true
                state.body = []
                return 0
            }
            // Room for a declared length at once, so the array never doubles past the limit.
            if state.body.isEmpty, let length = state.headers["content-length"].flatMap(Int.init), length > 0 {
                state.body.reserveCapacity(min(length, limit))
            }
            state.body.append(contentsOf: bytes)
            return bytes.count
        }
    }

    /// One header line (or a status line, which starts the answer's fields
    /// again: after a `100 Continue` the real answer follows); 0 ends a
    /// transfer whose `Content-Length` is over the limit.
    func header(_ bytes: UnsafeRawBufferPointer) -> Int {
        // A folded line (obsolete, RFC 9112 §5.2) continues the field before it; CalDAV needs none of those.
        if let first = bytes.first, first == 0x20 || first == 0x09 { return bytes.count }
        let line = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        let limit = limit
        return state.withLock { state in
            if line.hasPrefix("HTTP/") {
                let parts = line.split(separator: " ", maxSplits: 2)
                state.status = parts.count > 1 ? Int(parts[1]) : nil
                state.headers = [:]
            } else if let colon = line.firstIndex(of: ":") {
                let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
                let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                state.headers[name] = state.headers[name].map { "\($0), \(value)" } ?? value
                if name == "content-length", let length = Int64(value), length > Int64(limit) {
                    state.tooLarge = true
                    state.declaredLength = length
                    return 0
                }
            }
            return bytes.count
        }
    }
}
#endif
