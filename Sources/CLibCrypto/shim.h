// OpenSSL's libcrypto (Debian's libssl-dev), for SHA-256 on Linux: CalendarStore's
// Digest calls EVP_Digest once a name, nothing else. On Apple platforms CryptoKit
// gives the same digest and this module is not used.
#include <openssl/evp.h>
