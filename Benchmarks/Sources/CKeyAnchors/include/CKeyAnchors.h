// OpenSSL anchors for the key-container and RSA-operation benchmarks: the same work as Coffer's
// AsymmetricKeys, done directly with libcrypto in the same benchmark run.
#ifndef COFFER_KEY_ANCHORS_H
#define COFFER_KEY_ANCHORS_H

#include <stddef.h>

/// d2i_RSAPrivateKey + RSA_free on PKCS#1 DER. Returns 1 on success.
int coffer_key_anchor_d2i_pkcs1(const unsigned char *der, size_t length);
/// d2i_AutoPrivateKey + EVP_PKEY_free on PKCS#8 DER. Returns 1 on success.
int coffer_key_anchor_d2i_pkcs8(const unsigned char *der, size_t length);
/// PEM_read_bio_PrivateKey (memory BIO) + EVP_PKEY_free. Returns 1 on success.
int coffer_key_anchor_pem_read(const unsigned char *pem, size_t length);

/// An EVP_PKEY built once from PKCS#1 DER, for the raw operation loops. NULL on failure.
void *coffer_key_anchor_load(const unsigned char *der, size_t length);
void coffer_key_anchor_free(void *key);

/// Raw EVP loop: decrypts `count` consecutive k-byte OAEP-SHA256 blocks of `in` into `out`
/// (a fresh EVP_PKEY_CTX per block, as a caller would). Returns the plaintext length, -1 on failure.
long coffer_key_anchor_oaep_decrypt_blocks(void *key, const unsigned char *in, size_t count, size_t k, unsigned char *out);
/// EVP_DigestSign with SHA-256; pss = 0 for PKCS#1 v1.5, 1 for PSS (salt = digest length).
/// Returns the signature length, -1 on failure.
long coffer_key_anchor_sign(void *key, int pss, const unsigned char *msg, size_t length, unsigned char *sig, size_t capacity);
/// EVP_DigestVerify with SHA-256; returns 1 when the signature verifies.
int coffer_key_anchor_verify(void *key, int pss, const unsigned char *msg, size_t length, const unsigned char *sig, size_t sigLength);

/// d2i_AutoPrivateKey on PKCS#8 DER, kept: an EVP_PKEY of any type for the raw loops. NULL on failure.
void *coffer_key_anchor_load_any(const unsigned char *der, size_t length);
/// EVP_DigestSign without a digest (Ed25519, Ed448: pure EdDSA). Returns the signature length, -1 on failure.
long coffer_key_anchor_eddsa_sign(void *key, const unsigned char *msg, size_t length, unsigned char *sig, size_t capacity);
/// EVP_DigestVerify without a digest; returns 1 when the signature verifies.
int coffer_key_anchor_eddsa_verify(void *key, const unsigned char *msg, size_t length, const unsigned char *sig, size_t sigLength);

#endif
