import TrellisDynamics

/// The settings the engine keeps beside a behaviour a test adds (the engine never reads them).
struct TestBehaviorSpec: DynamicBehaviorSpec {
    var typeName = "test"
}
