#!/usr/bin/env bash
# CRLs as openssl and pyca/cryptography make them, for `keytool inspect` of CRLs and revocation
# in `certificate verify`: a root, two intermediates (one revoked by the root's CRL), leaves, and
# CRLs: plain (reason, invalidity date, certificateHold), complete + delta (deltaCRLIndicator),
# reason partitions (onlySomeReasons), an IDP named relative to the issuer (nameRelativeToCRLIssuer),
# an unknown critical CRL extension (all by `openssl ca -gencrl` from configs), and an indirect CRL
# with certificateIssuer entries and a CRL with an unknown critical entry extension (pyca
# cryptography, which openssl ca cannot write). Dates are fixed (certificates 2025-01-01..2045-01-01,
# CRLs 2025-06-01..2045-01-01) and facts are judged at 2030-01-01 (@1893456000).
# facts.json: "verify": for each case the `openssl verify` arguments (-crl_check, -crl_check_all,
# -use_deltas, -extended_crl), its exit status and its last line; "crls": for each CRL what
# `openssl crl -text` says: issuer (RFC 2253), CRL number, delta base, revoked serials with their
# reasons and invalidity dates. Run by tools/make-fixtures realworld.
set -euo pipefail
out=Fixtures/realworld/crls
rm -rf "$out"; mkdir -p "$out"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
START=20250101000000Z END=20450101000000Z CRLSTART=20250601000000Z AT=1893456000
cat > "$work/ca.cnf" <<'CNF'
[ca]
default_ca = fixture
[fixture]
database = $ENV::CADIR/index.txt
new_certs_dir = $ENV::CADIR
serial = $ENV::CADIR/serial
crlnumber = $ENV::CADIR/crlnumber
default_md = sha256
policy = anything
unique_subject = no
[anything]
commonName = supplied
[req]
distinguished_name = dn
string_mask = utf8only
[dn]
[ca_ext]
basicConstraints = critical, CA:TRUE
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
[crl_signer]
basicConstraints = critical, CA:FALSE
keyUsage = critical, cRLSign
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
[leaf]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
crlDistributionPoints = URI:http://crl.example/int.crl
[leaf_plain]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
[leaf_indirect]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
crlDistributionPoints = dp_indirect
[dp_indirect]
fullname = URI:http://crl.example/indirect.crl
CRLissuer = dirName:crl_issuer_dn
[crl_issuer_dn]
CN = Coffer CRL Test Indirect Issuer
[leaf_relative]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
crlDistributionPoints = dp_relative
[dp_relative]
relativename = rel_partition1
[rel_partition1]
CN = Partition 1
[rel_partition2]
CN = Partition 2
[crl_plain]
authorityKeyIdentifier = keyid:always
[crl_base]
authorityKeyIdentifier = keyid:always
freshestCRL = URI:http://crl.example/int-delta.crl
[crl_delta]
authorityKeyIdentifier = keyid:always
2.5.29.27 = critical, ASN1:INTEGER:32
[crl_reasons_key]
authorityKeyIdentifier = keyid:always
issuingDistributionPoint = critical, @idp_reasons_key
[idp_reasons_key]
fullname = URI:http://crl.example/int.crl
onlysomereasons = keyCompromise, CACompromise
[crl_reasons_other]
authorityKeyIdentifier = keyid:always
issuingDistributionPoint = critical, @idp_reasons_other
[idp_reasons_other]
fullname = URI:http://crl.example/int.crl
onlysomereasons = affiliationChanged, superseded, cessationOfOperation, certificateHold, privilegeWithdrawn, AACompromise
[crl_partition1]
authorityKeyIdentifier = keyid:always
issuingDistributionPoint = critical, @idp_partition1
[idp_partition1]
relativename = rel_partition1
[crl_partition2]
authorityKeyIdentifier = keyid:always
issuingDistributionPoint = critical, @idp_partition2
[idp_partition2]
relativename = rel_partition2
[crl_unknown_critical]
authorityKeyIdentifier = keyid:always
1.3.6.1.4.1.55555.1 = critical, ASN1:NULL
CNF
export CADIR="$work"
key() { openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$work/$1.key" 2>/dev/null; }
cert() { # NAME SUBJECT_CN ISSUER SERIAL EXTENSION: signed by `openssl ca` for fixed dates
    key "$1"
    openssl req -new -key "$work/$1.key" -subj "/CN=$2" -config "$work/ca.cnf" -out "$work/$1.csr"
    : > "$work/index.txt"; echo "${4#0x}" > "$work/serial"
    local signer=(-cert "$out/$3.pem" -keyfile "$work/$3.key")
    [ "$3" = self ] && signer=(-selfsign -keyfile "$work/$1.key")
    openssl ca -config "$work/ca.cnf" -batch -notext -startdate $START -enddate $END -extensions "$5" \
        "${signer[@]}" -in "$work/$1.csr" -out "$out/$1.pem" 2>"$work/ca.log" || { cat "$work/ca.log"; exit 1; }
}
cert root "Coffer CRL Test Root" self 0x01 ca_ext
cert int "Coffer CRL Test Intermediate" root 0x10 ca_ext
cert int2 "Coffer CRL Test Intermediate 2" root 0x11 ca_ext
cert indirect-issuer "Coffer CRL Test Indirect Issuer" root 0x12 crl_signer
cert leaf-good "leaf good" int 0x0100 leaf
cert leaf-revoked "leaf revoked" int 0x0101 leaf
cert leaf-indirect "leaf indirect" int 0x0102 leaf_indirect
cert leaf-relative "leaf relative" int 0x0103 leaf_relative
cert leaf2 "leaf under intermediate 2" int2 0x0200 leaf_plain

crl() { # OUT ISSUER NUMBER(hex) EXTENSIONS INDEX-LINES...
    local o=$1 issuer=$2 number=$3 ext=$4; shift 4
    : > "$work/index.txt"
    for line in "$@"; do printf '%s\n' "$line" >> "$work/index.txt"; done
    echo "$number" > "$work/crlnumber"
    openssl ca -config "$work/ca.cnf" -gencrl -cert "$out/$issuer.pem" -keyfile "$work/$issuer.key" -crlexts "$ext" \
        -crl_lastupdate $CRLSTART -crl_nextupdate $END -out "$out/$o.pem" 2>"$work/ca.log" || { cat "$work/ca.log"; exit 1; }
}
# index.txt lines: R, expiry, revocation[,reason], serial, file, subject; openssl ca writes the
# reason keyTime,TIME as keyCompromise with an invalidityDate, holdInstruction,OID as
# certificateHold with a holdInstructionCode.
T=$'\t'
crl crl-root root 01 crl_plain "R${T}450101000000Z${T}250301000000Z,keyCompromise${T}11${T}unknown${T}/CN=Coffer CRL Test Intermediate 2"
crl crl-int2 int2 01 crl_plain
crl crl-int int 03 crl_plain \
    "R${T}450101000000Z${T}250301000000Z,keyTime,20250215000000Z${T}0101${T}unknown${T}/CN=leaf revoked" \
    "R${T}450101000000Z${T}250401000000Z,holdInstruction,holdInstructionReject${T}0104${T}unknown${T}/CN=held"
crl crl-int-base int 20 crl_base "R${T}450101000000Z${T}250301000000Z,keyCompromise${T}0101${T}unknown${T}/CN=leaf revoked"
crl crl-int-delta int 21 crl_delta "R${T}450101000000Z${T}250501000000Z,superseded${T}0100${T}unknown${T}/CN=leaf good"
crl crl-int-reasons-key int 04 crl_reasons_key
crl crl-int-reasons-other int 05 crl_reasons_other
crl crl-int-partition1 int 06 crl_partition1
crl crl-int-partition2 int 07 crl_partition2
crl crl-int-unknown-critical int 08 crl_unknown_critical

# What openssl ca cannot write: certificateIssuer entries (an indirect CRL) and an unknown
# critical entry extension, by pyca/cryptography.
python3 - "$out" "$work" <<'PY'
import datetime, sys
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.x509.oid import NameOID
out, work = sys.argv[1], sys.argv[2]
def load(name):
    cert = x509.load_pem_x509_certificate(open(f"{out}/{name}.pem", "rb").read())
    key = serialization.load_pem_private_key(open(f"{work}/{name}.key", "rb").read(), None)
    return cert, key
def when(text):
    return datetime.datetime.strptime(text, "%Y%m%d%H%M%S").replace(tzinfo=datetime.timezone.utc)
def build(issuer, number, entries, idp=None):
    cert, key = issuer
    builder = (x509.CertificateRevocationListBuilder().issuer_name(cert.subject)
               .last_update(when("20250601000000")).next_update(when("20450101000000"))
               .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(cert.public_key()), False)
               .add_extension(x509.CRLNumber(number), False))
    if idp is not None:
        builder = builder.add_extension(idp, True)
    for serial, extensions in entries:
        entry = x509.RevokedCertificateBuilder().serial_number(serial).revocation_date(when("20250301000000"))
        for value, critical in extensions:
            entry = entry.add_extension(value, critical)
        builder = builder.add_revoked_certificate(entry.build())
    return builder.sign(key, hashes.SHA256())
