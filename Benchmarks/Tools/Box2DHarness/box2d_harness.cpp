// The two dynamics benchmark scenes of `tools/bench physics` built in Box2D 2.4 (Debian's
// libbox2d-dev), timed step by step the same way as Benchmarks/Tools/PhysicsBench times
// TrellisDynamics, so the two engines' figures can be divided. 1 m = 100 pt; 60 Hz steps,
// 8 velocity and 3 position iterations.
//
//   box2d-harness springs [runs]   10,000 1×1 m boxes (mass 1), each on a zero-length distance
//                                  spring (0.8 Hz, damping ratio 0.5) to a static ground body,
//                                  0.3 m from it; no gravity. Each run builds the world and
//                                  times 60 steps.
//   box2d-harness pile [seconds]   1,000 0.3×0.3 m boxes (friction 0.3, restitution 0) dropped
//                                  from a 25-wide grid (0.36 m apart) into a 12 m wide box of
//                                  static edges (12 × 20 m), gravity 10 m/s², 6 s (360 steps)
//                                  timed.
//
// Prints one line, the statistics in microseconds of wall clock (cpu_*: the thread's CPU time
// in the same steps, which leaves out what other processes took on a shared machine):
//   springs p50_us=<n> mean_us=<n> cpu_p50_us=<n> steps=<n>
//   pile busiest_p50_us=<n> mean_us=<n> busiest_second=<k> cpu_busiest_p50_us=<n> cpu_mean_us=<n> steps=<n>
// (the busiest second is the one whose steps have the highest mean; counted from 0).
#include <box2d/box2d.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <memory>
#include <vector>

