import CLibUV

/// Facts about the libuv the server is linked against.
public enum LibUV {
    /// libuv's version string, e.g. "1.44.2".
    public static var version: String { String(cString: uv_version_string()) }
}
