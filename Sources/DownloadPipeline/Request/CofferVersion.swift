/// Coffer's version, as the default `User-Agent` (`Coffer/<version>`) announces it.
///
/// The package has no release yet, so no other place holds a version; this constant is the one to
/// change at a release.
public enum CofferVersion {
    /// The version text.
    public static let string = "0.1.0-dev"
    /// The default `User-Agent` value.
    public static var userAgent: String { "Coffer/\(string)" }
}
