#!/usr/bin/env bash
# FIDO security keys as OpenSSH stores them (PROTOCOL.u2f): sk-ssh-ed25519@openssh.com and
# sk-ecdsa-sha2-nistp256@openssh.com public lines and openssh-key-v1 private files (the
# authenticator's public key, application, flags, key handle, reserved). No authenticator is at
# hand, so python3 writes the files from the layout with keys from `cryptography`; ssh-keygen then
# reads them (it needs no authenticator to read), encrypts copies (-p) and prints the facts:
# ssh-keygen -l of the line and of the private file, ssh-keygen -y of the private files, and the
# RFC 4716 form (-e). Run by tools/make-fixtures realworld.
set -euo pipefail
out=Fixtures/realworld/sk-keys
rm -rf "$out"; mkdir -p "$out"
pass=coffer-test-pass
printf '%s' "$pass" > "$out/passphrase.txt"
python3 - "$out" <<'PY'
import os, struct, sys
from cryptography.hazmat.primitives.asymmetric import ed25519, ec
from cryptography.hazmat.primitives import serialization
out = sys.argv[1]
def s(b): return struct.pack(">I", len(b)) + b
def u32(n): return struct.pack(">I", n)
raw = serialization.Encoding.Raw, serialization.PublicFormat.Raw
point = serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
import base64
keys = [
    ("sk-ed25519", b"sk-ssh-ed25519@openssh.com", lambda: ed25519.Ed25519PrivateKey.generate().public_key().public_bytes(*raw), b"ssh:", 0x01, "sk-ed25519@realworld"),
    ("sk-ed25519-app", b"sk-ssh-ed25519@openssh.com", lambda: ed25519.Ed25519PrivateKey.generate().public_key().public_bytes(*raw), b"ssh:coffer-test", 0x25, "resident verify-required"),
    ("sk-ecdsa", b"sk-ecdsa-sha2-nistp256@openssh.com", lambda: ec.generate_private_key(ec.SECP256R1()).public_key().public_bytes(*point), b"ssh:", 0x01, "sk-ecdsa@realworld"),
    ("sk-ecdsa-noup", b"sk-ecdsa-sha2-nistp256@openssh.com", lambda: ec.generate_private_key(ec.SECP256R1()).public_key().public_bytes(*point), b"ssh:", 0x00, ""),
]
for name, ktype, make, app, flags, comment in keys:
    pk = make()
    fields = (s(b"nistp256") + s(pk)) if b"ecdsa" in ktype else s(pk)
    blob = s(ktype) + fields + s(app)
    line = ktype.decode() + " " + base64.b64encode(blob).decode() + (" " + comment if comment else "") + "\n"
    open(f"{out}/{name}.pub", "w").write(line)
    check = os.urandom(4)
    section = check + check + s(ktype) + fields + s(app) + bytes([flags]) + s(os.urandom(64)) + s(b"") + s(comment.encode())
    pad = 1
    while len(section) % 8:
        section += bytes([pad]); pad += 1
    body = b"openssh-key-v1\0" + s(b"none") + s(b"none") + s(b"") + u32(1) + s(blob) + s(section)
    b64 = base64.b64encode(body).decode()
    text = "-----BEGIN OPENSSH PRIVATE KEY-----\n" + "".join(b64[i:i+70] + "\n" for i in range(0, len(b64), 70)) + "-----END OPENSSH PRIVATE KEY-----\n"
    with open(f"{out}/{name}", "w") as f: f.write(text)
    os.chmod(f"{out}/{name}", 0o600)
PY
facts="["
sep=""
# What the python script wrote into each private file: application and flags byte.
declare -A layout=([sk-ed25519]='"application":"ssh:","flags":1' [sk-ed25519-app]='"application":"ssh:coffer-test","flags":37'
                   [sk-ecdsa]='"application":"ssh:","flags":1' [sk-ecdsa-noup]='"application":"ssh:","flags":0')
for name in sk-ed25519 sk-ed25519-app sk-ecdsa sk-ecdsa-noup; do
    cp "$out/$name" "$out/$name-encrypted"
    ssh-keygen -q -p -P '' -N "$pass" -f "$out/$name-encrypted" >/dev/null
    ssh-keygen -e -f "$out/$name.pub" > "$out/$name.rfc4716"
    mkdir -p "$out/tmp"; cp "$out/$name-encrypted" "$out/tmp/k"
    facts+="$sep{\"name\":\"$name\",${layout[$name]}"
    facts+=",\"sshKeygenL\":\"$(ssh-keygen -l -f "$out/$name.pub")\""
    facts+=",\"sshKeygenLMD5\":\"$(ssh-keygen -l -E md5 -f "$out/$name.pub")\""
    facts+=",\"sshKeygenLPrivate\":\"$(cp "$out/$name" "$out/tmp/p"; ssh-keygen -l -f "$out/tmp/p")\""
    facts+=",\"sshKeygenLEncrypted\":\"$(ssh-keygen -l -f "$out/tmp/k")\""
    facts+=",\"sshKeygenY\":\"$(ssh-keygen -y -f "$out/tmp/p")\""
    facts+=",\"publicLine\":\"$(cat "$out/$name.pub")\"}"
    rm -rf "$out/tmp"
    sep=","
done
echo "$facts]" | python3 -m json.tool > "$out/facts.json"
echo "wrote $(ls "$out" | wc -l) files to $out"
