#ifndef COFFER_COPENSSL_SHIM_H
#define COFFER_COPENSSL_SHIM_H

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/kdf.h>
#include <openssl/params.h>
#include <openssl/provider.h>
#include <openssl/rand.h>
#include <openssl/rsa.h>
#include <openssl/x509.h>
#include <openssl/pem.h>
#include <openssl/bio.h>
#include <openssl/param_build.h>
#include <openssl/decoder.h>
#include <openssl/encoder.h>
#include <openssl/ec.h>
#include <openssl/pkcs12.h>

/* Composite selection macros that Swift cannot import, as functions. */
static inline int coffer_evp_pkey_public_key_selection(void) { return EVP_PKEY_PUBLIC_KEY; }
static inline int coffer_evp_pkey_keypair_selection(void) { return EVP_PKEY_KEYPAIR; }

#endif
