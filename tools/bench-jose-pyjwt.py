#!/usr/bin/env python3
"""PyJWT's side of the JOSE benchmarks: sign and verify the same JWT (the claims, header and keys
of Benchmarks/Benchmarks/JOSEBenchmarks, from Benchmarks/Resources/jose) with PyJWT, timed with
timeit; prints the median nanoseconds per operation of REPEATS runs, one line per benchmark, in
the names the Swift benchmarks use. Run by tools/bench-jose, between the Swift runs."""
import json, os, statistics, sys, time, timeit
import jwt
from cryptography.hazmat.primitives import serialization

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
res = os.path.join(root, "Benchmarks", "Resources", "jose")
repeats = int(sys.argv[1]) if len(sys.argv) > 1 else 5
now = int(time.time())
claims = {"iss": "https://issuer.example.com", "sub": "user-0123456789", "aud": "api.example.com", "iat": now,
          "exp": now + 86400, "name": "Alice Example", "scope": "read write"}

def read(name, mode="rb"):
    with open(os.path.join(res, name), mode) as f:
        return f.read()

for alg, private, public in [("ES256", "p256.pem", "p256.pub.pem"), ("RS256", "rsa.pem", "rsa.pub.pem"),
                             ("EdDSA", "ed25519.pem", "ed25519.pub.pem"), ("HS256", "hs256.key", "hs256.key")]:
    if alg == "HS256":
        sign_key = verify_key = read(private)
    else:
        sign_key = serialization.load_pem_private_key(read(private), password=None)
        verify_key = serialization.load_pem_public_key(read(public))
    token = jwt.encode(claims, sign_key, algorithm=alg, headers={"kid": "bench-key"})
    jwt.decode(token, verify_key, algorithms=[alg], audience="api.example.com")
    for name, statement in [("Sign", lambda: jwt.encode(claims, sign_key, algorithm=alg, headers={"kid": "bench-key"})),
                            ("Verify", lambda: jwt.decode(token, verify_key, algorithms=[alg], audience="api.example.com"))]:
        timer = timeit.Timer(statement)
        number, _ = timer.autorange()
        runs = [t / number * 1e9 for t in timer.repeat(repeat=repeats, number=number)]
        print(f"{name} {alg} ~{len(token)}-byte token: PyJWT {jwt.__version__}\tmedian {statistics.median(runs):.0f} ns\t(runs: {', '.join(f'{r:.0f}' for r in runs)})")
