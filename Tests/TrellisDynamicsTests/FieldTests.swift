import Foundation
import Testing
import TrellisGeometry
@testable import TrellisDynamics

/// UIFieldBehavior's ten kinds and UIRegion against values worked out by hand and closed forms
/// (spring period, cyclotron radius, exponential drag), and the noise's determinism.
@Suite struct FieldTests {
    static let item = DynamicItemID(1), other = DynamicItemID(2)
    static let h = DynamicAnimator.defaultStep
    static let g = 1000.0

    static func animator(_ body: DynamicBody) -> DynamicAnimator {
        var animator = DynamicAnimator(referenceBounds: Rect(x: 0, y: 0, width: 1000, height: 1000))
        animator.setItem(item, body)
        return animator
    }

    static func body(at center: Point, size: Size = Size(100, 100), velocity: Vector = .zero, charge: Double = 0) -> DynamicBody {
        var body = DynamicBody(center: center, size: size)
        body.velocity = velocity
        body.properties.charge = charge
        return body
    }

    static func close(_ a: Vector, _ b: Vector, _ tolerance: Double = 1e-9) -> Bool {
        (a - b).length <= tolerance * max(1, b.length)
    }

    // MARK: Force laws at chosen points

    @Test func linearGravityIsTheSameAccelerationForAnyMassScaledByFalloff() {
        var field = FieldBehavior(.linearGravity(direction: Vector(0.3, -0.4)), items: [Self.item])
        field.strength = 2
        // Mass 3 (200×150 at density 1): F = m·s·g·direction.
        let heavy = Self.body(at: Point(50, 70), size: Size(200, 150))
        #expect(Self.close(field.force(on: heavy, step: Self.h), Vector(1800, -2400)))
        // Falloff 1, 200 pt away: half of it (strength holds at 100 pt).
        field.falloff = 1
        let far = Self.body(at: Point(120, 160))
        #expect(Self.close(field.force(on: far, step: Self.h), Vector(300, -400)))
        // Through the animator: one step adds a·h to the velocity.
        field.falloff = 0
        var a = Self.animator(heavy)
        a.add(field)
        a.advance(steps: 1)
        #expect(Self.close(a.bodies[Self.item]!.velocity, Vector(600, -800) * Self.h))
    }

    @Test func radialGravityPullsWithTheInverseSquareBeyondTheMinimumRadius() {
        var field = FieldBehavior(.radialGravity, items: [Self.item], position: Point(100, 100))
        field.strength = 2
        #expect(field.falloff == 2)
        // r = (300, 400), d = 500: f = (500/100)^−2 = 1/25, a = 2·1000/25 = 80 pt/s² towards the position.
        let light = Self.body(at: Point(400, 500))
        #expect(Self.close(field.force(on: light, step: Self.h), Vector(-48, -64)))
        // Force ∝ mass: the same acceleration for mass 4.
        let heavy = Self.body(at: Point(400, 500), size: Size(200, 200))
        #expect(Self.close(field.force(on: heavy, step: Self.h), Vector(-192, -256)))
        // Inside the minimum radius the distance counts as the radius: d = 5 < 10, f = (10/100)^−2 = 100.
        field.minimumRadius = 10
        let near = Self.body(at: Point(103, 104))
        #expect(Self.close(field.force(on: near, step: Self.h), Vector(-120_000, -160_000)))
        // With the default minimum radius (1 pt) the true distance counts: f = (5/100)^−2 = 400.
        field.minimumRadius = FieldBehavior.defaultMinimumRadius
        #expect(Self.close(field.force(on: near, step: Self.h), Vector(-480_000, -640_000)))
        // Negative strength repels.
        field.strength = -2
        #expect(Self.close(field.force(on: light, step: Self.h), Vector(48, 64)))
        // At the very centre there is no direction, so no force.
        #expect(field.force(on: Self.body(at: Point(100, 100)), step: Self.h) == .zero)
    }

