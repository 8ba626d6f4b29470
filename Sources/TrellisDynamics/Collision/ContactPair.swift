import TrellisGeometry

/// Two contact points of the same two bodies along the same normal (a box resting on a face),
/// whose normal impulses are solved together (Box2D 2.x's block solver): solving them one
/// after the other leaves a little torque behind each step, and a stack leans.
enum ContactPair {
    /// Solves `first` and `second` together; false when the pair is ill-conditioned (the caller
    /// then solves them one by one).
    static func solve(_ first: inout Contact, _ second: inout Contact, _ bodies: inout [DynamicBody], step h: Double) -> Bool {
        let n = first.normal
        let imB = first.inverseMassB, iiB = first.inverseInertiaB
        let imA = first.inverseMassA, iiA = first.inverseInertiaA
        let rn1A = first.rA.cross(n), rn1B = first.rB.cross(n)
        let rn2A = second.rA.cross(n), rn2B = second.rB.cross(n)
        let k11 = imA + imB + iiA * rn1A * rn1A + iiB * rn1B * rn1B
        let k22 = imA + imB + iiA * rn2A * rn2A + iiB * rn2B * rn2B
        let k12 = imA + imB + iiA * rn1A * rn2A + iiB * rn1B * rn2B
        let determinant = k11 * k22 - k12 * k12
        // Box2D's condition limit.
        guard k11 > 0, k22 > 0, k11 * k11 < 1000 * determinant else { return false }

        first.solveFriction(&bodies)
        second.solveFriction(&bodies)

        let old1 = first.normalImpulse, old2 = second.normalImpulse
        let vn1 = first.relativeVelocity(bodies).dot(n), vn2 = second.relativeVelocity(bodies).dot(n)
        // b = vn − target − K·a: what the impulses must cancel, with the current ones taken out.
        let b1 = vn1 - first.bias - (k11 * old1 + k12 * old2)
        let b2 = vn2 - second.bias - (k12 * old1 + k22 * old2)

        var x1 = 0.0, x2 = 0.0
        // Both pushing, then only the first, then only the second, then neither (the LCP's
        // four cases, as Box2D enumerates them).
        let inverse = 1 / determinant
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
        first.apply(n * (x1 - old1), &bodies)
        second.apply(n * (x2 - old2), &bodies)
        first.normalImpulse = x1
        second.normalImpulse = x2
        return true
    }
}

/// How the solver takes a step's contacts: alone, or two together (`ContactPair`).
enum ContactGroup: Equatable {
    case single(Int)
    /// The contacts at this index and the next.
    case pair(Int)
}

extension ConstraintSet {
    /// One velocity iteration over the contacts, alone or in pairs as `contactGroups` says
    /// (in place: a contact is a few hundred bytes, not worth copying out and back).
    mutating func solveContactVelocities(_ bodies: inout [DynamicBody], step h: Double) {
        let groups = contactGroups
        contacts.withUnsafeMutableBufferPointer { contacts in
            guard let base = contacts.baseAddress else { return }
            for group in groups {
                switch group {
                case .single(let k):
                    base[k].solveVelocity(&bodies, step: h)
                case .pair(let k):
                    if !ContactPair.solve(&base[k], &base[k + 1], &bodies, step: h) {
                        base[k].solveVelocity(&bodies, step: h)
                        base[k + 1].solveVelocity(&bodies, step: h)
                    }
                }
            }
        }
    }

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
