#!/usr/bin/env bash
# EC keys whose public point openssl writes compressed, both prefixes (02: even y, 03: odd y), in
# SubjectPublicKeyInfo (PEM, DER) and SEC 1 (PEM); facts.json holds the uncompressed point openssl
# derives from each. Run by tools/make-fixtures realworld.
set -euo pipefail
out=Fixtures/realworld/ec-compressed
rm -rf "$out"; mkdir -p "$out"
facts="["
sep=""
for curve in prime256v1 secp384r1 secp521r1; do
    for prefix in 02 03; do
        # Generate until openssl's compressed point starts with the wanted prefix.
        while :; do
            openssl ecparam -name "$curve" -genkey -noout -out "$out/key.pem" 2>/dev/null
            der_hex=$(openssl ec -in "$out/key.pem" -pubout -conv_form compressed -outform DER 2>/dev/null | od -An -tx1 -v | tr -d ' \n')
            coordinate=$(echo "$curve" | sed 's/prime256v1/32/;s/secp384r1/48/;s/secp521r1/66/')
            ulen=$(( coordinate * 2 + 1 ))
            clen=$(( coordinate + 1 ))
            point=${der_hex: -$(( clen * 2 ))}
            [ "${point:0:2}" = "$prefix" ] && break
        done
        name="$curve-$prefix"
        openssl ec -in "$out/key.pem" -pubout -conv_form compressed -out "$out/$name.spki.pem" 2>/dev/null
        openssl ec -in "$out/key.pem" -pubout -conv_form compressed -outform DER -out "$out/$name.spki.der" 2>/dev/null
        openssl ec -in "$out/key.pem" -conv_form compressed -out "$out/$name.sec1.pem" 2>/dev/null
        uncompressed=$(openssl ec -in "$out/key.pem" -pubout -outform DER 2>/dev/null | od -An -tx1 -v | tr -d ' \n')
        facts+="$sep{\"name\":\"$name\",\"curve\":\"$curve\",\"prefix\":\"$prefix\",\"uncompressedPoint\":\"${uncompressed: -$(( ulen * 2 ))}\"}"
        sep=","
        rm -f "$out/key.pem"
    done
done
echo "$facts]" | python3 -m json.tool > "$out/facts.json"
echo "wrote $(ls "$out" | wc -l) files to $out"
