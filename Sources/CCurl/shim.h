// libcurl (Debian's libcurl4-openssl-dev), CalendarStore's HTTP on Linux:
// swift-corelibs-foundation's URLSession keeps a socket's write source alive
// after libcurl stops asking for it, so every wait for an answer spun a core
// (Docs/CalDAV.md, "HTTP on Linux"). On Apple platforms URLSession is used
// and this module is not.
//
// curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot
// call: these wrappers give each the one argument type it is used with.
#include <curl/curl.h>

typedef size_t (*horari_curl_data_callback)(char *, size_t, size_t, void *);
typedef int (*horari_curl_progress_callback)(void *, curl_off_t, curl_off_t, curl_off_t, curl_off_t);

static inline CURLcode horari_curl_set_long(CURL *curl, CURLoption option, long value) {
    return curl_easy_setopt(curl, option, value);
}
static inline CURLcode horari_curl_set_offset(CURL *curl, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(curl, option, value);
}
static inline CURLcode horari_curl_set_pointer(CURL *curl, CURLoption option, const void *value) {
    return curl_easy_setopt(curl, option, value);
}
static inline CURLcode horari_curl_set_data_callback(CURL *curl, CURLoption option, horari_curl_data_callback callback) {
    return curl_easy_setopt(curl, option, callback);
}
static inline CURLcode horari_curl_set_progress_callback(CURL *curl, horari_curl_progress_callback callback) {
    return curl_easy_setopt(curl, CURLOPT_XFERINFOFUNCTION, callback);
}
static inline CURLcode horari_curl_get_long(CURL *curl, CURLINFO info, long *value) {
    return curl_easy_getinfo(curl, info, value);
}
