#!/usr/bin/env bash
# DSA keys as users still have them: ssh-keygen's 1024-bit keys (OpenSSH private, encrypted too, the
# public line, RFC 4716, the PEM form ssh-keygen -m PEM writes), OpenSSL's containers (SPKI PEM/DER,
# PKCS#8 plain and encrypted, DSA PRIVATE KEY plain and legacy-encrypted, PKCS#12 with a
# self-signed certificate) of that key and of a 2048-bit key, and puttygen's PPK files.
# facts.json holds what ssh-keygen, openssl and puttygen print about each key.
# x509/: DSA signatures as openssl makes them (make_x509 below), with x509/facts.json.
# Run by tools/make-fixtures realworld; `tools/realworld/dsa.sh x509` remakes x509/ alone, from the
# keys already there.
set -euo pipefail
out=Fixtures/realworld/dsa
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# x509/: a DSA CA (dsa2048) issuing a DSA leaf (dsa1024) with dsa-with-SHA256, a leaf signed
# with dsa-with-SHA1 and one with dsa-with-SHA224, the same CA issuing an RSA leaf, certification
# requests signed with each digest, and copies with one signature bit flipped. facts.json: what
# `openssl req -verify` and `openssl verify` (-auth_level 0 for SHA-1) say of each.
make_x509() {
    local dir="$out/x509" ca="$out/dsa2048.dsa-private.pem" leafkey="$out/dsa1024.dsa-private.pem"
    rm -rf "$dir"; mkdir -p "$dir"
    local days=7300
    openssl req -new -x509 -key "$ca" -subj "/CN=DSA Test CA" -days $days -sha256 -set_serial 1 \
        -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign" \
        -addext "subjectKeyIdentifier=hash" -out "$dir/ca.pem" 2>/dev/null
    openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$tmp/rsa.pem" 2>/dev/null
    local serial=2
    for digest in sha1 sha224 sha256; do
        openssl req -new -key "$leafkey" -subj "/CN=DSA leaf $digest" -$digest -out "$dir/request-$digest.pem" 2>/dev/null
        openssl x509 -req -in "$dir/request-$digest.pem" -CA "$dir/ca.pem" -CAkey "$ca" -$digest -days $days \
            -set_serial $serial -extfile <(printf 'basicConstraints=critical,CA:FALSE\nsubjectKeyIdentifier=hash\nauthorityKeyIdentifier=keyid\n') \
            -out "$dir/leaf-$digest.pem" 2>/dev/null
        serial=$((serial + 1))
    done
    openssl req -new -key "$tmp/rsa.pem" -subj "/CN=RSA leaf of a DSA CA" -sha256 -out "$tmp/rsa.csr" 2>/dev/null
    openssl x509 -req -in "$tmp/rsa.csr" -CA "$dir/ca.pem" -CAkey "$ca" -sha256 -days $days -set_serial $serial \
        -extfile <(printf 'basicConstraints=critical,CA:FALSE\nsubjectKeyIdentifier=hash\nauthorityKeyIdentifier=keyid\n') \
        -out "$dir/leaf-rsa.pem" 2>/dev/null
    # One bit of the signature flipped: the last byte of the DER (inside the BIT STRING's s).
    python3 - "$dir" <<'PY'
import base64, sys, pathlib
d = pathlib.Path(sys.argv[1])
for source, label, target in [("leaf-sha256.pem", "CERTIFICATE", "leaf-sha256-bad-signature.pem"),
                              ("request-sha256.pem", "CERTIFICATE REQUEST", "request-sha256-bad-signature.pem")]:
    text = (d / source).read_text()
    body = "".join(line for line in text.splitlines() if not line.startswith("-----"))
    der = bytearray(base64.b64decode(body))
    der[-1] ^= 0x01
    b64 = base64.b64encode(bytes(der)).decode()
    lines = [b64[i:i + 64] for i in range(0, len(b64), 64)]
    (d / target).write_text(f"-----BEGIN {label}-----\n" + "\n".join(lines) + f"\n-----END {label}-----\n")
PY
    local facts="[" sep="" name verdict algorithm
    for name in request-sha1 request-sha224 request-sha256 request-sha256-bad-signature; do
        # openssl req -verify exits 0 either way (3.0): its sentence says.
        if openssl req -in "$dir/$name.pem" -verify -noout 2>&1 | grep -q "verify OK"; then verdict=true; else verdict=false; fi
        algorithm=$(openssl req -in "$dir/$name.pem" -noout -text | sed -n 's/^ *Signature Algorithm: //p' | head -1)
        facts+="$sep{\"file\":\"$name.pem\",\"kind\":\"request\",\"signatureAlgorithm\":\"$algorithm\",\"opensslVerifies\":$verdict}"
        sep=","
    done
    for name in leaf-sha1 leaf-sha224 leaf-sha256 leaf-rsa leaf-sha256-bad-signature; do
        if openssl verify -auth_level 0 -CAfile "$dir/ca.pem" "$dir/$name.pem" >/dev/null 2>&1; then verdict=true; else verdict=false; fi
        if openssl verify -CAfile "$dir/ca.pem" "$dir/$name.pem" >/dev/null 2>&1; then default=true; else default=false; fi
        algorithm=$(openssl x509 -in "$dir/$name.pem" -noout -text | sed -n 's/^ *Signature Algorithm: //p' | head -1)
        facts+="$sep{\"file\":\"$name.pem\",\"kind\":\"certificate\",\"signatureAlgorithm\":\"$algorithm\",\"opensslVerifies\":$verdict,\"opensslVerifiesDefault\":$default}"
        sep=","
    done
    local notbefore
    notbefore=$(openssl x509 -in "$dir/ca.pem" -noout -startdate | cut -d= -f2)
    echo "$facts]" | python3 -m json.tool > "$dir/facts.json"
    echo "wrote $(ls "$dir" | wc -l) files to $dir (CA valid from $notbefore)"
}
if [[ "${1:-}" == x509 ]]; then make_x509; exit 0; fi

