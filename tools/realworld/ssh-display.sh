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
#   - a certificate signed by a security-key CA (and a copy with its authenticator flags changed);
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

# A certificate signed by a security-key CA (sk-ecdsa-sha2-nistp256@openssh.com, application
# "ssh:"): ssh-keygen -s needs the authenticator, so the CA is a P-256 key made here and the
# signature is laid out as PROTOCOL.u2f says (ECDSA-SHA256 over SHA-256(application) || flags ||
# counter || SHA-256(signed certificate bytes)); ssh-keygen -l and -L decide whether it verifies.
# sk-ca-flags-cert.pub is a copy whose flags byte was changed after signing.
python3 - "$out/user-cert.pub" "$out/sk-ca-cert.pub" "$out/sk-ca-flags-cert.pub" "$out/sk-ca.pub" <<'PY'
import base64, hashlib, struct, sys
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
def s(b): return struct.pack(">I", len(b)) + b
def mpint(n):
    b = n.to_bytes((n.bit_length() + 8) // 8, "big")
    return s(b)
def read(buf, at):
    (n,) = struct.unpack(">I", buf[at:at + 4]); return buf[at + 4:at + 4 + n], at + 4 + n
kind, blob, *rest = open(sys.argv[1]).read().split(" ")
raw = base64.b64decode(blob)
at = 0
for _ in range(3): _, at = read(raw, at)       # type, nonce, Ed25519 key
at += 8 + 4                                    # serial, type
for _ in range(2): _, at = read(raw, at)       # key id, principals
at += 16                                       # validity
for _ in range(3): _, at = read(raw, at)       # critical options, extensions, reserved
head = raw[:at]
key = ec.generate_private_key(ec.SECP256R1())
point = key.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
application = b"ssh:"
ca_blob = s(b"sk-ecdsa-sha2-nistp256@openssh.com") + s(b"nistp256") + s(point) + s(application)
signed = head + s(ca_blob)
flags, counter = 0x01, 4242
def sign(flags_signed):
    data = hashlib.sha256(application).digest() + bytes([flags_signed]) + struct.pack(">I", counter) + hashlib.sha256(signed).digest()
    r, v = decode_dss_signature(key.sign(data, ec.ECDSA(hashes.SHA256())))
    return r, v
r, v = sign(flags)
def cert(flags_written):
    signature = s(b"sk-ecdsa-sha2-nistp256@openssh.com") + s(mpint(r) + mpint(v)) + bytes([flags_written]) + struct.pack(">I", counter)
    return " ".join([kind, base64.b64encode(signed + s(signature)).decode()] + rest)
open(sys.argv[2], "w").write(cert(flags))
open(sys.argv[3], "w").write(cert(flags | 0x04))
open(sys.argv[4], "w").write("sk-ecdsa-sha2-nistp256@openssh.com " + base64.b64encode(ca_blob).decode() + " sk ca\n")
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
             "damaged-cert.pub", "multi.pub", "corrupt-option-cert.pub", "unknown-type.pub", "sk-ca-cert.pub",
             "sk-ca-flags-cert.pub"]:
    facts["bubblebabble"].append({"file": name, **run(["-B", "-f", name])})
    facts["fingerprint"].append({"file": name, **run(["-l", "-f", name])})
for name in ["user-cert.pub", "corrupt-option-cert.pub", "damaged-cert.pub", "sk-ca-cert.pub", "sk-ca-flags-cert.pub"]:
    for tz in ["UTC", "America/New_York", "Asia/Kolkata"]:
        facts["listing"].append({"file": name, "tz": tz, **run(["-L", "-f", name], tz)})
json.dump(facts, open(os.path.join(out, "facts.json"), "w"), indent=2)
PY
rm -f "$out/rsa" "$out/ecdsa-256" "$out/ecdsa-384" "$out/ecdsa-521" "$out/ed25519" "$out/ca"
echo "wrote $(ls "$out" | wc -l) files to $out"
