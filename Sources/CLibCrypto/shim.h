// The parts of OpenSSL's libcrypto that idp-tui uses: digests, HMAC, PBKDF2, constant-time
// compares, secure wiping, randomness for nothing (simulations use a seeded source) and X.509.
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/kdf.h>
#include <openssl/params.h>
#include <openssl/x509.h>
#include <openssl/pem.h>
#include <openssl/bio.h>
#include <openssl/err.h>
