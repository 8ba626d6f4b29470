import TrellisCore
import TrellisJSON
import TrellisProtocol

/// Work a request's handler left for later loop turns (a long `clock.advance` over restless
/// physics, a chunked upload's commit worked out on libuv's thread pool), taken a budget at a
/// time so that no request holds the loop past `requestBudgetMilliseconds`. Until it is done
/// the request is not answered nor journaled, and every other request that names its session
/// waits (`PendingRequest`).
struct DeferredWork {
    let session: Session
    /// While true the work is on the thread pool and the loop has nothing to take: the runner
    /// skips it (no turn spins on it), and the pool's completion starts the runner again.
    var awaitingPool: () -> Bool = { false }
    /// The step journals the change itself (a commit writes the one request it equals).
    var journaledByStep = false
    /// Takes more of the work while `more()` says so (at least one step); the request's outcome
    /// once it is done, nil while it is not.
    let step: (Session, () -> Bool) -> DeferredOutcome?
}

/// How deferred work ended: a result (a value, or bytes the step wrote itself) or a refusal.
enum DeferredOutcome {
    case value(JSONValue)
    case encoded(ByteBuffer)
    case failure(RPCError)
}
