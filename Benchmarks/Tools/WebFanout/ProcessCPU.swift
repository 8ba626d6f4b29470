import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// CPU time used by a process, read from /proc: how busy trellis-web and trellisd were
/// over the measured window, and whether this client itself ran out of CPU.
enum ProcessCPU {
    /// utime + stime of `pid` in seconds (fields 14 and 15 of /proc/<pid>/stat), nil when it is gone.
    static func seconds(of pid: Int32) -> Double? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              // Field 2, the command, is in parentheses and may hold spaces: count after the last ')'.
              let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        // fields[0] is field 3, so field n is fields[n - 3].
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// This process's own CPU seconds (user + system).
    static func ownSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
            + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
    }
}
