import CalendarStore
import Foundation
import Testing

@Suite("Calendar locations")
struct CalendarLocationTests {
    @Test("a file, a folder and a collection are told apart as a person types them")
    func kinds() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("horari-loc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try CalendarLocation("gym.ics") == .file(URL(fileURLWithPath: "gym.ics")))
        guard case .folder(let found) = try CalendarLocation(folder.path) else { Issue.record("not a folder"); return }
        #expect(found.standardizedFileURL.path == folder.standardizedFileURL.path)
        guard case .folder = try CalendarLocation("not-yet/") else { Issue.record("a path ending in / is a folder"); return }
        #expect(try CalendarLocation("https://dav.example.com/gym") == .collection(try #require(URL(string: "https://dav.example.com/gym/"))))
        #expect(try CalendarLocation("HTTP://127.0.0.1:5232/alice/gym/").description == "HTTP://127.0.0.1:5232/alice/gym/")
        // A password given in the URL is never said (messages print the location).
        #expect(try CalendarLocation("https://alice:s3cret@dav.example.com/gym/").description == "https://dav.example.com/gym/")
        #expect(throws: CalendarStoreError.self) { try CalendarLocation("ftp://example.com/gym.ics") }
        #expect(throws: CalendarStoreError.self) { try CalendarLocation("https:///no-host") }
        // The slashes forgotten: a mistyped database URL, refused without its password, not taken for a file's name.
        #expect {
            try CalendarLocation("postgres:u:s3cret@127.0.0.1:1/db")
        } throws: { error in
            "\(error)".contains("postgres://USER@HOST:PORT/DB") && !"\(error)".contains("s3cret")
        }
    }
}
