// physics-bench: the Trellis side of `tools/bench physics`, timed step by step exactly as
// Box2DHarness/box2d_harness.cpp times Box2D, with the same output:
//
//   physics-bench springs [runs]   each run builds DynamicsScene.springs and times 60 steps
//                                  (5 runs); prints  springs p50_us= mean_us= cpu_p50_us= steps=
//   physics-bench spawn [seconds]  DynamicsScene.spawn (1,500 boxes at one point) and pile1500 (the
//                                  same boxes dropped as a pile), every step of 6 s timed; prints
//                                  max_us= first_us= busiest_p50_us= mean_us= max_contacts=
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
case "spawn", "pile1500":
    // The same 1,500 boxes spawned at one point, or dropped as a pile: the first should cost
    // what the second does, a few times over at most, not N² (issue 24).
    let seconds = arguments.count > 2 ? Int(arguments[2]) ?? 6 : 6
    var animator = arguments[1] == "spawn" ? DynamicsScene.spawn() : DynamicsScene.pile(count: 1_500)
    var times = StepTimes()
    var contacts = 0
    for _ in 0..<(60 * seconds) {
        times.step(&animator)
        contacts = max(contacts, animator.lastStepContacts)
    }
    print("\(arguments[1]) max_us=\(format(times.wall.max() ?? 0)) first_us=\(format(times.wall.first ?? 0))"
          + " busiest_p50_us=\(format(StepTimes.median(StepTimes.second(StepTimes.busiestSecond(times.wall), of: times.wall))))"
          + " mean_us=\(format(StepTimes.mean(times.wall))) max_contacts=\(contacts) steps=\(times.wall.count)")
default:
    print("usage: physics-bench springs [runs] | pile [seconds] | spawn [seconds] | pile1500 [seconds]")
    exit(2)
}
