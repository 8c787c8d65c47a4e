#!/usr/bin/env bash
# EC keys on secp256k1 and the brainpool curves (RFC 5639), as openssl 3 and python `cryptography`
# write them: SubjectPublicKeyInfo, PKCS#8, SEC 1 (PEM and DER), legacy encrypted PEM, encrypted
# PKCS#8, PKCS#12 with a self-signed certificate, a JWK of the secp256k1 key (python, RFC 8812),
# and an ECDSA signature by openssl over message.txt. facts.json holds what openssl printed: the
# public point, the private scalar, the spkiSHA256 pin and the digest of each signature.
# Run by tools/make-fixtures realworld.
set -euo pipefail
out=Fixtures/realworld/curves
rm -rf "$out"; mkdir -p "$out"
pass=coffer-curves
printf 'Coffer signs this message on every curve.\n' > "$out/message.txt"
facts="{\"passphrase\":\"$pass\",\"message\":\"message.txt\",\"keys\":["
sep=""
for curve in secp256k1 brainpoolP256r1 brainpoolP384r1 brainpoolP512r1; do
    case $curve in
        secp256k1|brainpoolP256r1) digest=sha256 ;;
        brainpoolP384r1) digest=sha384 ;;
        brainpoolP512r1) digest=sha512 ;;
    esac
    k="$out/$curve"
    openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:$curve -pkeyopt ec_param_enc:named_curve -out "$k.pkcs8.pem"
    openssl pkcs8 -topk8 -nocrypt -in "$k.pkcs8.pem" -outform DER -out "$k.pkcs8.der"
    openssl pkey -in "$k.pkcs8.pem" -pubout -out "$k.spki.pem"
    openssl pkey -in "$k.pkcs8.pem" -pubout -outform DER -out "$k.spki.der"
    openssl ec -in "$k.pkcs8.pem" -out "$k.sec1.pem" 2>/dev/null
    openssl ec -in "$k.pkcs8.pem" -outform DER -out "$k.sec1.der" 2>/dev/null
    openssl ec -in "$k.pkcs8.pem" -aes-256-cbc -passout "pass:$pass" -out "$k.sec1-encrypted.pem" 2>/dev/null
    openssl pkcs8 -topk8 -in "$k.pkcs8.pem" -v2 aes-256-cbc -passout "pass:$pass" -out "$k.pkcs8-encrypted.pem"
    openssl req -x509 -new -key "$k.pkcs8.pem" -subj "/CN=$curve fixture" -days 3650 -$digest -out "$k.cert.pem" 2>/dev/null
    openssl pkcs12 -export -inkey "$k.pkcs8.pem" -in "$k.cert.pem" -passout "pass:$pass" -out "$k.p12"
    openssl dgst -$digest -sign "$k.pkcs8.pem" -out "$k.message.sig" "$out/message.txt"
    pin=$(openssl pkey -in "$k.pkcs8.pem" -pubout -outform DER | openssl dgst -sha256 -binary | base64)
    text=$(openssl pkey -in "$k.pkcs8.pem" -text -noout)
    priv=$(echo "$text" | awk '/^priv:/{f=1;next} /^pub:/{f=0} f' | tr -d ' :\n')
    pub=$(echo "$text" | awk '/^pub:/{f=1;next} /^ASN1 OID/{f=0} f' | tr -d ' :\n')
    bits=$(echo "$text" | sed -n 's/.*Private-Key: (\([0-9]*\) bit.*/\1/p')
    oid=$(openssl asn1parse -in "$k.spki.pem" | grep OBJECT | tail -1 | sed 's/.*:\([^ ]*\) *$/\1/')
    facts+="$sep{\"curve\":\"$curve\",\"asn1parseCurve\":\"$oid\",\"bits\":$bits,\"digest\":\"$digest\",\"privateScalar\":\"$priv\",\"publicPoint\":\"$pub\",\"spkiSHA256\":\"$pin\"}"
    sep=","
done
facts+="]}"
echo "$facts" | python3 -m json.tool > "$out/facts.json"
# The secp256k1 JWK (RFC 8812 §3.1 names the curve "secp256k1"), from python cryptography's numbers.
python3 - "$out" <<'PY'
import base64, json, sys
from cryptography.hazmat.primitives import serialization
out = sys.argv[1]
key = serialization.load_pem_private_key(open(f"{out}/secp256k1.pkcs8.pem", "rb").read(), password=None)
numbers = key.private_numbers()
b64 = lambda n: base64.urlsafe_b64encode(n.to_bytes(32, "big")).rstrip(b"=").decode()
pub = {"kty": "EC", "crv": "secp256k1", "alg": "ES256K",
       "x": b64(numbers.public_numbers.x), "y": b64(numbers.public_numbers.y)}
open(f"{out}/secp256k1.public.jwk", "w").write(json.dumps(pub) + "\n")
open(f"{out}/secp256k1.private.jwk", "w").write(json.dumps(dict(pub, d=b64(numbers.private_value))) + "\n")
PY
echo "wrote $(ls "$out" | wc -l) files to $out"
