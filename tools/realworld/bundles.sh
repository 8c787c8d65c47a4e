#!/usr/bin/env bash
# PEM bundles where one block cannot be read, as users have them: a certificate followed by an
# encrypted key (no passphrase given), a chain whose second block lacks its END line, a chain with
# one bad base64 character in its second block; and PKCS#12 files that need no password: made by
# openssl with an empty password, and pyca's no-password.p12 (MAC over the zero-length password,
# RC2-40 SafeContents), copied from the cryptography_vectors wheel.
# facts.json records what openssl says of each file. Run by tools/make-fixtures realworld.
# Usage: tools/realworld/bundles.sh [CRYPTOGRAPHY_VECTORS_WHEEL]
set -euo pipefail
out=Fixtures/realworld/bundles
rm -rf "$out"; mkdir -p "$out"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT

openssl req -x509 -newkey rsa:2048 -nodes -keyout "$work/root.key" -subj "/CN=Bundle Root CA" -days 3650 \
    -addext basicConstraints=critical,CA:TRUE -out "$work/root.crt" 2>/dev/null
openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$work/inter.key" -subj "/CN=Bundle Intermediate" \
    -out "$work/inter.csr" 2>/dev/null
openssl x509 -req -in "$work/inter.csr" -CA "$work/root.crt" -CAkey "$work/root.key" -set_serial 2 -days 3650 \
    -extfile <(echo "basicConstraints=critical,CA:TRUE") -out "$work/inter.crt" 2>/dev/null
openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$work/leaf.key" -subj "/CN=bundle.example" -out "$work/leaf.csr" 2>/dev/null
openssl x509 -req -in "$work/leaf.csr" -CA "$work/inter.crt" -CAkey "$work/inter.key" -set_serial 3 -days 365 -out "$work/leaf.crt" 2>/dev/null

# A certificate, then its key encrypted (PKCS#8, AES-256-CBC), as `cat cert.pem key.pem` makes it.
openssl pkcs8 -topk8 -v2 aes-256-cbc -in "$work/leaf.key" -passout pass:bundles -out "$work/leaf-enc.key"
cat "$work/leaf.crt" "$work/leaf-enc.key" > "$out/cert-and-encrypted-key.pem"
# A chain whose second block lost its END line.
{ cat "$work/leaf.crt"; grep -v -- '-----END' "$work/inter.crt"; cat "$work/root.crt"; } > "$out/chain-no-end.pem"
# A chain with one bad base64 character in the second block's third line.
{ cat "$work/leaf.crt"; awk 'NR == 3 { $0 = "*" substr($0, 2) } { print }' "$work/inter.crt"; cat "$work/root.crt"; } > "$out/chain-bad-base64.pem"

# PKCS#12 with an empty password: openssl's modern default (PBES2, HMAC-SHA-256 MAC), and legacy.
openssl pkcs12 -export -inkey "$work/leaf.key" -in "$work/leaf.crt" -passout pass: -out "$out/empty-password.p12"
openssl pkcs12 -export -legacy -inkey "$work/leaf.key" -in "$work/leaf.crt" -passout pass: -out "$out/empty-password-legacy.p12"
# pyca's no-password.p12.
wheel=${1:-}
if [[ -z "$wheel" ]]; then
    python3 -m pip download --quiet --no-deps --disable-pip-version-check -d "$work" "cryptography_vectors==50.0.2"
    wheel=$(ls "$work"/cryptography_vectors-*.whl)
fi
python3 - "$wheel" "$out/no-password.p12" <<'PY'
import sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z:
    open(sys.argv[2], "wb").write(z.read("cryptography_vectors/pkcs12/no-password.p12"))
PY

# --- facts.json: what openssl and python cryptography say --------------------------------------
fp() { openssl x509 -in "$1" -noout -fingerprint -sha256 | cut -d= -f2 | tr -d : | tr 'A-F' 'a-f'; }
subject() { openssl x509 -in "$1" -noout -subject -nameopt RFC2253 | sed 's/^subject=//'; }
python3 - "$out" <<PY
import json, subprocess, sys
from cryptography.hazmat.primitives.serialization import pkcs12
out = sys.argv[1]
def first_cert(path):
    # What \`openssl x509\` shows of the file: its first certificate.
    r = subprocess.run(["openssl", "x509", "-in", path, "-noout", "-fingerprint", "-sha256"], capture_output=True, text=True)
    return r.stdout.strip().split("=", 1)[1].replace(":", "").lower() if r.returncode == 0 else None
def p12(path):
    data = open(path, "rb").read()
    r = {}
    for name, password in (("none", None), ("empty", b"")):
        try:
            key, cert, extra = pkcs12.load_key_and_certificates(data, password)
            r[name] = {"key": key is not None, "certificate": cert.fingerprint(__import__("cryptography.hazmat.primitives.hashes", fromlist=["SHA256"]).SHA256()).hex() if cert else None}
        except Exception as e:
            r[name] = {"error": type(e).__name__}
    return r
facts = {
  "leaf": {"sha256": "$(fp "$work/leaf.crt")", "subject": "$(subject "$work/leaf.crt")"},
  "intermediate": {"sha256": "$(fp "$work/inter.crt")", "subject": "$(subject "$work/inter.crt")"},
  "root": {"sha256": "$(fp "$work/root.crt")", "subject": "$(subject "$work/root.crt")"},
  "opensslFirstCertificate": {f: first_cert(f"{out}/{f}") for f in ("cert-and-encrypted-key.pem", "chain-no-end.pem", "chain-bad-base64.pem")},
  "pkcs12": {f: p12(f"{out}/{f}") for f in ("empty-password.p12", "empty-password-legacy.p12", "no-password.p12")},
}
json.dump(facts, open(f"{out}/facts.json", "w"), indent=2)
PY
echo "bundles: $(ls "$out" | wc -l) files in $out"
