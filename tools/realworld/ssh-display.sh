#!/usr/bin/env bash
# What ssh-keygen shows (and refuses) for OpenSSH keys and certificates beyond the plain listing:
#   - ssh-keygen -B (bubblebabble of the SHA-1 of the key blob) and -l for RSA, ECDSA P-256/384/521,
#     Ed25519 keys, a security key and a certificate;
#   - a certificate whose CA signature was damaged, alone and in a file between two good entries
#     (ssh-keygen -l refuses it);
#   - a certificate whose force-command critical option carries data after its string, signed
#     anew by the CA with Python's cryptography (ssh-keygen -L stops: "Option corrupt");
#   - ssh-keygen -L of a certificate with a validity interval under three TZ settings (it prints
#     local time);
#   - a public key line of a key type neither ssh-keygen 9.2 nor Coffer knows.
# facts.json holds each command's exit status and output. Run by tools/make-fixtures realworld.
set -euo pipefail
export TZ=UTC
out=Fixtures/realworld/ssh-display
rm -rf "$out"; mkdir -p "$out"
ssh-keygen -q -t rsa -b 2048 -N '' -C 'rsa key' -f "$out/rsa"
ssh-keygen -q -t ecdsa -b 256 -N '' -C 'p256 key' -f "$out/ecdsa-256"
ssh-keygen -q -t ecdsa -b 384 -N '' -C 'p384 key' -f "$out/ecdsa-384"
ssh-keygen -q -t ecdsa -b 521 -N '' -C 'p521 key' -f "$out/ecdsa-521"
ssh-keygen -q -t ed25519 -N '' -C 'ed25519 key' -f "$out/ed25519"
ssh-keygen -q -t ed25519 -N '' -C 'ca' -f "$out/ca"
cp Fixtures/realworld/sk-keys/sk-ecdsa.pub "$out/sk-ecdsa.pub"
cp "$out/ed25519.pub" "$out/user.pub"
ssh-keygen -q -s "$out/ca" -I 'display test' -n alice,bob -V 20240315123000:20340101 -z 42 -O force-command=/bin/true "$out/user.pub"
rm "$out/user.pub"

# Damaged: the last byte of the CA signature flipped. multi.pub: good, damaged, good.
python3 - "$out/user-cert.pub" "$out/damaged-cert.pub" <<'PY'
import base64, sys
kind, blob, *rest = open(sys.argv[1]).read().split(" ")
raw = bytearray(base64.b64decode(blob))
raw[-1] ^= 1
open(sys.argv[2], "w").write(" ".join([kind, base64.b64encode(raw).decode()] + rest))
PY
cat "$out/rsa.pub" "$out/damaged-cert.pub" "$out/ed25519.pub" > "$out/multi.pub"

# force-command whose data holds its string and then 3 more bytes, signed anew by the CA.
python3 - "$out/user-cert.pub" "$out/ca" "$out/corrupt-option-cert.pub" <<'PY'
import base64, struct, sys
from cryptography.hazmat.primitives.serialization import load_ssh_private_key
kind, blob, *rest = open(sys.argv[1]).read().split(" ")
raw = base64.b64decode(blob)
def s(b): return struct.pack(">I", len(b)) + b
def read(buf, at):
    (n,) = struct.unpack(">I", buf[at:at + 4]); return buf[at + 4:at + 4 + n], at + 4 + n
at = 0
for _ in range(3): _, at = read(raw, at)       # type, nonce, Ed25519 key
at += 8 + 4                                    # serial, type
for _ in range(2): _, at = read(raw, at)       # key id, principals
at += 16                                       # valid after, valid before
critical_start = at
_, at = read(raw, at)
critical_end = at
critical = s(b"force-command") + s(s(b"/bin/true") + b"\x01\x02\x03")
body = raw[:critical_start] + s(critical) + raw[critical_end:]
# drop the old signature: everything up to and including the signature key
at2 = critical_start + 4 + len(critical)
_, at2 = read(body, at2)                       # extensions
_, at2 = read(body, at2)                       # reserved
_, at2 = read(body, at2)                       # signature key
signed = body[:at2]
ca = load_ssh_private_key(open(sys.argv[2], "rb").read(), None)
signature = s(s(b"ssh-ed25519") + s(ca.sign(signed)))
open(sys.argv[3], "w").write(" ".join([kind, base64.b64encode(signed + signature).decode()] + rest))
PY

# A key type nobody here knows.
python3 - "$out/unknown-type.pub" <<'PY'
import base64, struct, sys
def s(b): return struct.pack(">I", len(b)) + b
kind = b"ssh-mldsa44@openssh.com"
open(sys.argv[1], "w").write(kind.decode() + " " + base64.b64encode(s(kind) + s(bytes(range(32)))).decode() + " future key\n")
PY

python3 - "$out" <<'PY'
import json, os, subprocess, sys
out = sys.argv[1]
def run(args, tz="UTC"):
    r = subprocess.run(["ssh-keygen"] + args, capture_output=True, text=True, cwd=out, env={**os.environ, "TZ": tz})
    return {"status": r.returncode, "stdout": r.stdout.rstrip("\n"), "stderr": r.stderr.rstrip("\n")}
facts = {"bubblebabble": [], "fingerprint": [], "listing": []}
for name in ["rsa.pub", "ecdsa-256.pub", "ecdsa-384.pub", "ecdsa-521.pub", "ed25519.pub", "sk-ecdsa.pub", "user-cert.pub",
             "damaged-cert.pub", "multi.pub", "corrupt-option-cert.pub", "unknown-type.pub"]:
    facts["bubblebabble"].append({"file": name, **run(["-B", "-f", name])})
    facts["fingerprint"].append({"file": name, **run(["-l", "-f", name])})
for name in ["user-cert.pub", "corrupt-option-cert.pub", "damaged-cert.pub"]:
    for tz in ["UTC", "America/New_York", "Asia/Kolkata"]:
        facts["listing"].append({"file": name, "tz": tz, **run(["-L", "-f", name], tz)})
json.dump(facts, open(os.path.join(out, "facts.json"), "w"), indent=2)
PY
rm -f "$out/rsa" "$out/ecdsa-256" "$out/ecdsa-384" "$out/ecdsa-521" "$out/ed25519"
echo "wrote $(ls "$out" | wc -l) files to $out"
