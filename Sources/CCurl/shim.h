// libcurl (Debian's libcurl4-openssl-dev), CalendarStore's HTTP on Linux:
// swift-corelibs-foundation's URLSession keeps a socket's write source alive
// after libcurl stops asking for it, so every wait for an answer spun a core
// (Docs/CalDAV.md, "HTTP on Linux"). On Apple platforms URLSession is used
// and this module is not.
//
// Loaded when the first request is made (`horari_curl_load`), not linked:
// libcurl brings two dozen libraries (TLS, Kerberos, LDAP, SSH, IDN…), and
// loading them cost every `horari` process about 6 ms and 8 MB, a CalDAV
// client or not (Docs/CalDAV.md). Only its header is used at build time.
//
// curl_easy_setopt is variadic, which Swift cannot call: these wrappers
// give it each argument type it is used with.
#include <curl/curl.h>
#include <dlfcn.h>
#include <stddef.h>
#include <stdio.h>

typedef size_t (*horari_curl_data_callback)(char *, size_t, size_t, void *);
typedef int (*horari_curl_progress_callback)(void *, curl_off_t, curl_off_t, curl_off_t, curl_off_t);

/// The libcurl functions CalendarStore calls, found in the loaded library.
typedef struct {
    CURLcode (*global_init)(long);
    CURL *(*easy_init)(void);
    void (*easy_cleanup)(CURL *);
    void (*easy_reset)(CURL *);
    CURLcode (*easy_perform)(CURL *);
    const char *(*easy_strerror)(CURLcode);
    CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
} horari_curl;

/// The oldest libcurl the requests work with: 7.85.0, the first with
/// `CURLOPT_PROTOCOLS_STR` (and `curl_global_init` is thread-safe since 7.84).
#define HORARI_CURL_OLDEST 0x075500

/// Loads libcurl 4 (`libcurl.so.4`, else Debian's GnuTLS build of the same
/// interface, `libcurl-gnutls.so.4`; never an unversioned `libcurl.so`,
/// which may be another major version) and fills `api`: 0 when every
/// function was found in a libcurl new enough, else -1 with what went wrong
/// in `error` (for a missing library, dlerror's words about `libcurl.so.4`).
static inline int horari_curl_load(horari_curl *api, char *error, size_t capacity) {
    void *library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        // Copied at once: dlerror's text is overwritten by the next failure.
        const char *first = dlerror();
        snprintf(error, capacity, "%s", first != NULL ? first : "libcurl.so.4 could not be opened");
        library = dlopen("libcurl-gnutls.so.4", RTLD_NOW | RTLD_LOCAL);
        if (library == NULL) return -1;
    }
    curl_version_info_data *(*version_info)(CURLversion) = (curl_version_info_data *(*)(CURLversion))dlsym(library, "curl_version_info");
    const curl_version_info_data *version = version_info != NULL ? version_info(CURLVERSION_NOW) : NULL;
    if (version == NULL || version->version_num < HORARI_CURL_OLDEST) {
        snprintf(error, capacity, "the libcurl found is %s, older than 7.85.0", version != NULL && version->version != NULL ? version->version : "of an unknown version");
        dlclose(library);
        return -1;
    }
#define HORARI_CURL_FIND(field, name) \
    if ((api->field = (__typeof__(api->field))dlsym(library, name)) == NULL) { \
        snprintf(error, capacity, "libcurl has no %s", name); \
        dlclose(library); \
        return -1; \
    }
    HORARI_CURL_FIND(global_init, "curl_global_init")
    HORARI_CURL_FIND(easy_init, "curl_easy_init")
    HORARI_CURL_FIND(easy_cleanup, "curl_easy_cleanup")
    HORARI_CURL_FIND(easy_reset, "curl_easy_reset")
    HORARI_CURL_FIND(easy_perform, "curl_easy_perform")
    HORARI_CURL_FIND(easy_strerror, "curl_easy_strerror")
    HORARI_CURL_FIND(easy_setopt, "curl_easy_setopt")
    HORARI_CURL_FIND(slist_append, "curl_slist_append")
    HORARI_CURL_FIND(slist_free_all, "curl_slist_free_all")
#undef HORARI_CURL_FIND
    // The library stays loaded for the process's life: its functions are in `api`.
    return 0;
}

static inline CURLcode horari_curl_global_init(const horari_curl *api, long flags) { return api->global_init(flags); }
static inline CURL *horari_curl_easy_init(const horari_curl *api) { return api->easy_init(); }
static inline void horari_curl_easy_cleanup(const horari_curl *api, CURL *curl) { api->easy_cleanup(curl); }
static inline void horari_curl_easy_reset(const horari_curl *api, CURL *curl) { api->easy_reset(curl); }
static inline CURLcode horari_curl_easy_perform(const horari_curl *api, CURL *curl) { return api->easy_perform(curl); }
static inline const char *horari_curl_easy_strerror(const horari_curl *api, CURLcode code) { return api->easy_strerror(code); }
static inline struct curl_slist *horari_curl_slist_append(const horari_curl *api, struct curl_slist *list, const char *line) {
    return api->slist_append(list, line);
}
static inline void horari_curl_slist_free_all(const horari_curl *api, struct curl_slist *list) { api->slist_free_all(list); }

static inline CURLcode horari_curl_set_long(const horari_curl *api, CURL *curl, CURLoption option, long value) {
    return api->easy_setopt(curl, option, value);
}
static inline CURLcode horari_curl_set_offset(const horari_curl *api, CURL *curl, CURLoption option, curl_off_t value) {
    return api->easy_setopt(curl, option, value);
}
static inline CURLcode horari_curl_set_pointer(const horari_curl *api, CURL *curl, CURLoption option, const void *value) {
    return api->easy_setopt(curl, option, value);
}
static inline CURLcode horari_curl_set_data_callback(const horari_curl *api, CURL *curl, CURLoption option, horari_curl_data_callback callback) {
    return api->easy_setopt(curl, option, callback);
}
static inline CURLcode horari_curl_set_progress_callback(const horari_curl *api, CURL *curl, horari_curl_progress_callback callback) {
    return api->easy_setopt(curl, CURLOPT_XFERINFOFUNCTION, callback);
}
