#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// Reads the files a script names (scripts themselves, `scene == FILE.json`) without
/// Foundation, which the client library does not link.
public enum ScriptFile {
    /// The file's bytes, or nil when it cannot be read.
    public static func read(_ path: String) -> [UInt8]? {
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = fread(&chunk, 1, chunk.count, file)
            if count > 0 { bytes.append(contentsOf: chunk[0..<count]) }
            if count < chunk.count {
                return ferror(file) != 0 ? nil : bytes
            }
        }
    }

    /// `path` relative to the directory of `file` (absolute paths stay as they are), as
    /// `#include` resolves names: a script's data travels with the script.
    public static func resolve(_ path: String, relativeTo file: String) -> String {
        guard !path.hasPrefix("/") else { return path }
        guard let slash = file.lastIndex(of: "/") else { return path }
        return String(file[...slash]) + path
    }
}
