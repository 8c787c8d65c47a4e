#!/usr/bin/env bash
# Files of many entries where some entries are ones Coffer does not read, as users have them:
# authorized_keys with sk-/ssh-dss/certificate lines, a known_hosts file, a JWK Set with oct and
# unknown kty keys, a PEM bundle with one damaged block, PKCS#12 files (a DSA key bag beside RSA
# certificates, no MAC, no encryption at all, named CA certificates), PKCS#7 bundles from
# openssl crl2pkcs7, an OpenSSL TRUSTED CERTIFICATE, and text files with a UTF-8 BOM or CRLF.
# facts.json records what openssl, ssh-keygen and python cryptography say of each file.
# Run by tools/make-fixtures realworld.
set -euo pipefail
out=Fixtures/realworld/mixed-files
rm -rf "$out"; mkdir -p "$out"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
pass=pass:mixed-files

# --- SSH keys and authorized_keys -------------------------------------------------------------
ssh-keygen -q -t ed25519 -N '' -C 'user@ed25519' -f "$work/ed25519"
ssh-keygen -q -t rsa -b 2048 -N '' -C 'user@rsa' -f "$work/rsa"
ssh-keygen -q -t ecdsa -b 256 -N '' -C 'user@ecdsa' -f "$work/ecdsa"
ssh-keygen -q -t dsa -N '' -C 'user@dsa' -f "$work/dsa"
ssh-keygen -q -t ed25519 -N '' -C 'ca' -f "$work/ca"
ssh-keygen -q -s "$work/ca" -I cert-id -n alice "$work/ed25519.pub"
# A FIDO key needs a token to generate; its public line is written here by the layout of
# OpenSSH's PROTOCOL.u2f (string type, string key, string application) and ssh-keygen -l reads it.
python3 - "$work/sk.pub" <<'PY'
import base64, os, struct, sys
def s(b): return struct.pack(">I", len(b)) + b
blob = s(b"sk-ssh-ed25519@openssh.com") + s(os.urandom(32)) + s(b"ssh:")
open(sys.argv[1], "w").write("sk-ssh-ed25519@openssh.com " + base64.b64encode(blob).decode() + " user@sk\n")
PY
{
    echo "# keys of alice"
    echo "from=\"10.0.0.0/8\",no-pty $(cat "$work/ed25519.pub")"
    cat "$work/sk.pub"
    cat "$work/dsa.pub"
    echo ""
    cat "$work/ed25519-cert.pub"
    cat "$work/rsa.pub"
    cat "$work/ecdsa.pub"
} > "$out/authorized_keys"
ssh-keygen -l -f "$out/authorized_keys" > "$work/ak-l.txt"
# Each line on its own: what ssh-keygen -l says of it (or that it does not read it).
: > "$work/ak-lines.txt"
n=0
while IFS= read -r line; do
    n=$((n + 1))
    case "$line" in ''|'#'*) continue;; esac
    printf '%s\n' "$line" > "$work/line.pub"
    if fp=$(ssh-keygen -l -E sha256 -f "$work/line.pub" 2>/dev/null); then echo "$n	$fp" >> "$work/ak-lines.txt"; else echo "$n	-" >> "$work/ak-lines.txt"; fi
done < "$out/authorized_keys"
{
    echo "example.com $(cut -d' ' -f1,2 "$work/ed25519.pub")"
    echo "192.0.2.7 $(cut -d' ' -f1,2 "$work/rsa.pub")"
    echo "dsa.example.com $(cut -d' ' -f1,2 "$work/dsa.pub")"
} > "$out/known_hosts"
ssh-keygen -l -f "$out/known_hosts" > "$work/kh-l.txt"

# --- Certificates: a root, an intermediate, a leaf (chain.pem), a DSA leaf -------------------
openssl req -x509 -newkey rsa:2048 -nodes -keyout "$work/root.key" -subj "/CN=Mixed Root CA" -days 3650 \
    -addext basicConstraints=critical,CA:TRUE -out "$out/root.crt" 2>/dev/null
openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$work/inter.key" -subj "/CN=Mixed Intermediate" \
    -out "$work/inter.csr" 2>/dev/null
openssl x509 -req -in "$work/inter.csr" -CA "$out/root.crt" -CAkey "$work/root.key" -CAcreateserial -days 3650 \
    -extfile <(echo "basicConstraints=critical,CA:TRUE") -out "$out/inter.crt" 2>/dev/null
openssl req -newkey rsa:2048 -nodes -keyout "$out/leaf.key" -subj "/CN=leaf.example" -out "$work/leaf.csr" 2>/dev/null
openssl x509 -req -in "$work/leaf.csr" -CA "$out/inter.crt" -CAkey "$work/inter.key" -CAcreateserial -days 365 -out "$out/leaf.crt" 2>/dev/null
cat "$out/leaf.crt" "$out/inter.crt" "$out/root.crt" > "$out/chain.pem"
openssl dsaparam -out "$work/dsaparam.pem" 2048 2>/dev/null
openssl gendsa -out "$work/dsa.key" "$work/dsaparam.pem" 2>/dev/null
openssl req -new -key "$work/dsa.key" -subj "/CN=dsa.example" -out "$work/dsa.csr" 2>/dev/null
openssl x509 -req -in "$work/dsa.csr" -CA "$out/root.crt" -CAkey "$work/root.key" -CAcreateserial -days 365 -out "$work/dsa.crt" 2>/dev/null

# --- A PEM bundle with one damaged block ----------------------------------------------------
{
    cat "$out/leaf.crt"
    echo "-----BEGIN PRIVATE KEY-----"
    openssl rand -base64 48
    echo "-----END PRIVATE KEY-----"
    openssl pkey -in "$work/inter.key" -pubout
} > "$out/bundle-bad-block.pem"

# --- PKCS#12 ---------------------------------------------------------------------------------
# A DSA key bag, its DSA certificate, and the RSA root and EC intermediate as CA certificates.
openssl pkcs12 -export -inkey "$work/dsa.key" -in "$work/dsa.crt" -certfile <(cat "$out/root.crt" "$out/inter.crt") \
    -name "dsa key" -passout "$pass" -out "$out/dsa-bag.p12"
# The RSA leaf with its chain, every CA certificate named.
openssl pkcs12 -export -inkey "$out/leaf.key" -in "$out/leaf.crt" -certfile <(cat "$out/inter.crt" "$out/root.crt") \
    -name "leaf key" -caname "Intermediate" -caname "Root" -passout "$pass" -out "$out/named-cas.p12"
openssl pkcs12 -export -nomac -inkey "$out/leaf.key" -in "$out/leaf.crt" -passout "$pass" -out "$out/nomac.p12"
openssl pkcs12 -export -keypbe NONE -certpbe NONE -nomac -inkey "$out/leaf.key" -in "$out/leaf.crt" -passout pass: -out "$out/plain.p12"
echo "mixed-files" > "$out/passphrase.txt"
for f in dsa-bag named-cas nomac; do
    openssl pkcs12 -info -nokeys -in "$out/$f.p12" -passin "$pass" > "$work/$f.info" 2>&1 || true
done
openssl pkcs12 -info -nokeys -in "$out/plain.p12" -passin pass: > "$work/plain.info" 2>&1 || true