    @Test func electricFieldsPullChargesByQTimesE() {
        var field = FieldBehavior(.electric, items: [Self.item])
        field.strength = 3
        #expect(field.falloff == 2)
        // q = 2, r = (0, 200): f = 1/4, |F| = 2·3·1000/4 = 1500 towards the position, whatever the mass.
        #expect(Self.close(field.force(on: Self.body(at: Point(0, 200), size: Size(200, 200), charge: 2), step: Self.h),
                           Vector(0, -1500)))
        #expect(Self.close(field.force(on: Self.body(at: Point(0, 200), charge: -2), step: Self.h), Vector(0, 1500)))
        #expect(field.force(on: Self.body(at: Point(0, 200)), step: Self.h) == .zero)
    }

    @Test func vortexTurnsAnticlockwiseOnScreenInProportionToDistanceAndMass() {
        var field = FieldBehavior(.vortex, items: [Self.item], position: Point(10, 10))
        // r = (30, 40): a = 1000/100 · (dy, −dx) = (400, −300); mass 2 (200×100) doubles the force.
        #expect(Self.close(field.force(on: Self.body(at: Point(40, 50), size: Size(200, 100)), step: Self.h),
                           Vector(800, -600)))
        // Right of the centre a positive vortex pushes up the screen (y down): anticlockwise,
        // r × v < 0 once it moves.
        var a = Self.animator(Self.body(at: Point(110, 10)))
        a.add(field)
        a.advance(steps: 1)
        let moved = a.bodies[Self.item]!
        #expect(Self.close(moved.velocity, Vector(0, -1000 * Self.h)))
        #expect(moved.center.vector(from: Point(10, 10)).cross(moved.velocity) < 0)
        field.strength = -1
        #expect(Self.close(field.force(on: Self.body(at: Point(110, 10)), step: Self.h), Vector(0, 1000)))
    }

    @Test func turbulenceIsNoiseScaledBySpeed() {
        let noise = FieldBehavior(.noise(smoothness: 0.3, animationSpeed: 1), items: [Self.item])
        let turbulence = FieldBehavior(.turbulence(smoothness: 0.3, animationSpeed: 1), items: [Self.item])
        let p = Point(123.4, -56.7)
        let atRest = Self.body(at: p)
        #expect(turbulence.force(on: atRest, step: Self.h) == .zero)
        #expect(noise.force(on: atRest, step: Self.h) != .zero)
        // At 500 pt/s, half of the noise field's 1000 pt/s² scale, in the noise's direction.
        let moving = Self.body(at: p, velocity: Vector(300, -400))
        #expect(Self.close(turbulence.force(on: moving, step: Self.h), noise.force(on: moving, step: Self.h) * 0.5))
    }

    // MARK: Regions

    @Test func regionsAreCentredOnThePositionAndCompose() {
        let circle = FieldRegion.circle(radius: 50)
        #expect(circle.contains(Vector(30, 40)))         // on the rim
        #expect(!circle.contains(Vector(30, 41)))
        let rect = FieldRegion.rect(Size(100, 40))
        #expect(rect.contains(Vector(-49, 19)) && !rect.contains(Vector(49, 21)) && !rect.contains(Vector(51, 0)))
        let ellipse = FieldRegion.ellipse(Size(200, 100))
        #expect(ellipse.contains(Vector(99, 0)) && ellipse.contains(Vector(0, -49)))
        #expect(!ellipse.contains(Vector(80, 40)))        // 0.8² + 0.8² > 1, though inside its rect
        #expect(!FieldRegion.ellipse(Size(0, 10)).contains(.zero))
        #expect(FieldRegion.infinite.contains(Vector(1e9, -1e9)))

        #expect(!circle.inverted().contains(Vector(10, 0)) && circle.inverted().contains(Vector(60, 0)))
        let union = FieldRegion.circle(radius: 10).union(.rect(Size(100, 4)))
        #expect(union.contains(Vector(0, 8)) && union.contains(Vector(45, 1)) && !union.contains(Vector(45, 8)))
        let ring = circle.subtracting(.circle(radius: 20))
        #expect(!ring.contains(Vector(10, 0)) && ring.contains(Vector(30, 0)) && !ring.contains(Vector(60, 0)))
        let both = circle.intersection(rect)
        #expect(both.contains(Vector(40, 10)) && !both.contains(Vector(0, 30)) && !both.contains(Vector(55, 0)))
        // Nested: the inverse of a ring is the hole and the outside.
        #expect(ring.inverted().contains(.zero) && ring.inverted().contains(Vector(0, 70)) && !ring.inverted().contains(Vector(0, 35)))
    }

    @Test func noForceOutsideTheRegion() {
        var field = FieldBehavior(.linearGravity(direction: Vector(0, 1)), items: [Self.item], position: Point(500, 500))
        field.region = FieldRegion.circle(radius: 100).subtracting(.rect(Size(40, 40)))
        #expect(field.force(on: Self.body(at: Point(580, 500)), step: Self.h) == Vector(0, 1000))
        #expect(field.force(on: Self.body(at: Point(610, 500)), step: Self.h) == .zero)   // beyond the circle
        #expect(field.force(on: Self.body(at: Point(510, 510)), step: Self.h) == .zero)   // in the hole
        field.region = field.region.inverted()
        #expect(field.force(on: Self.body(at: Point(610, 500)), step: Self.h) == Vector(0, 1000))
        // Through the animator: an item outside keeps still.
        var a = Self.animator(Self.body(at: Point(700, 500)))
        a.setItem(Self.other, Self.body(at: Point(500, 500)))
        field.region = .circle(radius: 100)
        field.items = [Self.item, Self.other]
        a.add(field)
        a.advance(steps: 10)
        #expect(a.bodies[Self.item]!.velocity == .zero)
        #expect(abs(a.bodies[Self.other]!.velocity.dy - 1000 * 10 * Self.h) < 1e-9)
    }

    // MARK: Motions against closed forms

    @Test func aStrongDragOnASteppedItemDecaysInsteadOfBlowingUp() {
        // A radial field makes the item stepped; a drag of 100,000 on mass 1 is c·h ≈ 1,667 per
        // step, which a force −c·v would turn into growth. As a decay it just stops the item.
        var a = Self.animator(Self.body(at: Point(300, 100), velocity: Vector(500, 0)))
        a.add(FieldBehavior(.radialGravity, items: [Self.item], position: Point(100, 100)))
        var drag = FieldBehavior(.drag, items: [Self.item])
        drag.strength = 100_000
        a.add(drag)
        a.advance(steps: 30)
        let body = a.bodies[Self.item]!
        #expect(body.velocity.length < 1 && abs(body.center.x - 300) < 1, "\(body.center) \(body.velocity)")
    }

    static func springCrossings(mass side: Double, strength: Double, seconds: Double) -> [Double] {
        var a = animator(body(at: Point(550, 500), size: Size(side, side)))
        var field = FieldBehavior(.spring, items: [item], position: Point(500, 500))
        field.strength = strength
        a.add(field)
        var xs = [50.0], crossings: [Double] = []
        for k in 1...Int(seconds * 60) {
            a.advance(steps: 1)
            xs.append(a.bodies[item]!.center.x - 500)
            if xs[k - 1] > 0 && xs[k] <= 0 { crossings.append((Double(k - 1) + xs[k - 1] / (xs[k - 1] - xs[k])) * h) }
        }
        return crossings
    }

    @Test func aSpringFieldOscillatesWithPeriodRootMassOverStrength() {
        // Mass 4 at strength 1: T = √4 = 2 s; mass 1/4 at strength 1: 0.5 s; mass 1 at strength 4: 0.5 s.
        for (side, strength, expected) in [(200.0, 1.0, 2.0), (50.0, 1.0, 0.5), (100.0, 4.0, 0.5), (100.0, 1.0, 1.0)] {
            let crossings = Self.springCrossings(mass: side, strength: strength, seconds: 6 * expected)
            #expect(crossings.count >= 5)
            let period = (crossings.last! - crossings.first!) / Double(crossings.count - 1)
            #expect(abs(period / expected - 1) < 0.01, "period \(period) vs \(expected)")
        }
    }

    static func cyclotron(strength: Double, charge: Double, speed: Double) -> (center: Point, radius: Double, turning: Double, speeds: [Double]) {
        var a = animator(body(at: Point(500, 500), velocity: Vector(speed, 0), charge: charge))
        var field = FieldBehavior(.magnetic, items: [item])
        field.strength = strength
        a.add(field)
        var points: [Point] = [], speeds: [Double] = [], turning = 0.0
        for _ in 0..<60 {   // one turn at ω = 2π·q·s/m = 2π
            a.advance(steps: 1)
            points.append(a.bodies[item]!.center)
            speeds.append(a.bodies[item]!.velocity.length)
        }
        let center = Point(points.map(\.x).reduce(0, +) / 60, points.map(\.y).reduce(0, +) / 60)
        let radius = points.map { $0.distance(to: center) }.reduce(0, +) / 60
        let last = a.bodies[item]!
        turning = last.center.vector(from: center).cross(last.velocity)
        return (center, radius, turning, speeds)
    }

    @Test func aMagneticFieldTurnsChargesOnCirclesOfRadiusMvOverQB() {
        // m = 1, q = 2, s = 0.5: B = 2π·0.5 = π, r = m·v/(q·B) = 300/(2π) ≈ 47.7 pt.
        let expected = 300 / (2 * Double.pi)
        let ccw = Self.cyclotron(strength: 0.5, charge: 2, speed: 300)
        #expect(abs(ccw.radius / expected - 1) < 0.01, "radius \(ccw.radius) vs \(expected)")
        #expect(ccw.speeds.allSatisfy { abs($0 - 300) < 1e-9 })   // the turn keeps the speed
        // Moving right and turning anticlockwise on screen: the centre is above the start (its x
        // off by the half step's turn, R·sin 3°, as the orbit is a 60-gon through the start).
        #expect(abs(ccw.center.x - 500) < 0.06 * expected && abs(ccw.center.y - (500 - expected)) < 0.01 * expected)
        #expect(ccw.turning < 0)
        let cw = Self.cyclotron(strength: -0.5, charge: 2, speed: 300)
        #expect(abs(cw.radius / expected - 1) < 0.01)
        #expect(abs(cw.center.y - (500 + expected)) < 0.01 * expected)
        #expect(cw.turning > 0)
    }

    @Test func dragIsAForceSoItSlowsExponentiallyAtStrengthOverMassEvenWithSubsteps() {
        // Masses 1 (100×100 at density 1) and 6 (300×200): after a second, v·e^(−s/m).
        for (size, mass) in [(Size(100, 100), 1.0), (Size(300, 200), 6.0)] {
            var a = Self.animator(Self.body(at: Point(100, 100), size: size, velocity: Vector(300, -100)))
            var drag = FieldBehavior(.drag, items: [Self.item])
            drag.strength = 2
            a.add(drag)
            // A stiff spring elsewhere makes every step five sub-steps.
            a.setItem(Self.other, Self.body(at: Point(800, 800)))
            var spring = AttachmentBehavior(item: Self.other, anchor: .point(Point(800, 700)))
            spring.frequency = 20
            a.add(spring)
            a.advance(steps: 60)
            #expect(Self.close(a.bodies[Self.item]!.velocity, Vector(300, -100) * exp(-2 / mass)))
        }
    }

    @Test func fieldsActPerSubstepWithTheSubstepLength() {
        var a = Self.animator(Self.body(at: Point(100, 100)))
        a.add(FieldBehavior(.linearGravity(direction: Vector(1, 0)), items: [Self.item]))
        a.setItem(Self.other, Self.body(at: Point(800, 800)))
        var spring = AttachmentBehavior(item: Self.other, anchor: .point(Point(800, 700)))
        spring.frequency = 20
        a.add(spring)
        a.advance(steps: 60)
        // 1000 pt/s² for one second, however the steps were cut.
        #expect(abs(a.bodies[Self.item]!.velocity.dx - 1000) < 1e-9)
    }

    @Test func aVelocityFieldOverridesGravityPushesAndResistance() {
        var a = Self.animator(Self.body(at: Point(100, 100), velocity: Vector(-50, 80)))
        var field = FieldBehavior(.velocity(direction: Vector(1, 0)), items: [Self.item])
        field.strength = 200
        a.add(field)
        // Added after the field, so the order is not what overrides them.
        a.add(GravityBehavior(items: [Self.item]))
        var push = PushBehavior(items: [Self.item], mode: .continuous)
        push.pushDirection = Vector(0, -3)
        a.add(push)
        var material = ItemBehavior(items: [Self.item])
        material.properties.resistance = 3
        a.add(material)
        for _ in 0..<30 {
            a.advance(steps: 1)
            #expect(Self.close(a.bodies[Self.item]!.velocity, Vector(200, 0)))
        }
        #expect(abs(a.bodies[Self.item]!.center.x - 200) < 1e-9)
        #expect(abs(a.bodies[Self.item]!.center.y - 100) < 1e-9)
    }

    // MARK: Noise

    static func noiseRun(seed: UInt64, smoothness: Double = 0.2, speed: Double = 2) -> [DynamicBody] {
        var a = animator(body(at: Point(300, 300)))
        a.setItem(other, body(at: Point(420, 260), size: Size(60, 80)))
        var noise = FieldBehavior(.noise(smoothness: smoothness, animationSpeed: speed), items: [item, other])
        noise.seed = seed
        noise.strength = 0.5
        a.add(noise)
        var turbulence = FieldBehavior(.turbulence(smoothness: 0.6, animationSpeed: 1), items: [item])
        turbulence.seed = seed &+ 1
        a.add(turbulence)
        a.advance(steps: 120)
        return a.bodies.bodies
    }

    @Test func noiseIsTheSameBitForBitAndDiffersBySeed() {
        let first = Self.noiseRun(seed: 7)
        #expect(first == Self.noiseRun(seed: 7))
        #expect(first[0].center != Self.noiseRun(seed: 8)[0].center)
        #expect(first[0].center != Point(300, 300))
    }

    @Test func noiseStaysWithinOneAndUsesTheRange() {
        var rng = SplitMix64(seed: 42)
        var largest = 0.0, sum = 0.0
        for seed in 0..<4 as Range<UInt64> {
            let noise = GradientNoise(seed: seed)
            for _ in 0..<50_000 {
                func coordinate() -> Double { Double(rng.next() % 2_000_000) / 1000 - 1000 }
                let v = noise.value(coordinate(), coordinate(), coordinate())
                largest = max(largest, abs(v))
                sum += v
            }
        }
        #expect(largest <= 1, "largest \(largest)")
        #expect(largest > 0.6, "largest \(largest)")
        #expect(abs(sum / 200_000) < 0.01)   // centred on 0
        // The field's acceleration is bounded by s·g on each axis.
        var field = FieldBehavior(.noise(smoothness: 0, animationSpeed: 1), items: [Self.item])
        field.strength = 0.5
        for k in 0..<1000 {
            let f = field.force(on: Self.body(at: Point(Double(k) * 3.7, Double(k % 17) * 11.3)), step: Self.h)
            #expect(abs(f.dx) <= 500 && abs(f.dy) <= 500)
        }
    }

    @Test func smootherNoiseChangesLessOverTheSameDistance() {
        func roughness(_ smoothness: Double) -> Double {
            let field = FieldBehavior(.noise(smoothness: smoothness, animationSpeed: 0), items: [Self.item])
            var total = 0.0
            for k in 0..<500 {
                let p = Point(Double(k) * 7.3, Double(k % 23) * 13.1)
                let step = field.force(on: Self.body(at: p + Vector(3, 0)), step: Self.h) - field.force(on: Self.body(at: p), step: Self.h)
                total += step.length
            }
            return total / 500
        }
        let rough = roughness(0), medium = roughness(0.5), smooth = roughness(1)
        #expect(rough > 3 * medium && medium > 3 * smooth, "\(rough) \(medium) \(smooth)")
        #expect(FieldBehavior.noiseWavelength(smoothness: 0) == 10 && FieldBehavior.noiseWavelength(smoothness: 1) == 1000)
    }

    @Test func noiseFreezesAtAnimationSpeedZeroAndMovesOtherwise() {
        var frozen = FieldBehavior(.noise(smoothness: 0.3, animationSpeed: 0), items: [Self.item])
        var live = FieldBehavior(.noise(smoothness: 0.3, animationSpeed: 1), items: [Self.item])
        let p = Self.body(at: Point(77.7, 33.3))
        let frozenBefore = frozen.force(on: p, step: Self.h), liveBefore = live.force(on: p, step: Self.h)
        for _ in 0..<20 {
            _ = frozen.didStep(seconds: Self.h)
            let changed = live.didStep(seconds: Self.h)
            #expect(!changed)   // time alone keeps no animator awake
        }
        #expect(abs(frozen.time - 20 * Self.h) < 1e-12 && abs(live.time - 20 * Self.h) < 1e-12)
        #expect(frozen.force(on: p, step: Self.h) == frozenBefore)
        #expect(live.force(on: p, step: Self.h) != liveBefore)
        // Twice the speed reaches the same pattern in half the steps.
        var fast = FieldBehavior(.noise(smoothness: 0.3, animationSpeed: 2), items: [Self.item])
        fast.time = 10 * Self.h
        live.time = 20 * Self.h
        #expect(Self.close(fast.force(on: p, step: Self.h), live.force(on: p, step: Self.h), 1e-12))
    }

    // MARK: Settings and rest

    @Test func directionSmoothnessAndSpeedBelongToTheirKinds() {
        var radial = FieldBehavior(.radialGravity)
        radial.direction = Vector(1, 0)
        radial.smoothness = 0.5
        #expect(radial.kind == .radialGravity && radial.direction == .zero && radial.smoothness == 0 && radial.animationSpeed == 0)
        var noise = FieldBehavior(.turbulence(smoothness: 0.1, animationSpeed: 3))
        noise.smoothness = 0.9
        #expect(noise.kind == .turbulence(smoothness: 0.9, animationSpeed: 3))
        var linear = FieldBehavior(.linearGravity(direction: Vector(0, 1)))
        linear.direction = Vector(2, 0)
        #expect(linear.kind == .linearGravity(direction: Vector(2, 0)) && linear.falloff == 0 && linear.strength == 1)
        linear.addItem(Self.item)
        linear.addItem(Self.item)
        #expect(linear.items == [Self.item])
        linear.removeItem(Self.item)
        #expect(linear.items.isEmpty)
    }

    @Test func anItemAtRestWhereNoFieldActsLetsTheAnimatorPause() {
        var a = Self.animator(Self.body(at: Point(500, 0)))
        var spring = FieldBehavior(.spring, items: [Self.item])
        spring.region = .circle(radius: 50)
        a.add(spring)
        var noise = FieldBehavior(.noise(smoothness: 0, animationSpeed: 5), items: [Self.item], position: Point(100, 100))
        noise.region = .rect(Size(100, 100))
        a.add(noise)
        a.advance(steps: 60)
        #expect(a.isPaused)
        #expect(a.drainEvents() == [.resumed, .paused])
        #expect(a.bodies[Self.item]!.center == Point(500, 0))
        // Inside the spring's region it is pulled and the animator runs.
        a.setItem(Self.item, Self.body(at: Point(40, 0)))
        a.advance(steps: 30)   // half a period
        #expect(!a.isPaused)
        #expect(a.bodies[Self.item]!.center.x < -39)
    }
}
