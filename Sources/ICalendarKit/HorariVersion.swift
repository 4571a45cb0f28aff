/// The version of Horari, said once: what `horari --version` prints and what
/// the `PRODID` of every file Horari writes names.
///
/// ```swift
/// HorariVersion.current     // "0.5.0"
/// HorariVersion.productID   // "-//Horari//Horari 0.5.0//EN"
/// ```
public enum HorariVersion {
    /// The version, such as `0.5.0`.
    public static let current = "0.5.0"

    /// The `PRODID` (RFC 5545 §3.7.3) of a calendar Horari writes that names
    /// no product of its own: `-//Horari//Horari VERSION//EN`.
    public static let productID = "-//Horari//Horari \(current)//EN"
}