intermediate, _ = load("int")
other = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "Some Other CA")])
indirect = build(load("indirect-issuer"), 9, [
    (0x0100, [(x509.CertificateIssuer([x509.DirectoryName(other)]), True), (x509.CRLReason(x509.ReasonFlags.key_compromise), False)]),
    (0x0102, [(x509.CertificateIssuer([x509.DirectoryName(intermediate.subject)]), True), (x509.CRLReason(x509.ReasonFlags.ca_compromise), False)]),
    (0x0777, []),
], idp=x509.IssuingDistributionPoint(full_name=[x509.UniformResourceIdentifier("http://crl.example/indirect.crl")],
                                     relative_name=None, only_contains_user_certs=False, only_contains_ca_certs=False,
                                     only_some_reasons=None, indirect_crl=True, only_contains_attribute_certs=False))
open(f"{out}/crl-indirect.pem", "wb").write(indirect.public_bytes(serialization.Encoding.PEM))
unknown = build(load("int"), 10, [
    (0x0999, [(x509.UnrecognizedExtension(x509.ObjectIdentifier("1.3.6.1.4.1.55555.2"), b"\x05\x00"), True)]),
])
open(f"{out}/crl-int-unknown-entry-extension.pem", "wb").write(unknown.public_bytes(serialization.Encoding.PEM))
PY
for c in "$out"/crl-*.pem; do openssl crl -in "$c" -outform DER -out "${c%.pem}.der"; done
cat "$out/int.pem" "$out/crl-int.pem" "$out/crl-root.pem" > "$out/bundle-mixed.pem"
printf 'not a CRL at all\n' > "$out/garbage.crl"

