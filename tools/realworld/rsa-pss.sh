#!/usr/bin/env bash
# RSA-PSS keys (id-RSASSA-PSS, RFC 4055) as `openssl genpkey -algorithm RSA-PSS` writes them:
# without parameters, and restricted (hash, MGF1 hash, salt length), as PKCS#8 (PEM, DER,
# encrypted) and SubjectPublicKeyInfo, each with a self-signed certificate and an openssl signature
# over message.txt. facts.json holds what openssl printed: the spkiSHA256 pin (of the key and of
# the certificate), the restriction lines of `openssl pkey -text`, and how each signature was made.
# Run by tools/make-fixtures realworld.
set -euo pipefail
out=Fixtures/realworld/rsa-pss
rm -rf "$out"; mkdir -p "$out"
pass=coffer-pss
printf 'Coffer checks RSA-PSS restrictions.\n' > "$out/message.txt"
facts="{\"passphrase\":\"$pass\",\"message\":\"message.txt\",\"keys\":["
sep=""
# name | genpkey options | dgst options for the signature | digest | mgf1 | salt
while IFS='|' read -r name keygen sign digest mgf1 salt; do
    k="$out/$name"
    # shellcheck disable=SC2086
    openssl genpkey -algorithm RSA-PSS -pkeyopt rsa_keygen_bits:2048 $keygen -out "$k.pkcs8.pem" 2>/dev/null
    openssl pkcs8 -topk8 -nocrypt -in "$k.pkcs8.pem" -outform DER -out "$k.pkcs8.der"
    openssl pkey -in "$k.pkcs8.pem" -pubout -out "$k.spki.pem"
    openssl pkey -in "$k.pkcs8.pem" -pubout -outform DER -out "$k.spki.der"
    openssl pkcs8 -topk8 -in "$k.pkcs8.pem" -v2 aes-256-cbc -passout "pass:$pass" -out "$k.pkcs8-encrypted.pem"
    openssl req -x509 -new -key "$k.pkcs8.pem" -subj "/CN=RSA-PSS $name" -days 3650 -$digest -out "$k.cert.pem" 2>/dev/null
    # shellcheck disable=SC2086
    openssl dgst -$digest $sign -sign "$k.pkcs8.pem" -out "$k.message.sig" "$out/message.txt"
    pin=$(openssl pkey -in "$k.spki.pem" -pubin -pubout -outform DER | openssl dgst -sha256 -binary | base64)
    certpin=$(openssl x509 -in "$k.cert.pem" -noout -pubkey | openssl pkey -pubin -pubout -outform DER | openssl dgst -sha256 -binary | base64)
    restriction=$(openssl pkey -in "$k.pkcs8.pem" -text -noout | awk '/No PSS parameter restrictions/{print; exit} /PSS parameter restrictions:/{f=1} f' | python3 -c 'import json,sys; print(json.dumps([l.strip() for l in sys.stdin if l.strip()]))')
    facts+="$sep{\"name\":\"$name\",\"digest\":\"$digest\",\"mgf1\":\"$mgf1\",\"saltLength\":$salt,\"spkiSHA256\":\"$pin\",\"certificateSPKISHA256\":\"$certpin\",\"opensslRestriction\":$restriction}"
    sep=","
done <<'KEYS'
unrestricted||-sigopt rsa_pss_saltlen:32|sha256|sha256|32
sha256-mgf1-sha256-salt32|-pkeyopt rsa_pss_keygen_md:sha256 -pkeyopt rsa_pss_keygen_mgf1_md:sha256 -pkeyopt rsa_pss_keygen_saltlen:32|-sigopt rsa_pss_saltlen:32|sha256|sha256|32
sha512-only|-pkeyopt rsa_pss_keygen_md:sha512|-sigopt rsa_pss_saltlen:20|sha512|sha1|20
sha384-mgf1-sha256-salt48|-pkeyopt rsa_pss_keygen_md:sha384 -pkeyopt rsa_pss_keygen_mgf1_md:sha256 -pkeyopt rsa_pss_keygen_saltlen:48|-sigopt rsa_mgf1_md:sha256 -sigopt rsa_pss_saltlen:48|sha384|sha256|48
KEYS
facts+="]}"
echo "$facts" | python3 -m json.tool > "$out/facts.json"
echo "wrote $(ls "$out" | wc -l) files to $out"
