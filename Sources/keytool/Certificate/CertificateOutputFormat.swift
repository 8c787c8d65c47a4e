import ArgumentParser

/// `--format` of the certificate commands.
enum CertificateOutputFormat: String, ExpressibleByArgument, CaseIterable {
    case pem, der, pkcs12
}