rm -rf "$out"; mkdir -p "$out"
pass=coffer-test-pass
printf '%s' "$pass" > "$out/passphrase.txt"

# dsa1024: made by ssh-keygen.
ssh-keygen -q -t dsa -N '' -C 'dsa1024@realworld' -f "$out/dsa1024.openssh"
mv "$out/dsa1024.openssh.pub" "$out/dsa1024.openssh-public"
cp "$out/dsa1024.openssh" "$tmp/enc"; ssh-keygen -q -p -P '' -N "$pass" -f "$tmp/enc"; cp "$tmp/enc" "$out/dsa1024.openssh-encrypted"
ssh-keygen -e -f "$out/dsa1024.openssh-public" > "$out/dsa1024.rfc4716"
cp "$out/dsa1024.openssh" "$tmp/pem"; ssh-keygen -q -p -P '' -N '' -m PEM -f "$tmp/pem"; cp "$tmp/pem" "$out/dsa1024.dsa-private.pem"
# dsa2048: made by openssl (OpenSSH reads DSA keys of 1024 bits only).
openssl genpkey -genparam -algorithm DSA -pkeyopt dsa_paramgen_bits:2048 -out "$tmp/params.pem" 2>/dev/null
openssl genpkey -paramfile "$tmp/params.pem" -out "$tmp/dsa2048.pkcs8.pem"
openssl dsa -in "$tmp/dsa2048.pkcs8.pem" -out "$out/dsa2048.dsa-private.pem" 2>/dev/null
for name in dsa1024 dsa2048; do
    src="$out/$name.dsa-private.pem"
    openssl pkey -in "$src" -out "$out/$name.pkcs8.pem"
    openssl pkey -in "$src" -outform DER -out "$out/$name.pkcs8.der"
    openssl pkey -in "$src" -pubout -out "$out/$name.spki.pem"
    openssl pkey -in "$src" -pubout -outform DER -out "$out/$name.spki.der"
    openssl pkcs8 -topk8 -v2 aes-256-cbc -in "$src" -passout "pass:$pass" -out "$out/$name.pkcs8-encrypted.pem"
    openssl dsa -in "$src" -aes256 -passout "pass:$pass" -out "$out/$name.dsa-private-encrypted.pem" 2>/dev/null
    openssl req -new -x509 -key "$src" -subj "/CN=$name" -days 3650 -sha256 -out "$tmp/$name.crt" 2>/dev/null
    openssl pkcs12 -export -inkey "$src" -in "$tmp/$name.crt" -passout "pass:$pass" -out "$out/$name.p12"
done
puttygen "$out/dsa1024.openssh" -O private -o "$out/dsa1024.ppk" 2>/dev/null
puttygen "$out/dsa1024.openssh" -O private -o "$out/dsa1024-encrypted.ppk" --new-passphrase "$out/passphrase.txt" 2>/dev/null

facts="["
sep=""
for name in dsa1024 dsa2048; do
    bits=$(openssl pkey -in "$out/$name.spki.pem" -pubin -text -noout | sed -n 's/.*Public-Key: (\([0-9]*\) bit).*/\1/p')
    spki=$(openssl pkey -pubin -in "$out/$name.spki.pem" -outform DER | openssl dgst -sha256 -binary | base64)
    y=$(openssl pkey -in "$out/$name.dsa-private.pem" -text -noout | awk '/^pub:/{f=1;next} /^P:/{f=0} f' | tr -d ' :\n' | sed 's/^00//')
    entry="{\"name\":\"$name\",\"bits\":$bits,\"spkiSHA256\":\"$spki\",\"y\":\"$y\""
    if [ "$name" = dsa1024 ]; then
        sha=$(ssh-keygen -l -E sha256 -f "$out/dsa1024.openssh-public")
        md5=$(ssh-keygen -l -E md5 -f "$out/dsa1024.openssh-public")
        line=$(ssh-keygen -y -f "$out/dsa1024.openssh")
        fromspki=$(ssh-keygen -i -m PKCS8 -f "$out/dsa1024.spki.pem")
        ppk=$(puttygen -l "$out/dsa1024.ppk")
        ppkenc=$(puttygen -l "$out/dsa1024-encrypted.ppk")
        entry+=",\"sshKeygenL\":\"$sha\",\"sshKeygenLMD5\":\"$md5\",\"publicLine\":\"$line\",\"publicLineFromSPKI\":\"$fromspki\",\"puttygenL\":\"$ppk\",\"puttygenLEncrypted\":\"$ppkenc\""
    fi
    facts+="$sep$entry}"
    sep=","
done
echo "$facts]" | python3 -m json.tool > "$out/facts.json"
echo "wrote $(ls "$out" | wc -l) files to $out"
make_x509
