// OpenSSL's libcrypto, for SHA-256 on Linux: CalendarStore's Digest calls
// EVP_Digest once a name, nothing else. On Apple platforms CryptoKit gives
// the same digest and this module is not used.
//
// Opened at the first digest (`horari_crypto_load`), not linked, as libcurl
// (CCurl) and libxml2 (CLibXML2) are: linked, libcrypto cost every process
// about 1.5 ms and 1.4 MB at start (a program that prints one line, with and
// without it), and most `horari` commands (views, an .ics booking) never
// take a digest. The two functions used are declared here as OpenSSL 1.1
// and 3 export them (evp.h), so no OpenSSL header is needed to build.
#include <dlfcn.h>
#include <stddef.h>
#include <stdio.h>

/// An `EVP_MD` (a digest's description), never looked inside.
typedef struct horari_evp_md horari_evp_md;

/// The libcrypto functions CalendarStore calls, found in the loaded library.
typedef struct {
    int (*digest)(const void *data, size_t count, unsigned char *md, unsigned int *size, const horari_evp_md *type, void *engine);
    const horari_evp_md *(*sha256)(void);
} horari_crypto;

/// Loads libcrypto (`libcrypto.so.3`, else OpenSSL 1.1's `libcrypto.so.1.1`,
/// which exports the same two functions) and fills `api`: 0 when both were
/// found, else -1 with what went wrong in `error` (for a missing library,
/// dlerror's words about `libcrypto.so.3`).
static inline int horari_crypto_load(horari_crypto *api, char *error, size_t capacity) {
    void *library = dlopen("libcrypto.so.3", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        // Copied at once: dlerror's text is overwritten by the next failure.
        const char *first = dlerror();
        snprintf(error, capacity, "%s", first != NULL ? first : "libcrypto.so.3 could not be opened");
        library = dlopen("libcrypto.so.1.1", RTLD_NOW | RTLD_LOCAL);
        if (library == NULL) return -1;
    }
    api->digest = (__typeof__(api->digest))dlsym(library, "EVP_Digest");
    api->sha256 = (__typeof__(api->sha256))dlsym(library, "EVP_sha256");
    if (api->digest == NULL || api->sha256 == NULL) {
        snprintf(error, capacity, "libcrypto has no %s", api->digest == NULL ? "EVP_Digest" : "EVP_sha256");
        dlclose(library);
        return -1;
    }
    // The library stays loaded for the process's life: its functions are in `api`.
    return 0;
}

/// The SHA-256 of `count` bytes at `data` into the 32 bytes at `out`: 0, or
/// -1 when OpenSSL could not run (it fails only when it cannot allocate).
static inline int horari_crypto_sha256(const horari_crypto *api, const void *data, size_t count, unsigned char *out) {
    unsigned int length = 0;
    int done = api->digest(data, count, out, &length, api->sha256(), NULL);
    return done == 1 && length == 32 ? 0 : -1;
}
