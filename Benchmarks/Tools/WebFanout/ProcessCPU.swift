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

    /// The whole machine's busy and steal seconds, summed over its CPUs (the `cpu` line of
    /// /proc/stat): busy less what the three processes used is what other work took, which
    /// on a shared 2-CPU machine explains a tail better than any guess.
    static func machine() -> (busy: Double, steal: Double)? {
        guard let text = try? String(contentsOfFile: "/proc/stat", encoding: .utf8),
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix("cpu ") }) else { return nil }
        // user nice system idle iowait irq softirq steal (guest time is inside user).
        let values = line.split(separator: " ").dropFirst().compactMap { Double($0) }
        guard values.count >= 8 else { return nil }
        let tick = Double(sysconf(Int32(_SC_CLK_TCK)))
        let busy = values[0] + values[1] + values[2] + values[5] + values[6]
        return (busy / tick, values[7] / tick)
    }

    /// This process's own CPU seconds (user + system).
    static func ownSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
            + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
    }
}
