#!/usr/bin/env bash
# OpenSSH certificates as ssh-keygen -s writes them: user and host certificates of RSA, ECDSA
# (P-256, P-384, P-521) and Ed25519 keys, signed by RSA (rsa-sha2-512, rsa-sha2-256, ssh-rsa),
# ECDSA and Ed25519 CAs, with key ids, principals, validity, critical options, extensions and
# serials; facts.json holds what ssh-keygen -L -f and ssh-keygen -l -f print for each, and one
# certificate whose CA signature was damaged (ssh-keygen refuses it). Run by tools/make-fixtures
# realworld. Times are UTC (ssh-keygen prints local time).
set -euo pipefail
export TZ=UTC
out=Fixtures/realworld/ssh-certificates
rm -rf "$out"; mkdir -p "$out"
ssh-keygen -q -t rsa -b 2048 -N '' -C 'rsa ca' -f "$out/ca-rsa"
ssh-keygen -q -t ecdsa -b 384 -N '' -C 'ecdsa ca' -f "$out/ca-ecdsa"
ssh-keygen -q -t ed25519 -N '' -C 'ed25519 ca' -f "$out/ca-ed25519"
ssh-keygen -q -t rsa -b 3072 -N '' -C 'rsa user' -f "$out/rsa"
ssh-keygen -q -t ecdsa -b 256 -N '' -C 'p256 user' -f "$out/ecdsa-256"
ssh-keygen -q -t ecdsa -b 384 -N '' -C 'p384 user' -f "$out/ecdsa-384"
ssh-keygen -q -t ecdsa -b 521 -N '' -C 'p521 user' -f "$out/ecdsa-521"
ssh-keygen -q -t ed25519 -N '' -C 'ed25519 user' -f "$out/ed25519"

# name key ca [ssh-keygen -s options…]: writes NAME-cert.pub from a copy of KEY.pub.
certify() {
    local name=$1 key=$2 ca=$3; shift 3
    cp "$out/$key.pub" "$out/$name.pub"
    ssh-keygen -q -s "$out/$ca" "$@" "$out/$name.pub"
    rm "$out/$name.pub"
    echo "$name $key $ca" >> "$out/list"
}
certify user-rsa rsa ca-ed25519 -I 'alice@example.com' -n alice,root -V 20240101:20350101 -z 1 -O no-pty -O force-command=/usr/bin/uptime
certify user-ecdsa-256 ecdsa-256 ca-rsa -I 'bob key' -n bob -V 20240101123000:20340101 -z 18446744073709551614 -O source-address=10.0.0.0/8,192.168.1.1 -O no-port-forwarding
certify user-ecdsa-384 ecdsa-384 ca-ecdsa -I carol -n carol,c.example -V -5m:+3650d -z 7 -O clear -O permit-pty
certify user-ecdsa-521 ecdsa-521 ca-rsa -t rsa-sha2-256 -I dave -n dave -V always:20300101 -O verify-required
certify user-ed25519 ed25519 ca-ecdsa -I erin -n erin,'*' -V 20200101:forever -O extension:custom@example.com=hello -O critical:custom-crit@example.com
certify user-ed25519-forever ed25519 ca-ed25519 -I 'no principals'
certify user-rsa-sha1 rsa ca-rsa -t ssh-rsa -I sha1 -n alice
certify host-rsa rsa ca-rsa -h -I host.example.com -n host.example.com,10.1.2.3 -z 99
certify host-ecdsa-256 ecdsa-256 ca-ed25519 -h -I h256 -n h256.example.com -V 20240101:20290101
certify host-ecdsa-384 ecdsa-384 ca-rsa -h -I h384
certify host-ecdsa-521 ecdsa-521 ca-ecdsa -h -I h521 -n '*.example.com'
certify host-ed25519 ed25519 ca-ed25519 -h -I hed -n hed.example.com -z 5

# A copy of user-ed25519-cert.pub whose last signature byte is flipped: ssh-keygen -L refuses it.
python3 - "$out/user-ed25519-cert.pub" "$out/damaged-signature-cert.pub" <<'PY'
import base64, sys
kind, blob, *rest = open(sys.argv[1]).read().split(" ")
raw = bytearray(base64.b64decode(blob))
raw[-1] ^= 1
open(sys.argv[2], "w").write(" ".join([kind, base64.b64encode(raw).decode()] + rest))
PY

python3 - "$out" <<'PY'
import json, subprocess, sys, os
out = sys.argv[1]
facts = []
for entry in open(os.path.join(out, "list")).read().split("\n"):
    if not entry: continue
    name, key, ca = entry.split(" ")
    cert = f"{name}-cert.pub"
    listing = subprocess.run(["ssh-keygen", "-L", "-f", os.path.join(out, cert)], capture_output=True, text=True, check=True).stdout
    fingerprint = subprocess.run(["ssh-keygen", "-l", "-f", os.path.join(out, cert)], capture_output=True, text=True, check=True).stdout
    facts.append({"certificate": cert, "key": key, "ca": f"{ca}.pub", "signatureValid": True,
                  "listing": listing.rstrip("\n").split("\n")[1:], "fingerprint": fingerprint.rstrip("\n")})
damaged = subprocess.run(["ssh-keygen", "-L", "-f", os.path.join(out, "damaged-signature-cert.pub")], capture_output=True, text=True)
assert damaged.returncode != 0
facts.append({"certificate": "damaged-signature-cert.pub", "key": "ed25519", "ca": "ca-ecdsa.pub", "signatureValid": False,
              "listing": [], "fingerprint": "", "sshKeygenError": damaged.stderr.strip()})
os.remove(os.path.join(out, "list"))
json.dump(facts, open(os.path.join(out, "facts.json"), "w"), indent=2)
PY
# Private keys are not needed by the tests (they read the public halves): keep only the CAs' and ed25519's.
rm -f "$out/rsa" "$out/ecdsa-256" "$out/ecdsa-384" "$out/ecdsa-521"
echo "wrote $(ls "$out" | wc -l) files to $out"
