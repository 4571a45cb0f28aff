import CalendarStore
import Foundation
import Testing

/// Issue 30, 1: a library default does not assume a Linux desktop; each is a
/// parameter with the platform's default (Docs/Platforms.md).
@Suite("Platform defaults")
struct PlatformDefaultsTests {
    #if !canImport(Darwin)
    @Test("the cache folder on Linux: $XDG_CACHE_HOME when absolute, else ~/.cache, under horari/caldav")
    func cacheFolder() {
        #expect(CalendarStore.defaultCacheFolder(environment: ["XDG_CACHE_HOME": "/var/cache/me", "HOME": "/home/me"]).path == "/var/cache/me/horari/caldav")
        // The XDG rule: a relative value is ignored.
        #expect(CalendarStore.defaultCacheFolder(environment: ["XDG_CACHE_HOME": "cache", "HOME": "/home/me"]).path == "/home/me/.cache/horari/caldav")
        #expect(CalendarStore.defaultCacheFolder(environment: ["HOME": "/home/me"]).path == "/home/me/.cache/horari/caldav")
    }

    @Test("a .netrc is read on Linux and macOS by default (never on iOS and its kin), and a store can be given none")
    func netrc() throws {
        #expect(CalDAVCredentials.platformNetrc == CalDAVCredentials.defaultNetrc)
        var store = CalendarStore(try CalendarLocation("https://cal.example/gym/"))
        #expect(store.netrc == CalDAVCredentials.platformNetrc)
        store.netrc = nil
        #expect(store.netrc == nil)
    }
    #endif
}
