#!/usr/bin/env python3
"""The Python JOSE libraries as interop peers of Coffer's JOSE module: jwcrypto (JWS, JWE) and
PyJWT (JWT). Reads one JSON request on stdin and writes one JSON answer on stdout; keys travel as
JWKs (RFC 7517), bytes as base64url. Exit 0 with {"ok": true, ...} when the library did it, exit 0
with {"ok": false, "error": "..."} when the library refused the input, exit 2 on a bad request.

Keys: "jwk" (a JWK object), or "pem" (PEM text, public or unencrypted private), or "secret"
(base64url bytes of a symmetric key).

Requests ("op"):
  jws-sign      {key, "alg", "payload"}                 -> {"token"}    (jwcrypto, compact)
  jws-verify    {key, "alg", "token"}                   -> {"payload"}  (jwcrypto)
  jwe-encrypt   {key, "alg", "enc", "plaintext", "zip"?} -> {"token"}   (jwcrypto, compact)
  jwe-decrypt   {key, "token", "allowed"?}              -> {"plaintext"} (jwcrypto)
  jwt-encode    {key, "alg", "claims"}                  -> {"token"}    (PyJWT)
  jwt-decode    {key, "alg", "token", "audience"?, "issuer"?} -> {"claims"} (PyJWT)
"""
import base64, json, sys


def b64u(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64u(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def load_key(request):
    from jwcrypto import jwk
    if "pem" in request:
        pem = request["pem"].encode()
        try:
            return jwk.JWK.from_pem(pem)
        except Exception:
            # jwcrypto's from_pem does not take X448 keys; its JWKs do, so build one from the raw key.
            from cryptography.hazmat.primitives import serialization
            from cryptography.hazmat.primitives.asymmetric import x448
            raw = serialization.Encoding.Raw
            if b"PRIVATE" in pem:
                key = serialization.load_pem_private_key(pem, password=None)
                public = key.public_key()
                secret = {"d": b64u(key.private_bytes(raw, serialization.PrivateFormat.Raw, serialization.NoEncryption()))}
            else:
                public = serialization.load_pem_public_key(pem)
                secret = {}
            if not isinstance(public, x448.X448PublicKey):
                raise
            return jwk.JWK(kty="OKP", crv="X448", x=b64u(public.public_bytes(raw, serialization.PublicFormat.Raw)), **secret)
    if "secret" in request:
        return jwk.JWK(kty="oct", k=request["secret"])
    return jwk.JWK(**request["jwk"])


def main():
    request = json.load(sys.stdin)
    op = request["op"]
    try:
        if op.startswith("jws") or op.startswith("jwe"):
            from jwcrypto import jws, jwe
            from jwcrypto.common import json_encode
            key = load_key(request)
            if op == "jws-sign":
                token = jws.JWS(unb64u(request["payload"]))
                token.add_signature(key, alg=request["alg"], protected=json_encode({"alg": request["alg"]}))
                answer = {"token": token.serialize(compact=True)}
            elif op == "jws-verify":
                token = jws.JWS()
                token.deserialize(request["token"])
                token.verify(key, alg=request["alg"])
                answer = {"payload": b64u(token.payload)}
            elif op == "jwe-encrypt":
                header = {"alg": request["alg"], "enc": request["enc"]}
                if request.get("zip"):
                    header["zip"] = "DEF"
                # RSA1_5 only when the request names it: jwcrypto refuses to use it by default.
                algs = [request["alg"], request["enc"]] if request["alg"] == "RSA1_5" else None
                token = jwe.JWE(unb64u(request["plaintext"]), protected=json_encode(header), algs=algs)
                token.add_recipient(key)
                answer = {"token": token.serialize(compact=True)}
            elif op == "jwe-decrypt":
                token = jwe.JWE()
                # Every algorithm jwcrypto knows, RSA1_5 included, so Coffer's tokens are judged on
                # their own merits and not on jwcrypto's default allow-list.
                token.allowed_algs = request.get("allowed", token.allowed_algs)
                token.deserialize(request["token"], key=key)
                answer = {"plaintext": b64u(token.payload)}
            else:
                raise KeyError(op)
        elif op.startswith("jwt"):
            import jwt
            loaded = load_key(request)
            symmetric = loaded.key_type == "oct"
            key = jwt.PyJWK(json.loads(loaded.export(private_key=loaded.has_private or symmetric)), algorithm=request["alg"])
            if op == "jwt-encode":
                answer = {"token": jwt.encode(request["claims"], key, algorithm=request["alg"])}
            elif op == "jwt-decode":
                options = {}
                claims = jwt.decode(request["token"], key, algorithms=[request["alg"]],
                                    audience=request.get("audience"), issuer=request.get("issuer"), options=options)
                answer = {"claims": claims}
            else:
                raise KeyError(op)
        else:
            raise KeyError(op)
    except KeyError as error:
        print(json.dumps({"ok": False, "error": "bad request: %s" % error}))
        return 2
    except Exception as error:  # the library refused the input: that is an answer, not a crash
        print(json.dumps({"ok": False, "error": "%s: %s" % (type(error).__name__, error)}))
        return 0
    answer["ok"] = True
    print(json.dumps(answer))
    return 0


if __name__ == "__main__":
    sys.exit(main())
