import ASN1Kit

/// The benchmark input: a 2048-bit PKCS#1 RSAPrivateKey, the bytes of
/// `Resources/rsa2048-pkcs1.der` (see `Resources/README.md` for how it was made). A throwaway
/// key that protects nothing.
enum RSAKeyFixture {
    static let base64 = "MIIEpQIBAAKCAQEAvlJvt6sPnAgWhjBgoGlgVwOzZsSvFKRZDvX7wbCjjWgkiLV2Vb03YQOhD4khXuyPH2B5xDfIBwHJl2wKi5bGMHoiamm6R3MtlijJ7xKz47MEkl9zdLGIJLxMFziZy5uDqjR+hFFaVEYVaPfgGubTM1pIpB1kZAhUQENp1/uowjfS+f9SP2vHMgUXnRqNsQa8MHkRHWVk5bGmUI3mL5HgGfOXB1oWTEMMh+aD9Q/pDpfcTekf5xye66hTqcZR4Kfcd0E3tTWKVbLx8FKIZPalgh+4+P6Kv3BY2B+aIs/9ikuYk74zoHpV1PoRJNwTWoKdkfmYmI4NwAaIIxp3hnwd/QIDAQABAoIBABPqGVF9Hz2C5SR2ZG30iMWiGAANXYqJ5d24ZHbwbjSqLIR3hGHVUjmfARfYj/rYQuOUGzmqYo5FJBxpjDLt/F/vL7G1zW2TgjYfn32aFeOiBDzyquiPeQDrCQU3AXS6GY1SP9jFkG+YA75/jV4TQA80B7zQbIRBENvGkgktBowHz6w2n0SzZp36H0eX973v4HaBL5J4NqoVHfHEOEPb56crQqPBhHqiO26VKqKSPL5PwnLZmypu6Vtt6aPtPTeoGFw3FXveIjk0pv3VBVKqVT8FGIK5+7T2NF+zBjiQxcNWOC9fscXWrVjcOE0KrH/vKhtejhaeSUa4iJeSX7t7xosCgYEA/o7E/l7qfNySrQ7T1gCsiptUb3NhXngWZ0XK5Rko57edzlIZ1Vey9GTybGhFjX8qvs2isvuzNi6c7YqFlqXJ4EukIiaG6XvRjeRtp/wHWuf5LnvkObGv7B1akljwBpPeMKv+oFP6oiQT4dTqd919StXqtS+8Jm3dujORoiFf7lsCgYEAv2Z+kfJvu5VGUXrMdp+ytcvPMhy0rBgDgwbfhjVVLyWBv7Xl/w9NjHMLV2C09HyJU/tt5x9WOocz3RDduR/m9m2scEsIhNcCs6M3ZFA79GjSsYtAanDtASmqlYhSOUvhK3GPySXrMNMODHjqebyb0rlYeFYorzFjuGkDGedEBIcCgYEA09rgak92Wip8zBiuBsoSz1yM/iCJpcTN6G82eErjN04iwMalh1/wqOOmusBhOmzel2OvB8ThFrPemPeTTJh4Ffr+BAoKeCE7exrkhE0Flgu/34bun3GZVynq6ieow+Cmp91NEgQycGUUQvwfk1i74N998gNjVJxVT5WBm+yo2UcCgYEAoou/x+CVRUAzlLTt+XwMgFnS36MDSPen29m1cLvQWRbIRvCKn/72A+Yb5pvpcYxl8B2iK1swlsoFoKNXOYW/Vt6zSDZgyLf0wmxFeXquQBXZgRBap0q57HffN9iqw6AOXR+3VcNPJorG7o6tyq8DwoTHfoLlUEtofc8o5BHEcPcCgYEA6b3AzkC0Tp7yBBZ4/FTF+Qky2wXkg8Ljo65eKA97lMN1lm0MSVlflewnQAQ6fGj2uiD2hvy1BhqK6uSyQpqapkaEieyylszbYc82ROyr+Zg5q2rVLdogN90hNhOrfHOk9RitbtM+s6ykLdqBqq9c04iZsSPtkVWG9YL0j4zaHQ0="

    /// The DER bytes.
    static let der: [UInt8] = {
        guard let bytes = try? Base64.decode(Array(base64.utf8)) else {
            fatalError("RSAKeyFixture.base64 is not valid base64")
        }
        return bytes
    }()
}