# --- PKCS#7 bundles and a TRUSTED CERTIFICATE -------------------------------------------------
openssl crl2pkcs7 -nocrl -certfile "$out/chain.pem" -out "$out/chain.p7b"
openssl crl2pkcs7 -nocrl -certfile "$out/chain.pem" -outform DER -out "$out/chain.p7b.der"
openssl pkcs7 -print_certs -in "$out/chain.p7b" -noout > "$work/p7-print.txt"
# With a CRL from the root (openssl ca -gencrl), and a signed message in BER (cms -stream).
printf '[ca]\ndefault_ca=d\n[d]\ndatabase=%s/index.txt\ncrlnumber=%s/crlnumber\ndefault_md=sha256\ndefault_crl_days=30\n' "$work" "$work" > "$work/ca.cnf"
: > "$work/index.txt"; echo 01 > "$work/crlnumber"
openssl ca -gencrl -config "$work/ca.cnf" -keyfile "$work/root.key" -cert "$out/root.crt" -out "$work/root.crl" 2>/dev/null
openssl crl2pkcs7 -in "$work/root.crl" -certfile "$out/chain.pem" -out "$out/chain-crl.p7b"
openssl pkcs7 -in "$out/chain-crl.p7b" -print_certs -noout > "$work/p7crl-print.txt"
echo "signed" > "$work/message.txt"
openssl cms -sign -in "$work/message.txt" -signer "$out/leaf.crt" -inkey "$out/leaf.key" -certfile "$out/inter.crt" \
    -outform DER -stream -out "$out/signed-ber.p7s"
openssl cms -cmsout -print -inform DER -in "$out/signed-ber.p7s" > "$work/cms-print.txt"
openssl x509 -in "$out/root.crt" -trustout -addtrust serverAuth -addtrust emailProtection -addreject clientAuth \
    -setalias "Mixed Root" -out "$out/trusted.pem"
openssl x509 -in "$out/trusted.pem" -noout -text > "$work/trusted.txt"

