// SHA-256's one-call functions (SHA256_Init/Update/Final) are marked deprecated in OpenSSL 3 in
// favour of EVP, but EVP looks the digest up in its provider store under a lock on every init:
// 4× the cost of a 200-byte hash, and a lock all threads share. They remain in libcrypto 3.
#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/evp.h>
#include <openssl/err.h>
#include <openssl/kdf.h>
#include <openssl/core_names.h>
#include <openssl/params.h>
#include <openssl/crypto.h>
#include <openssl/hmac.h>
#include <openssl/sha.h>

// Constants whose macros alias other macros do not always import into Swift.
static inline int ccrypto_gcm_set_tag(void) { return EVP_CTRL_AEAD_SET_TAG; }
static inline int ccrypto_gcm_get_tag(void) { return EVP_CTRL_AEAD_GET_TAG; }

// HKDF-SHA256 through EVP_KDF; building an OSSL_PARAM array is far simpler in C than from Swift.
// Returns 1 on success, 0 on failure.
static inline int ccrypto_hkdf_sha256(const unsigned char *ikm, size_t ikm_len,
                                      const unsigned char *salt, size_t salt_len,
                                      const unsigned char *info, size_t info_len,
                                      unsigned char *out, size_t out_len) {
    EVP_KDF *kdf = EVP_KDF_fetch(NULL, "HKDF", NULL);
    if (kdf == NULL) return 0;
    EVP_KDF_CTX *ctx = EVP_KDF_CTX_new(kdf);
    EVP_KDF_free(kdf);
    if (ctx == NULL) return 0;
    OSSL_PARAM params[5];
    int i = 0;
    params[i++] = OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST, (char *)"SHA256", 0);
    params[i++] = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_KEY, (void *)ikm, ikm_len);
    if (salt_len > 0) params[i++] = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_SALT, (void *)salt, salt_len);
    if (info_len > 0) params[i++] = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_INFO, (void *)info, info_len);
    params[i] = OSSL_PARAM_construct_end();
    int ok = EVP_KDF_derive(ctx, out, out_len, params) > 0;
    EVP_KDF_CTX_free(ctx);
    return ok;
}
