#!/usr/bin/env bash
# Certificates with explicit DEFAULTs that DER forbids and OpenSSL accepts: `cA FALSE` in
# BasicConstraints, `critical FALSE` in an Extension, version v1 written out as [0] INTEGER 0, and
# all of them at once; and BOOLEAN TRUE written 0x01 (BER) instead of 0xFF, in `critical` and `cA`;
# and a PKCS#10 request with critical FALSE and cA FALSE (request-facts.json). python3 builds each TBSCertificate by hand (no library writes these) and
# openssl signs it (ECDSA P-256, SHA-256); facts.json holds what `openssl x509` printed about each.
# Run by tools/make-fixtures realworld.
set -euo pipefail
out=Fixtures/realworld/lenient-x509
rm -rf "$out"; mkdir -p "$out"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$work/key.pem"
openssl pkey -in "$work/key.pem" -pubout -outform DER -out "$work/spki.der"
python3 - "$work" <<'PY'
import sys
work = sys.argv[1]
def tlv(tag, content):
    n = len(content)
    if n < 0x80: length = bytes([n])
    else:
        b = n.to_bytes((n.bit_length() + 7) // 8, "big"); length = bytes([0x80 | len(b)]) + b
    return bytes([tag]) + length + content
seq = lambda *parts: tlv(0x30, b"".join(parts))
def oid(dotted):
    arcs = [int(a) for a in dotted.split(".")]
    body = bytes([40 * arcs[0] + arcs[1]])
    for arc in arcs[2:]:
        chunk = [arc & 0x7f]; arc >>= 7
        while arc: chunk.insert(0, 0x80 | (arc & 0x7f)); arc >>= 7
        body += bytes(chunk)
    return tlv(0x06, body)
integer = lambda v: tlv(0x02, v.to_bytes(max(1, (v.bit_length() + 8) // 8), "big"))
boolean = lambda v: tlv(0x01, b"\xff" if v else b"\x00")
octets = lambda b: tlv(0x04, b)
name = lambda cn: seq(tlv(0x31, seq(oid("2.5.4.3"), tlv(0x0c, cn.encode()))))
spki = open(f"{work}/spki.der", "rb").read()
ecdsa_sha256 = seq(oid("1.2.840.10045.4.3.2"))
validity = seq(tlv(0x17, b"250101000000Z"), tlv(0x17, b"350101000000Z"))
def ext(ident, value, critical=None):
    return seq(oid(ident), *( [boolean(critical)] if critical is not None else [] ), octets(value))
bc_ca_false = ext("2.5.29.19", seq(boolean(False)), critical=True)
ku_critical_false = ext("2.5.29.15", tlv(0x03, b"\x07\x80"), critical=False)   # digitalSignature
ski = ext("2.5.29.14", octets(bytes(range(20))))
bc_ber_true = seq(oid("2.5.29.19"), tlv(0x01, b"\x01"), octets(seq(tlv(0x01, b"\x01"))))  # TRUE as 0x01 (BER)
variants = {
    "boolean-ber-true": (2, [bc_ber_true, ski]),
    "ca-false": (2, [bc_ca_false, ski]),
    "critical-false": (2, [ku_critical_false, ski]),
    "version-v1-explicit": (0, None),
    "all-defaults": (2, [bc_ca_false, ku_critical_false, ski]),
}
for serial, (label, (version, extensions)) in enumerate(variants.items(), start=1001):
    parts = [tlv(0xa0, integer(version)), integer(serial), ecdsa_sha256, name("lenient issuer"), validity,
             name(f"lenient {label}"), spki]
    if extensions: parts.append(tlv(0xa3, seq(*extensions)))
    open(f"{work}/{label}.tbs", "wb").write(seq(*parts))
PY
facts="["; sep=""
for tbs in "$work"/*.tbs; do
    label=$(basename "$tbs" .tbs)
    openssl dgst -sha256 -sign "$work/key.pem" -out "$work/$label.sig" "$tbs"
    python3 - "$tbs" "$work/$label.sig" "$out/$label.der" <<'PY'
import sys
tbs, sig = open(sys.argv[1], "rb").read(), open(sys.argv[2], "rb").read()
def tlv(tag, content):
    n = len(content)
    length = bytes([n]) if n < 0x80 else (lambda b: bytes([0x80 | len(b)]) + b)(n.to_bytes((n.bit_length() + 7) // 8, "big"))
    return bytes([tag]) + length + content
alg = tlv(0x30, bytes.fromhex("06082a8648ce3d040302"))
open(sys.argv[3], "wb").write(tlv(0x30, tbs + alg + tlv(0x03, b"\x00" + sig)))
PY
    openssl x509 -inform DER -in "$out/$label.der" -out "$out/$label.pem"
    text=$(openssl x509 -in "$out/$label.pem" -noout -text)
    version=$(echo "$text" | sed -n 's/^ *Version: \([0-9]*\).*/\1/p')
    serial=$(openssl x509 -in "$out/$label.pem" -noout -serial | cut -d= -f2)
    pin=$(openssl x509 -in "$out/$label.pem" -noout -pubkey | openssl pkey -pubin -outform DER | openssl dgst -sha256 -binary | base64)
    ca=$(echo "$text" | grep -q "CA:FALSE" && echo true || echo false)
    catrue=$(echo "$text" | grep -q "CA:TRUE" && echo true || echo false)
    bccritical=$(echo "$text" | grep -q "X509v3 Basic Constraints: critical" && echo true || echo false)
    kucritical=$(echo "$text" | grep -q "X509v3 Key Usage: critical" && echo true || echo false)
    ku=$(echo "$text" | grep -q "X509v3 Key Usage" && echo true || echo false)
    facts+="$sep{\"name\":\"$label\",\"version\":$version,\"serial\":\"$serial\",\"spkiSHA256\":\"$pin\",\"showsCAFalse\":$ca,\"showsCATrue\":$catrue,\"basicConstraintsCritical\":$bccritical,\"hasKeyUsage\":$ku,\"keyUsageCritical\":$kucritical}"
    sep=","
done
# A PKCS#10 request whose requested basic constraints write critical FALSE and cA FALSE.
python3 - "$work" <<'PY'
import sys
work = sys.argv[1]
def tlv(tag, content):
    n = len(content)
    length = bytes([n]) if n < 0x80 else (lambda b: bytes([0x80 | len(b)]) + b)(n.to_bytes((n.bit_length() + 7) // 8, "big"))
    return bytes([tag]) + length + content
seq = lambda *parts: tlv(0x30, b"".join(parts))
def oid(dotted):
    arcs = [int(a) for a in dotted.split(".")]
    body = bytes([40 * arcs[0] + arcs[1]])
    for arc in arcs[2:]:
        chunk = [arc & 0x7f]; arc >>= 7
        while arc: chunk.insert(0, 0x80 | (arc & 0x7f)); arc >>= 7
        body += bytes(chunk)
    return tlv(0x06, body)
name = seq(tlv(0x31, seq(oid("2.5.4.3"), tlv(0x0c, b"lenient request"))))
ext = seq(oid("2.5.29.19"), tlv(0x01, b"\x00"), tlv(0x04, seq(tlv(0x01, b"\x00"))))
attribute = seq(oid("1.2.840.113549.1.9.14"), tlv(0x31, seq(ext)))
info = seq(tlv(0x02, b"\x00"), name, open(f"{work}/spki.der", "rb").read(), tlv(0xa0, attribute))
open(f"{work}/request.info", "wb").write(info)
PY
openssl dgst -sha256 -sign "$work/key.pem" -out "$work/request.sig" "$work/request.info"
python3 - "$work/request.info" "$work/request.sig" "$out/request-defaults.der" <<'PY'
import sys
info, sig = open(sys.argv[1], "rb").read(), open(sys.argv[2], "rb").read()
def tlv(tag, content):
    n = len(content)
    length = bytes([n]) if n < 0x80 else (lambda b: bytes([0x80 | len(b)]) + b)(n.to_bytes((n.bit_length() + 7) // 8, "big"))
    return bytes([tag]) + length + content
open(sys.argv[3], "wb").write(tlv(0x30, info + tlv(0x30, bytes.fromhex("06082a8648ce3d040302")) + tlv(0x03, b"\x00" + sig)))
PY
verified=$(openssl req -inform DER -in "$out/request-defaults.der" -noout -verify 2>&1 | grep -q "verify OK" && echo true || echo false)
ca=$(openssl req -inform DER -in "$out/request-defaults.der" -noout -text | grep -q "CA:FALSE" && echo true || echo false)
echo "{\"file\":\"request-defaults.der\",\"signatureVerifies\":$verified,\"showsCAFalse\":$ca}" | python3 -m json.tool > "$out/request-facts.json"
echo "$facts]" | python3 -m json.tool > "$out/facts.json"
echo "wrote $(ls "$out" | wc -l) files to $out"
