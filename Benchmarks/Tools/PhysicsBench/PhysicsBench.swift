// physics-bench: the Trellis side of `tools/bench physics`, timed step by step exactly as
// Box2DHarness/box2d_harness.cpp times Box2D, with the same output:
//
//   physics-bench springs [runs]   each run builds DynamicsScene.springs and times 60 steps
//                                  (5 runs); prints  springs p50_us= mean_us= cpu_p50_us= steps=
//   physics-bench pile [seconds]   DynamicsScene.pile, every step of 6 s timed; prints
//                                  pile busiest_p50_us= mean_us= busiest_second=
//                                  cpu_busiest_p50_us= cpu_mean_us= steps=
//
// Times in microseconds; cpu_* is the thread's CPU time in the same steps. The busiest second
// is the one whose steps have the highest mean (counted from 0).
#if canImport(Glibc)
import Glibc
#endif
import DynamicsScenes

func format(_ value: Double) -> String {
    let tenths = (value * 10).rounded()
    return "\(Int(tenths) / 10).\(Int(tenths) % 10)"
}

let arguments = CommandLine.arguments
switch arguments.count > 1 ? arguments[1] : "" {
case "springs":
    let runs = arguments.count > 2 ? Int(arguments[2]) ?? 5 : 5
    var times = StepTimes()
    for _ in 0..<runs {
        var animator = DynamicsScene.springs()
        for _ in 0..<60 { times.step(&animator) }
    }
    print("springs p50_us=\(format(StepTimes.median(times.wall))) mean_us=\(format(StepTimes.mean(times.wall)))"
          + " cpu_p50_us=\(format(StepTimes.median(times.cpu))) steps=\(times.wall.count)")
case "pile":
    let seconds = arguments.count > 2 ? Int(arguments[2]) ?? 6 : 6
    var animator = DynamicsScene.pile()
    var times = StepTimes()
    for _ in 0..<(60 * seconds) { times.step(&animator) }
    let busiest = StepTimes.busiestSecond(times.wall), busiestCPU = StepTimes.busiestSecond(times.cpu)
    print("pile busiest_p50_us=\(format(StepTimes.median(StepTimes.second(busiest, of: times.wall))))"
          + " mean_us=\(format(StepTimes.mean(times.wall))) busiest_second=\(busiest)"
          + " cpu_busiest_p50_us=\(format(StepTimes.median(StepTimes.second(busiestCPU, of: times.cpu))))"
          + " cpu_mean_us=\(format(StepTimes.mean(times.cpu))) steps=\(times.wall.count)")
default:
    print("usage: physics-bench springs [runs] | pile [seconds]")
    exit(2)
}
