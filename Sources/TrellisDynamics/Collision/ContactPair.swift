import TrellisGeometry

/// Two contact points of the same two bodies along the same normal (a box resting on a face),
/// whose normal impulses are solved together (Box2D 2.x's block solver): solving them one
/// after the other leaves a little torque behind each step, and a stack leans.
enum ContactPair {
    /// The pair's block matrix K, worked out once a (sub-)step (it depends on the contacts'
    /// geometry and masses only); `blockable` false when it is ill-conditioned (the solver
    /// then solves them one by one).
    static func group(_ first: ContactSolver.Row, _ second: ContactSolver.Row, first k: Int) -> ContactSolver.Group {
        let n = Vector(dx: first.nx, dy: first.ny)
        let imB = first.imB, iiB = first.iiB
        let imA = first.imA, iiA = first.iiA
        let rn1A = Vector(dx: first.rAx, dy: first.rAy).cross(n), rn1B = Vector(dx: first.rBx, dy: first.rBy).cross(n)
        let rn2A = Vector(dx: second.rAx, dy: second.rAy).cross(n), rn2B = Vector(dx: second.rBx, dy: second.rBy).cross(n)
        let k11 = imA + imB + iiA * rn1A * rn1A + iiB * rn1B * rn1B
        let k22 = imA + imB + iiA * rn2A * rn2A + iiB * rn2B * rn2B
        let k12 = imA + imB + iiA * rn1A * rn2A + iiB * rn1B * rn2B
        let determinant = k11 * k22 - k12 * k12
        // Box2D's condition limit.
        let blockable = k11 > 0 && k22 > 0 && k11 * k11 < 1000 * determinant
        return ContactSolver.Group(first: k, pair: true, blockable: blockable, k11: k11, k12: k12, k22: k22, inverse: 1 / determinant)
    }

    /// Solves the contact at `first` and the next together (a `blockable` group; the same two
    /// bodies, held in registers throughout); false when the LCP has no solution (the caller
    /// then solves them one by one, after the friction this already applied, as before).
    @inline(__always)
    static func solve(_ group: ContactSolver.Group, _ first: UnsafeMutablePointer<ContactSolver.Row>,
                      _ bodies: UnsafeMutablePointer<ContactSolver.Body>) -> Bool {
        ContactSolver.withBodies(first, bodies) { a, b in
            let second = first + 1
            let k11 = group.k11, k12 = group.k12, k22 = group.k22
            ContactSolver.solveFriction(first, &a, &b)
            ContactSolver.solveFriction(second, &a, &b)

            let nx = first.pointee.nx, ny = first.pointee.ny
            let old1 = first.pointee.normalImpulse, old2 = second.pointee.normalImpulse
            let v1 = ContactSolver.relativeVelocity(first, a, b), v2 = ContactSolver.relativeVelocity(second, a, b)
            let vn1 = v1.x * nx + v1.y * ny, vn2 = v2.x * nx + v2.y * ny
            // b = vn − target − K·a: what the impulses must cancel, with the current ones taken out.
            let b1 = vn1 - first.pointee.bias - (k11 * old1 + k12 * old2)
            let b2 = vn2 - second.pointee.bias - (k12 * old1 + k22 * old2)

            var x1 = 0.0, x2 = 0.0
            // Both pushing, then only the first, then only the second, then neither (the LCP's
            // four cases, as Box2D enumerates them).
            let inverse = group.inverse
            let both1 = -inverse * (k22 * b1 - k12 * b2), both2 = -inverse * (-k12 * b1 + k11 * b2)
            if both1 >= 0 && both2 >= 0 {
                x1 = both1; x2 = both2
            } else if -b1 / k11 >= 0 && k12 * (-b1 / k11) + b2 >= 0 {
                x1 = -b1 / k11
            } else if -b2 / k22 >= 0 && k12 * (-b2 / k22) + b1 >= 0 {
                x2 = -b2 / k22
            } else if !(b1 >= 0 && b2 >= 0) {
                return false
            }
            let lambda1 = x1 - old1, lambda2 = x2 - old2
            ContactSolver.apply(first, nx * lambda1, ny * lambda1, &a, &b)
            ContactSolver.apply(second, nx * lambda2, ny * lambda2, &a, &b)
            first.pointee.normalImpulse = x1
            second.pointee.normalImpulse = x2
            return true
        }
    }
}

/// How the solver takes a step's contacts: alone, or two together (`ContactPair`).
enum ContactGroup: Equatable {
    case single(Int)
    /// The contacts at this index and the next.
    case pair(Int)
}

extension ConstraintSet {
    /// Neighbouring contacts of the same bodies, boundary and normal, exactly two of them, form
    /// a pair (the finders emit a box's points on one face one after the other).
    func groupedContacts() -> [ContactGroup] {
        func together(_ i: Int, _ j: Int) -> Bool {
            guard j < contacts.count else { return false }
            let x = contacts[i], y = contacts[j]
            return x.a == y.a && x.b == y.b && x.key.boundary == y.key.boundary && x.normal == y.normal
        }
        var groups: [ContactGroup] = []
        var k = 0
        while k < contacts.count {
            if together(k, k + 1) && !together(k, k + 2) {
                groups.append(.pair(k))
                k += 2
            } else {
                groups.append(.single(k))
                k += 1
            }
        }
        return groups
    }
}