# --- JWK Set with keys Coffer does not read -----------------------------------------------------
python3 - "$out/jwks.json" "$work/jwks-facts.json" <<'PY'
import base64, hashlib, json, os, sys
from cryptography.hazmat.primitives.asymmetric import ec, rsa
from cryptography.hazmat.primitives import serialization
def b64(b): return base64.urlsafe_b64encode(b).rstrip(b"=").decode()
def num(n): return b64(n.to_bytes((n.bit_length() + 7) // 8, "big"))
def pin(pub): return base64.b64encode(hashlib.sha256(pub.public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)).digest()).decode()
e = ec.generate_private_key(ec.SECP256R1()).public_key(); en = e.public_numbers()
r = rsa.generate_private_key(public_exponent=65537, key_size=2048).public_key(); rn = r.public_numbers()
keys = [
    {"kty": "oct", "kid": "hmac", "k": b64(os.urandom(32)), "alg": "HS256"},
    {"kty": "EC", "kid": "ec", "crv": "P-256", "x": b64(en.x.to_bytes(32, "big")), "y": b64(en.y.to_bytes(32, "big")), "key_ops": ["verify"]},
    {"kty": "XYZ", "kid": "future", "x": "AAAA"},
    {"kty": "RSA", "kid": "rsa", "n": num(rn.n), "e": num(rn.e), "key_ops": ["verify", "encrypt"]},
]
json.dump({"keys": keys}, open(sys.argv[1], "w"), indent=2)
json.dump([{"index": i + 1, "kty": k["kty"], "kid": k["kid"], "keyOps": k.get("key_ops"),
            "spkiSHA256": pin(e) if k["kty"] == "EC" else pin(r) if k["kty"] == "RSA" else None} for i, k in enumerate(keys)],
          open(sys.argv[2], "w"))
PY

# --- Byte-order marks and CRLF ---------------------------------------------------------------------
bom() { printf '\xef\xbb\xbf'; cat "$1"; }
crlf() { sed 's/$/\r/' "$1"; }
bom "$out/leaf.crt" > "$out/bom-leaf.crt"
crlf "$out/leaf.crt" > "$out/crlf-leaf.crt"
bom "$work/rsa.pub" > "$out/bom-rsa.pub"
crlf "$out/authorized_keys" > "$out/crlf-authorized_keys"
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(json.dumps(d['keys'][1]))" "$out/jwks.json" > "$work/ec.jwk"
bom "$work/ec.jwk" > "$out/bom-ec.jwk"
ssh-keygen -e -f "$work/ecdsa.pub" > "$work/ecdsa.rfc4716"
bom "$work/ecdsa.rfc4716" > "$out/bom-ecdsa.rfc4716"
puttygen "$work/ed25519" -O private -o "$work/ed25519.ppk" --new-passphrase /dev/null 2>/dev/null
bom "$work/ed25519.ppk" > "$out/bom-ed25519.ppk"
crlf "$work/ed25519.ppk" > "$out/crlf-ed25519.ppk"
ssh-keygen -l -f "$work/rsa.pub" > "$work/rsa-l.txt"
ssh-keygen -l -f "$work/ed25519.pub" > "$work/ed25519-l.txt"
ssh-keygen -l -f "$work/ecdsa.pub" > "$work/ecdsa-l.txt"

# --- facts.json ------------------------------------------------------------------------------------
fp() { openssl x509 -in "$1" -noout -fingerprint -sha256 | cut -d= -f2 | tr -d ':' | tr 'A-F' 'a-f'; }
pinof() { openssl x509 -in "$1" -noout -pubkey | openssl pkey -pubin -outform DER | openssl dgst -sha256 -binary | base64; }
export FP_LEAF=$(fp "$out/leaf.crt") FP_INTER=$(fp "$out/inter.crt") FP_ROOT=$(fp "$out/root.crt") FP_DSA=$(fp "$work/dsa.crt")
export PIN_LEAF=$(pinof "$out/leaf.crt") PIN_INTER=$(pinof "$out/inter.crt") PIN_ROOT=$(pinof "$out/root.crt")
python3 - "$work" "$out/facts.json" <<'PY'
import json, os, re, sys
w = sys.argv[1]
def read(name): return open(os.path.join(w, name)).read()
lines = []
for row in read("ak-lines.txt").splitlines():
    n, fp = row.split("\t", 1)
    lines.append({"line": int(n), "sshKeygen": None if fp == "-" else fp})
def friendly(info): return re.findall(r"friendlyName: (.*)", info)
def subjects(text): return [s.strip() for s in re.findall(r"subject=(.*)", text)]
trusted = read("trusted.txt")
facts = {
    "authorizedKeys": {"sshKeygenL": read("ak-l.txt").splitlines(), "lines": lines},
    "knownHosts": {"sshKeygenL": read("kh-l.txt").splitlines()},
    "sshKeygenL": {"rsa": read("rsa-l.txt").strip(), "ed25519": read("ed25519-l.txt").strip(), "ecdsa": read("ecdsa-l.txt").strip()},
    "certificateSHA256": {"leaf": os.environ["FP_LEAF"], "inter": os.environ["FP_INTER"], "root": os.environ["FP_ROOT"], "dsa": os.environ["FP_DSA"]},
    "spkiSHA256": {"leaf": os.environ["PIN_LEAF"], "inter": os.environ["PIN_INTER"], "root": os.environ["PIN_ROOT"]},
    "pkcs7PrintCertsSubjects": subjects(read("p7-print.txt")),
    "pkcs7WithCRL": {"subjects": subjects(read("p7crl-print.txt")), "crls": read("p7crl-print.txt").count("Certificate Revocation List (CRL):")},
    "signedBER": {"indefiniteLength": open(os.path.join(os.path.dirname(sys.argv[2]), "signed-ber.p7s"), "rb").read()[1] == 0x80,
                  "certificates": read("cms-print.txt").count("cert_info:")},
    "pkcs12FriendlyNames": {f: friendly(read(f + ".info")) for f in ["dsa-bag", "named-cas", "nomac", "plain"]},
    "pkcs12MACInfo": {f: ("MAC:" in read(f + ".info")) for f in ["dsa-bag", "named-cas", "nomac", "plain"]},
    "trusted": {
        "text": [l.strip() for l in trusted.split("Trusted Uses:")[1].split("\n")[1:4]] if "Trusted Uses:" in trusted else [],
        "alias": (re.findall(r"Alias: (.*)", trusted) or [None])[0],
        "trustedUses": ["serverAuth", "emailProtection"], "rejectedUses": ["clientAuth"],
    },
    "jwks": json.load(open(os.path.join(w, "jwks-facts.json"))),
}
json.dump(facts, open(sys.argv[2], "w"), indent=2)
PY
echo "wrote $(ls "$out" | wc -l) files to $out"