namespace {

constexpr float kStep = 1.0f / 60.0f;
constexpr int kVelocityIterations = 8;
constexpr int kPositionIterations = 3;

double Median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

double Mean(const std::vector<double>& v) {
    double sum = 0;
    for (double x : v) sum += x;
    return sum / v.size();
}

double ThreadCPUMicroseconds() {
    timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

// The steps' wall-clock times and the thread's CPU time in them, in microseconds (the CPU
// time leaves out what other processes on a shared machine took).
struct Times {
    std::vector<double> wall, cpu;
};

void TimedStep(b2World& world, Times& times) {
    double cpu = ThreadCPUMicroseconds();
    auto start = std::chrono::steady_clock::now();
    world.Step(kStep, kVelocityIterations, kPositionIterations);
    auto stop = std::chrono::steady_clock::now();
    times.cpu.push_back(ThreadCPUMicroseconds() - cpu);
    times.wall.push_back(std::chrono::duration<double, std::micro>(stop - start).count());
}

// The second (60 steps) whose steps have the highest mean wall-clock time.
int BusiestSecond(const std::vector<double>& steps) {
    int busiest = 0;
    double highest = -1;
    for (size_t second = 0; second * 60 < steps.size(); ++second) {
        std::vector<double> s(steps.begin() + 60 * second, steps.begin() + std::min(steps.size(), 60 * (second + 1)));
        if (Mean(s) > highest) { highest = Mean(s); busiest = int(second); }
    }
    return busiest;
}

std::vector<double> Second(const std::vector<double>& steps, int second) {
    return std::vector<double>(steps.begin() + 60 * second, steps.begin() + std::min(steps.size(), size_t(60 * (second + 1))));
}

// Items on a 100-wide grid 2 m apart (never close enough to make a broadphase pair: the
// Trellis scene has no collisions), each displaced by (0.18, 0.24) m, 30 pt, from its anchor.
std::unique_ptr<b2World> SpringsWorld() {
    auto world = std::make_unique<b2World>(b2Vec2(0, 0));
    b2BodyDef groundDef;
    b2Body* ground = world->CreateBody(&groundDef);
    b2PolygonShape box;
    box.SetAsBox(0.5f, 0.5f);
    for (int k = 0; k < 10000; ++k) {
        b2Vec2 anchor(2.0f * (k % 100), 2.0f * (k / 100));
        b2BodyDef def;
        def.type = b2_dynamicBody;
        def.position = anchor + b2Vec2(0.18f, 0.24f);
        b2Body* body = world->CreateBody(&def);
        body->CreateFixture(&box, 1.0f);
        b2DistanceJointDef joint;
        joint.bodyA = ground;
        joint.bodyB = body;
        joint.localAnchorA = anchor;
        joint.localAnchorB.SetZero();
        // Rest length 0 (Box2D clamps it to its linear slop, 5 mm); min < max makes it a spring.
        joint.length = 0;
        joint.minLength = 0;
        joint.maxLength = 100;
        b2LinearStiffness(joint.stiffness, joint.damping, 0.8f, 0.5f, ground, body);
        world->CreateJoint(&joint);
    }
    return world;
}

// 25 columns 0.36 m apart centred in the box, 40 rows, the top row 0.5 m below the ceiling;
// y grows downwards as on screen (gravity +y).
std::unique_ptr<b2World> PileWorld() {
    auto world = std::make_unique<b2World>(b2Vec2(0, 10));
    const float width = 12, height = 20;
    b2BodyDef wallsDef;
    b2Body* walls = world->CreateBody(&wallsDef);
    b2Vec2 corners[4] = {{0, 0}, {width, 0}, {width, height}, {0, height}};
    for (int k = 0; k < 4; ++k) {
        b2EdgeShape edge;
        edge.SetTwoSided(corners[k], corners[(k + 1) % 4]);
        b2FixtureDef fixture;
        fixture.shape = &edge;
        fixture.friction = 0.3f;
        walls->CreateFixture(&fixture);
    }
    b2PolygonShape box;
    box.SetAsBox(0.15f, 0.15f);
    b2FixtureDef fixture;
    fixture.shape = &box;
    fixture.density = 1;
    fixture.friction = 0.3f;
    fixture.restitution = 0;
    const float left = (width - 24 * 0.36f) / 2;
    for (int k = 0; k < 1000; ++k) {
        b2BodyDef def;
        def.type = b2_dynamicBody;
        def.position.Set(left + 0.36f * (k % 25), 0.5f + 0.36f * (k / 25));
        world->CreateBody(&def)->CreateFixture(&fixture);
    }
    return world;
}

}  // namespace

int main(int argc, char** argv) {
    const char* scene = argc > 1 ? argv[1] : "";
    if (std::strcmp(scene, "springs") == 0) {
        int runs = argc > 2 ? std::atoi(argv[2]) : 5;
        Times times;
        for (int run = 0; run < runs; ++run) {
            auto world = SpringsWorld();
            for (int k = 0; k < 60; ++k) TimedStep(*world, times);
        }
        std::printf("springs p50_us=%.1f mean_us=%.1f cpu_p50_us=%.1f steps=%zu\n", Median(times.wall), Mean(times.wall),
                    Median(times.cpu), times.wall.size());
        return 0;
    }
    if (std::strcmp(scene, "pile") == 0) {
        int seconds = argc > 2 ? std::atoi(argv[2]) : 6;
        auto world = PileWorld();
        Times times;
        for (int k = 0; k < 60 * seconds; ++k) TimedStep(*world, times);
        int busiest = BusiestSecond(times.wall), busiestCPU = BusiestSecond(times.cpu);
        std::printf("pile busiest_p50_us=%.1f mean_us=%.1f busiest_second=%d cpu_busiest_p50_us=%.1f cpu_mean_us=%.1f steps=%zu\n",
                    Median(Second(times.wall, busiest)), Mean(times.wall), busiest,
                    Median(Second(times.cpu, busiestCPU)), Mean(times.cpu), times.wall.size());
        return 0;
    }
    std::fprintf(stderr, "usage: box2d-harness springs [runs] | pile [seconds]\n");
    return 2;
}
