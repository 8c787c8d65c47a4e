#!/usr/bin/env bash
# DSA keys as users still have them: ssh-keygen's 1024-bit keys (OpenSSH private, encrypted too, the
# public line, RFC 4716, the PEM form ssh-keygen -m PEM writes), OpenSSL's containers (SPKI PEM/DER,
# PKCS#8 plain and encrypted, DSA PRIVATE KEY plain and legacy-encrypted, PKCS#12 with a
# self-signed certificate) of that key and of a 2048-bit key, and puttygen's PPK files.
# facts.json holds what ssh-keygen, openssl and puttygen print about each key.
# Run by tools/make-fixtures realworld.
set -euo pipefail
out=Fixtures/realworld/dsa
rm -rf "$out"; mkdir -p "$out"
pass=coffer-test-pass
printf '%s' "$pass" > "$out/passphrase.txt"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

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
