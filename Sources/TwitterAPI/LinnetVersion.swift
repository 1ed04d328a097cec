/// Linnet's version, used by `--version` and the HTTP `User-Agent`.
public enum LinnetVersion {
    /// The version number.
    public static let string = "0.1.0"
    /// The `User-Agent` header value.
    public static let userAgent = "Linnet/\(string) (terminal Twitter client)"
}
