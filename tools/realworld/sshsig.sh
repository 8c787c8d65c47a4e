#!/usr/bin/env bash
# SSHSIG signatures as ssh-keygen -Y sign writes them, for every key type SSH signs with (RSA,
# ECDSA P-256/P-384/P-521, Ed25519; sha512 and, once, sha256), one made with a user certificate
# (through ssh-agent, as ssh-keygen signs with a certificate), and allowed_signers files using
# every feature (patterns with * ? and !, quoting, namespaces=, valid-after=/valid-before=,
# cert-authority, comments). facts.json holds ssh-keygen -Y verify's exit status and output for
# each (signature, allowed signers file, identity, namespace) case, and -Y check-novalidate's for
# each signature, and -Y find-principals' for six. Run by tools/make-fixtures realworld.
set -euo pipefail
export TZ=UTC
out=Fixtures/realworld/sshsig
rm -rf "$out"; mkdir -p "$out"
printf 'The signed file.\nSecond line, no trailing newline' > "$out/data.txt"
printf 'The signed file.\nSecond line, no trailing newline!' > "$out/tampered.txt"
ssh-keygen -q -t rsa -b 2048 -N '' -C 'rsa signer' -f "$out/rsa"
ssh-keygen -q -t ecdsa -b 256 -N '' -C 'p256 signer' -f "$out/ecdsa-256"
ssh-keygen -q -t ecdsa -b 384 -N '' -C 'p384 signer' -f "$out/ecdsa-384"
ssh-keygen -q -t ecdsa -b 521 -N '' -C 'p521 signer' -f "$out/ecdsa-521"
ssh-keygen -q -t ed25519 -N '' -C 'ed25519 signer' -f "$out/ed25519"
ssh-keygen -q -t ed25519 -N '' -C 'ca' -f "$out/ca"
ssh-keygen -q -t ed25519 -N '' -C 'cert user' -f "$out/certuser"
ssh-keygen -q -s "$out/ca" -I certuser -n alice,ci-bot -V 20200101:20990101 "$out/certuser.pub"

for key in rsa ecdsa-256 ecdsa-384 ecdsa-521 ed25519; do
    cp "$out/data.txt" "$out/$key.data"
    ssh-keygen -q -Y sign -f "$out/$key" -n file "$out/$key.data"
    mv "$out/$key.data.sig" "$out/$key.sig"
    rm "$out/$key.data"
done
cp "$out/data.txt" "$out/sha256.data"
ssh-keygen -q -Y sign -f "$out/ed25519" -n git -O hashalg=sha256 "$out/sha256.data"
mv "$out/sha256.data.sig" "$out/ed25519-sha256-git.sig"; rm "$out/sha256.data"
# With the certificate: ssh-keygen signs with it when the agent holds key and certificate.
eval "$(ssh-agent -s)" > /dev/null
trap 'kill "$SSH_AGENT_PID"' EXIT
ssh-add -q "$out/certuser" 2>/dev/null
cp "$out/data.txt" "$out/cert.data"
ssh-keygen -q -Y sign -f "$out/certuser-cert.pub" -n file "$out/cert.data"
mv "$out/cert.data.sig" "$out/certuser.sig"; rm "$out/cert.data"

line() { echo "$1 $(cut -d' ' -f1,2 "$out/$2.pub") $3"; }
{
    echo "# allowed signers for the tests"
    echo
    line 'alice@example.com,!mallory*' ed25519 'ed25519 signer'
    line '"bob@example.com,b?b@example.org" namespaces="file,git"' ecdsa-256 ''
    line '*@ops.example.com valid-after="20200101",valid-before="20990101Z"' rsa ''
    line 'carol valid-after="20980101"' ecdsa-384 'not yet valid'
    line 'dave VALID-BEFORE="202001011200"' ecdsa-521 'expired'
    line 'erin namespaces="email"' ecdsa-521 'other namespace'
    line 'alice,ci-*,!ci-evil cert-authority' ca 'the CA'
    line 'frank@example.com' ed25519 'ed25519 signer again'
} > "$out/allowed_signers"

python3 - "$out" <<'PY'
import json, subprocess, sys, os
out = sys.argv[1]
def run(args, data):
    with open(os.path.join(out, data), "rb") as f:
        r = subprocess.run(["ssh-keygen", "-Y"] + args, stdin=f, capture_output=True, text=True, cwd=out)
    return r.returncode, r.stdout.strip(), r.stderr.strip()
cases = []
def verify(sig, identity, namespace, data="data.txt"):
    status, stdout, stderr = run(["verify", "-f", "allowed_signers", "-I", identity, "-n", namespace, "-s", sig], data)
    cases.append({"signature": sig, "identity": identity, "namespace": namespace, "data": data,
                  "status": status, "stdout": stdout, "stderr": stderr})
verify("ed25519.sig", "alice@example.com", "file")
verify("ed25519.sig", "frank@example.com", "file")
verify("ed25519.sig", "mallory@example.com", "file")
verify("ed25519.sig", "alice@example.com", "git")
verify("ed25519.sig", "alice@example.com", "file", "tampered.txt")
verify("ed25519.sig", "nobody@example.com", "file")
verify("ecdsa-256.sig", "bob@example.com", "file")
verify("ecdsa-256.sig", "bxb@example.org", "file")
verify("ecdsa-256.sig", "bob@example.com", "email")
verify("rsa.sig", "root@ops.example.com", "file")
verify("rsa.sig", "root@dev.example.com", "file")
verify("ecdsa-384.sig", "carol", "file")
verify("ecdsa-521.sig", "dave", "file")
verify("ecdsa-521.sig", "erin", "file")
verify("ed25519-sha256-git.sig", "alice@example.com", "git")
verify("ed25519-sha256-git.sig", "alice@example.com", "file")
verify("certuser.sig", "alice", "file")
verify("certuser.sig", "ci-bot", "file")
verify("certuser.sig", "ci-evil", "file")
verify("certuser.sig", "mallory", "file")
verify("rsa.sig", "alice@example.com", "file")
novalidate = []
for sig, namespace in [("rsa.sig", "file"), ("ecdsa-256.sig", "file"), ("ecdsa-384.sig", "file"), ("ecdsa-521.sig", "file"),
                       ("ed25519.sig", "file"), ("ed25519-sha256-git.sig", "git"), ("certuser.sig", "file"), ("ed25519.sig", "git")]:
    status, stdout, stderr = run(["check-novalidate", "-n", namespace, "-s", sig], "data.txt")
    novalidate.append({"signature": sig, "namespace": namespace, "status": status, "stdout": stdout})
findPrincipals = []
for sig in ["rsa.sig", "ecdsa-256.sig", "ecdsa-384.sig", "ecdsa-521.sig", "ed25519.sig", "certuser.sig"]:
    status, stdout, stderr = run(["find-principals", "-f", "allowed_signers", "-s", sig], "data.txt")
    findPrincipals.append({"signature": sig, "status": status, "principals": stdout.split("\n") if status == 0 else []})
json.dump({"verify": cases, "checkNovalidate": novalidate, "findPrincipals": findPrincipals}, open(os.path.join(out, "facts.json"), "w"), indent=2)
PY
# The tests sign only with ed25519 (deterministic, so comparable byte for byte); drop the others' private halves.
rm -f "$out/rsa" "$out/ecdsa-256" "$out/ecdsa-384" "$out/ecdsa-521" "$out/ca" "$out/certuser"
echo "wrote $(ls "$out" | wc -l) files to $out"
