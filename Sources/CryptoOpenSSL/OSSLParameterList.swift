internal import COpenSSL

/// Helpers for the `OSSL_PARAM` arrays that `OSSL_PARAM_BLD_to_param` builds.
enum OSSLParameterList {
    /// Wipes every value of `params` (they may hold copies of private numbers), then frees the
    /// array. OpenSSL 3.0 has no `OSSL_PARAM_clear_free`.
    static func wipeAndFree(_ params: UnsafeMutablePointer<OSSL_PARAM>) {
        var parameter = params
        while let name = parameter.pointee.key, name.pointee != 0 {
            if let data = parameter.pointee.data, parameter.pointee.data_size > 0 {
                OPENSSL_cleanse(data, parameter.pointee.data_size)
            }
            parameter += 1
        }
        OSSL_PARAM_free(params)
    }
}