# openssl verify: NAME LEAF "UNTRUSTED…" "CRLS…" FLAGS…
facts_verify="$work/verify.tsv"; : > "$facts_verify"
verify() {
    local name=$1 leaf=$2 untrusted=$3 crls=$4; shift 4
    : > "$work/untrusted.pem"; for u in $untrusted; do cat "$out/$u.pem" >> "$work/untrusted.pem"; done
    : > "$work/crls.pem"; for c in $crls; do cat "$out/$c.pem" >> "$work/crls.pem"; done
    local status=0
    openssl verify -attime $AT -CAfile "$out/root.pem" -untrusted "$work/untrusted.pem" -CRLfile "$work/crls.pem" "$@" \
        "$out/$leaf.pem" > "$work/verify.out" 2>&1 || status=$?
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$leaf" "$untrusted" "$crls" "$*" "$status" \
        "$(grep -m1 -E '^error|OK$' "$work/verify.out" | sed 's/^.*: //' | tr '\t' ' ')" >> "$facts_verify"
}
verify leaf-crl-check leaf-good int crl-int -crl_check
verify leaf-crl-check-all-missing leaf-good int crl-int -crl_check_all
verify good-crl-check-all leaf-good int "crl-int crl-root" -crl_check_all
verify revoked leaf-revoked int "crl-int crl-root" -crl_check
verify intermediate-revoked-all leaf2 int2 "crl-int2 crl-root" -crl_check_all
verify intermediate-revoked-leaf-only leaf2 int2 "crl-int2 crl-root" -crl_check
verify delta-not-used leaf-good int "crl-int-base crl-int-delta crl-root" -crl_check_all
verify delta-used leaf-good int "crl-int-base crl-int-delta crl-root" -crl_check_all -use_deltas -extended_crl
verify indirect leaf-indirect "int indirect-issuer" "crl-indirect crl-root" -crl_check -extended_crl
verify indirect-not-extended leaf-indirect "int indirect-issuer" "crl-indirect crl-root" -crl_check
verify reasons-one-partition leaf-good int "crl-int-reasons-key crl-root" -crl_check_all -extended_crl
verify reasons-both-partitions leaf-good int "crl-int-reasons-key crl-int-reasons-other crl-root" -crl_check_all -extended_crl
verify relative-match leaf-relative int "crl-int-partition1 crl-root" -crl_check_all -extended_crl
verify relative-other leaf-relative int "crl-int-partition2 crl-root" -crl_check_all -extended_crl
verify unknown-critical leaf-good int "crl-int-unknown-critical crl-root" -crl_check
verify unknown-critical-entry leaf-good int "crl-int-unknown-entry-extension crl-root" -crl_check

