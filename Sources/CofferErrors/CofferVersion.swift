/// Coffer's version: what `keytool --version`, `keytool fetch --version` and `kvstore --version`
/// print, and what the download pipeline's default `User-Agent` (`Coffer/<version>`) announces.
///
/// It lives here, in the one module every library and tool depends on, so that there is one
/// place to change at a release. The package has no release yet.
public enum CofferVersion {
    /// The version text.
    public static let string = "0.1.0-dev"
    /// The default `User-Agent` value.
    public static var userAgent: String { "Coffer/\(string)" }
}
