#!/usr/bin/env bash
# known_hosts files as ssh and ssh-keyscan leave them: plain host lists, [host]:port, wildcards and
# negations, @cert-authority and @revoked markers, comments, blank lines, a CRLF line, lines of key
# types nobody reads and bad base64; and the same hosts hashed by ssh-keygen -H (|1|salt|hmac).
# facts.json holds what ssh-keygen -l prints for each file and which lines ssh-keygen -F finds for
# each host. Run by tools/make-fixtures realworld.
set -euo pipefail
out=Fixtures/realworld/known-hosts
rm -rf "$out"; mkdir -p "$out"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
for t in ed25519 ecdsa rsa; do ssh-keygen -q -t "$t" -N '' -C '' -f "$tmp/$t"; done
key() { cut -d' ' -f1,2 "$tmp/$1.pub"; }
# The hashable part: no markers, no wildcards, nothing ssh-keygen -H refuses.
{
    echo "host1.example.com,host2.example.com,192.0.2.1 $(key ed25519)"
    echo "[host3.example.com]:2222 $(key ecdsa) keyscan comment"
    echo "host4.example.com $(key rsa)"
} > "$tmp/hashable"
cp "$tmp/hashable" "$tmp/hashed"; ssh-keygen -q -H -f "$tmp/hashed" >/dev/null 2>&1
{
    echo "# known_hosts written for Coffer's tests"
    echo
    cat "$tmp/hashable"
    echo "@cert-authority *.example.org $(key rsa)"
    echo "@revoked revoked.example.com $(key ecdsa)"
    echo "!bad.example.net,*.example.net $(key ed25519)"
    printf '%s\r\n' "crlf.example.com $(key ecdsa)"
    echo "odd.example.com ssh-unknown-type AAAAB3NzaC1yc2E="
    echo "badbase64.example.com ssh-ed25519 AAAA!!notbase64"
    echo "   "
    echo "last.example.com $(key ed25519) last line"
} > "$out/known_hosts"
{
    echo "# hashed by ssh-keygen -H"
    cat "$tmp/hashed"
    echo "@revoked $(head -1 "$tmp/hashed" | cut -d' ' -f1) $(key ecdsa)"
} > "$out/known_hosts.hashed"
rm -f "$tmp/hashed.old"

facts="{\"fingerprints\":{"
sep=""
for f in known_hosts known_hosts.hashed; do
    lines=$(ssh-keygen -l -f "$out/$f" | python3 -c 'import json,sys; print(json.dumps(sys.stdin.read().splitlines()))')
    facts+="$sep\"$f\":$lines"; sep=","
done
facts+="},\"lookups\":["
sep=""
for f in known_hosts known_hosts.hashed; do
    for host in host1.example.com host2.example.com 192.0.2.1 '[host3.example.com]:2222' host3.example.com host4.example.com \
                a.example.org revoked.example.com good.example.net bad.example.net crlf.example.com last.example.com HOST1.EXAMPLE.COM nowhere.example.com; do
        found=$( (ssh-keygen -F "$host" -f "$out/$f" 2>/dev/null || true) | sed -n 's/^# Host .* found: line \([0-9]*\).*/\1/p' | paste -sd, -)
        facts+="$sep{\"file\":\"$f\",\"host\":\"$host\",\"lines\":[$found]}"; sep=","
    done
done
facts+="]}"
echo "$facts" | python3 -m json.tool > "$out/facts.json"
echo "wrote $(ls "$out" | wc -l) files to $out"
