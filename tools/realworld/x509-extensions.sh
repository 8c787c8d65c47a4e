#!/usr/bin/env bash
# Certificates with every common extension, each critical or not: basic constraints, key usage,
# EKU, SAN (every GeneralName form openssl writes), name constraints (permitted and excluded),
# certificate policies (CPS and user notice qualifiers), AIA, CRL distribution points, SKI, AKI
# (key id, issuer, serial), an unknown extension; made by openssl from a config, plus a few CA
# certificates from /usr/share/ca-certificates/mozilla/. facts.json holds, per certificate, each
# extension as `openssl x509 -text -noout` printed it: the name, whether it says critical, and its
# value lines. Run by tools/make-fixtures realworld.
set -euo pipefail
out=Fixtures/realworld/x509-extensions
rm -rf "$out"; mkdir -p "$out"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
cat > "$work/ext.cnf" <<'CNF'
[ req ]
distinguished_name = dn
[ dn ]
[ ca ]
basicConstraints = critical, CA:TRUE, pathlen:2
keyUsage = critical, keyCertSign, cRLSign, digitalSignature
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid:always, issuer:always
nameConstraints = critical, @constraints
certificatePolicies = 2.23.140.1.2.1, @policy
[ constraints ]
permitted;DNS.1 = example.com
permitted;DNS.2 = .example.org
permitted;IP.1 = 10.0.0.0/255.0.0.0
permitted;IP.2 = 2001:db8::/ffff:ffff::
permitted;email.1 = example.com
permitted;URI.1 = .example.com
excluded;DNS.1 = bad.example.com
excluded;dirName.1 = excluded_dn
[ excluded_dn ]
CN = Excluded Org
O = Excluded
[ policy ]
policyIdentifier = 1.3.6.1.4.1.99999.1
CPS.1 = http://cps.example.com/cps
userNotice.1 = @notice
[ notice ]
explicitText = "Coffer test policy"
organization = "Coffer Org"
noticeNumbers = 1, 2
[ leaf ]
basicConstraints = CA:FALSE
keyUsage = digitalSignature, keyEncipherment
extendedKeyUsage = critical, serverAuth, clientAuth, codeSigning, 1.3.6.1.4.1.99999.7
subjectAltName = @alt
authorityInfoAccess = OCSP;URI:http://ocsp.example.com/, caIssuers;URI:http://ca.example.com/ca.crt
crlDistributionPoints = URI:http://crl.example.com/ca.crl, URI:ldap://ldap.example.com/cn=ca
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid, issuer
1.2.3.4.5.6.7 = DER:04:05:68:65:6c:6c:6f
1.2.3.4.5.6.8 = critical, ASN1:UTF8String:critical unknown
[ alt ]
DNS.1 = www.example.com
DNS.2 = *.example.com
IP.1 = 192.0.2.1
IP.2 = 2001:db8::1
email.1 = admin@example.com
URI.1 = https://www.example.com/path
RID.1 = 1.2.3.4
dirName.1 = alt_dn
otherName.1 = 1.3.6.1.4.1.311.20.2.3;UTF8:upn@example.com
otherName.2 = 1.2.3.4;UTF8:Hello World
otherName.3 = 1.3.6.1.5.5.7.8.7;IA5STRING:_sip.example.com
otherName.4 = 1.2.3.6;INTEGER:42
[ alt_dn ]
CN = Alt Directory Name
O = Coffer
CNF
openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$work/ca.key"
openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$work/leaf.key"
openssl req -x509 -new -key "$work/ca.key" -subj "/CN=Coffer Extensions CA/O=Coffer" -days 3650 -sha256 \
    -config "$work/ext.cnf" -extensions ca -set_serial 0x1234 -out "$out/ca.pem"
openssl req -new -key "$work/leaf.key" -subj "/CN=www.example.com" -config "$work/ext.cnf" -out "$work/leaf.csr"
openssl x509 -req -in "$work/leaf.csr" -CA "$out/ca.pem" -CAkey "$work/ca.key" -set_serial 0x5678 -days 365 -sha256 \
    -extfile "$work/ext.cnf" -extensions leaf -out "$out/leaf.pem" 2>/dev/null
# A few real CA certificates (whatever this machine's Mozilla bundle holds under these names).
for name in ISRG_Root_X1 DigiCert_Global_Root_G2 GlobalSign_Root_CA Amazon_Root_CA_1 Certigna_Root_CA; do
    src=/usr/share/ca-certificates/mozilla/$name.crt
    [ -f "$src" ] && openssl x509 -in "$src" -out "$out/mozilla-$name.pem"
done
# Facts: each extension of `openssl x509 -text -noout` with its value lines.
python3 - "$out" <<'PY'
import json, os, subprocess, sys
out = sys.argv[1]
facts = []
for file in sorted(f for f in os.listdir(out) if f.endswith(".pem")):
    text = subprocess.run(["openssl", "x509", "-in", f"{out}/{file}", "-noout", "-text"], check=True,
                          capture_output=True, text=True).stdout.splitlines()
    start = next(i for i, line in enumerate(text) if line.strip() == "X509v3 extensions:")
    end = next(i for i, line in enumerate(text) if line.startswith("    Signature Algorithm"))
    extensions = []
    for line in text[start + 1:end]:
        if line.startswith(" " * 12) and not line.startswith(" " * 13):
            head = line.strip()
            critical = head.endswith(": critical")
            name = head[:-len(": critical")] if critical else head.rstrip(":").rstrip()
            extensions.append({"name": name.rstrip(":"), "critical": critical, "lines": []})
        else:
            extensions[-1]["lines"].append(line.strip())
    pin = subprocess.run(f"openssl x509 -in {out}/{file} -noout -pubkey | openssl pkey -pubin -outform DER | openssl dgst -sha256 -binary | base64",
                         shell=True, check=True, capture_output=True, text=True).stdout.strip()
    facts.append({"file": file, "spkiSHA256": pin, "extensions": extensions})
json.dump(facts, open(f"{out}/facts.json", "w"), indent=2)
PY
echo "wrote $(ls "$out" | wc -l) files to $out"