python3 - "$out" "$facts_verify" <<'PY'
import datetime, json, os, re, subprocess, sys
out, verify_tsv = sys.argv[1], sys.argv[2]
facts = {"at": 1893456000, "verify": {}, "crls": {}}
for line in open(verify_tsv):
    name, leaf, untrusted, crls, flags, status, said = line.rstrip("\n").split("\t")
    facts["verify"][name] = {"leaf": leaf, "untrusted": untrusted.split(), "crls": crls.split(),
                             "flags": flags.split(), "status": int(status), "said": said}
for file in sorted(f for f in os.listdir(out) if f.startswith("crl-") and f.endswith(".pem")):
    run = lambda *args: subprocess.run(["openssl", "crl", "-in", f"{out}/{file}", "-noout", *args],
                                       check=True, capture_output=True, text=True).stdout
    issuer = run("-issuer", "-nameopt", "RFC2253").strip().removeprefix("issuer=")
    text = run("-text")
    number = re.search(r"X509v3 CRL Number: *\n *(\S+)", text)
    base = re.search(r"X509v3 Delta CRL Indicator: *(?:critical)?\n *(\S+)", text)
    entries = []
    for block in text.split("Serial Number: ")[1:]:
        serial = block.split("\n", 1)[0].strip()
        reason = re.search(r"X509v3 CRL Reason Code:\s*\n\s*(.+)", block)
        invalid = re.search(r"Invalidity Date:\s*\n\s*(.+)", block)
        invalid = invalid and datetime.datetime.strptime(invalid.group(1).strip(), "%b %d %H:%M:%S %Y GMT").strftime("%Y-%m-%dT%H:%M:%SZ")
        entries.append({"serial": serial.lower(), "reason": reason.group(1).strip() if reason else None,
                        "invalidityDate": invalid or None})
    facts["crls"][file[:-4]] = {"issuer": issuer, "crlNumber": number.group(1) if number else None,
                                "baseCRLNumber": base.group(1) if base else None, "revoked": entries,
                                "lastUpdate": run("-lastupdate").strip().split("=", 1)[1],
                                "nextUpdate": run("-nextupdate").strip().split("=", 1)[1]}
json.dump(facts, open(f"{out}/facts.json", "w"), indent=2, sort_keys=True)
PY
echo "wrote $(ls "$out" | wc -l) files to $out"
