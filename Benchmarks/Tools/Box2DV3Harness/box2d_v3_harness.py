"""The two dynamics benchmark scenes of `tools/bench physics` built in Box2D v3.1 (the `pyb2d3`
wheel from PyPI: Box2D's C library inside; the step runs in C, so Python's cost stays outside
the timed call, about a microsecond of call overhead per step), timed step by step as
Benchmarks/Tools/PhysicsBench times TrellisDynamics and Box2DHarness times Box2D 2.4, with the
same scenes, output and units. 1 m = 100 pt; 60 Hz steps, SUBSTEPS sub-steps (Box2D v3's
recommended 4 unless BENCH_BOX2D_V3_SUBSTEPS says otherwise).

    box2d_v3_harness.py springs [runs]   10,000 1x1 m boxes (density 1) on zero-length spring
                                         distance joints (0.8 Hz, damping ratio 0.5) to a static
                                         ground body, 0.3 m from their anchors; no gravity.
    box2d_v3_harness.py pile [seconds]   1,000 0.3x0.3 m boxes (friction 0.3, restitution 0)
                                         dropped from a 25-wide grid into a 12 x 20 m box of
                                         static segments, gravity 10 m/s^2, 6 s timed.

Prints one line, in microseconds of wall clock (cpu_*: the thread's CPU time in the same steps):
    springs p50_us=<n> mean_us=<n> cpu_p50_us=<n> steps=<n>
    pile busiest_p50_us=<n> mean_us=<n> busiest_second=<k> cpu_busiest_p50_us=<n> cpu_mean_us=<n> steps=<n>
"""
import os
import statistics
import sys
import time

import pyb2d3 as b2

STEP = 1.0 / 60.0
SUBSTEPS = int(os.environ.get("BENCH_BOX2D_V3_SUBSTEPS", "4"))


def timed_step(world, wall, cpu):
    c = time.thread_time_ns()
    w = time.perf_counter_ns()
    world.step(STEP, SUBSTEPS)
    wall.append((time.perf_counter_ns() - w) / 1000)
    cpu.append((time.thread_time_ns() - c) / 1000)


def springs_world():
    # Items on a 100-wide grid 2 m apart (no two close enough to meet), each (0.18, 0.24) m
    # (30 pt) from its anchor, as in the Trellis and Box2D 2.4 scenes.
    world = b2.World(gravity=(0, 0))
    ground = world.create_static_body(position=(0, 0))
    shape = b2.shape_def(density=1)
    square = b2.box(0.5, 0.5)
    for k in range(10000):
        anchor = (2.0 * (k % 100), 2.0 * (k // 100))
        body = world.create_dynamic_body(position=(anchor[0] + 0.18, anchor[1] + 0.24))
        body.create_polygon_shape(shape, square)
        world.create_distance_joint(b2.distance_joint_def(
            body_a=ground, body_b=body, local_anchor_a=anchor, local_anchor_b=(0, 0),
            length=0, min_length=0, max_length=100, enable_spring=True, hertz=0.8, damping_ratio=0.5))
    return world


def pile_world():
    # 25 columns 0.36 m apart centred in the box, 40 rows, the top one 0.5 m below the ceiling;
    # y grows downwards as on screen (gravity +y).
    world = b2.World(gravity=(0, 10))
    width, height = 12.0, 20.0
    walls = world.create_static_body(position=(0, 0))
    wall = b2.shape_def(material=b2.surface_material(friction=0.3))
    corners = [(0, 0), (width, 0), (width, height), (0, height)]
    for k in range(4):
        walls.create_segment_shape(wall, b2.segment(corners[k], corners[(k + 1) % 4]))
    shape = b2.shape_def(density=1, material=b2.surface_material(friction=0.3, restitution=0))
    square = b2.box(0.15, 0.15)
    left = (width - 24 * 0.36) / 2
    for k in range(1000):
        body = world.create_dynamic_body(position=(left + 0.36 * (k % 25), 0.5 + 0.36 * (k // 25)))
        body.create_polygon_shape(shape, square)
    return world


def busiest_second(steps):
    means = [statistics.fmean(steps[s:s + 60]) for s in range(0, len(steps), 60)]
    return max(range(len(means)), key=means.__getitem__)


def main(argv):
    scene = argv[1] if len(argv) > 1 else ""
    if scene == "springs":
        runs = int(argv[2]) if len(argv) > 2 else 5
        wall, cpu = [], []
        for _ in range(runs):
            world = springs_world()
            for _ in range(60):
                timed_step(world, wall, cpu)
            del world
        print(f"springs p50_us={statistics.median(wall):.1f} mean_us={statistics.fmean(wall):.1f}"
              f" cpu_p50_us={statistics.median(cpu):.1f} steps={len(wall)}")
        return 0
    if scene == "pile":
        seconds = int(argv[2]) if len(argv) > 2 else 6
        world = pile_world()
        wall, cpu = [], []
        for _ in range(60 * seconds):
            timed_step(world, wall, cpu)
        b, bc = busiest_second(wall), busiest_second(cpu)
        print(f"pile busiest_p50_us={statistics.median(wall[60 * b:60 * b + 60]):.1f} mean_us={statistics.fmean(wall):.1f}"
              f" busiest_second={b} cpu_busiest_p50_us={statistics.median(cpu[60 * bc:60 * bc + 60]):.1f}"
              f" cpu_mean_us={statistics.fmean(cpu):.1f} steps={len(wall)}")
        return 0
    print("usage: box2d_v3_harness.py springs [runs] | pile [seconds]", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
